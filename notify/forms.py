"""The Notifications page's form: a switch per kind and channel, quiet hours, time zone."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from notify import preferences, time_zones
from notify.models import Channel, Settings


def switch_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class SettingsForm(forms.Form):
    quiet_from = forms.TimeField(
        label=_("Quiet from"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_until = forms.TimeField(
        label=_("Quiet until"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False, choices=time_zones.choices)

    def __init__(self, *args, prefs: Settings, **kwargs) -> None:
        initial = {
            "quiet_from": prefs.quiet_from,
            "quiet_until": prefs.quiet_until,
            "time_zone": prefs.time_zone,
        }
        for kind in preferences.SWITCHED:
            for channel in Channel.values:
                initial[switch_name(kind, channel)] = preferences.is_on(prefs, kind, channel)
        super().__init__(*args, initial=initial, **kwargs)
        for kind in preferences.SWITCHED:
            for channel in Channel:
                self.fields[switch_name(kind, channel.value)] = forms.BooleanField(
                    required=False, label=f"{kind.label}: {channel.label}"
                )

    def clean(self):
        data = super().clean()
        if bool(data.get("quiet_from")) != bool(data.get("quiet_until")):
            raise forms.ValidationError(_("Quiet hours need a start and an end."))
        return data

    def _post_clean(self) -> None:
        """The keyboard lands on the first field to put right (its `autofocus`), each wrong one
        marked for screen readers; quiet hours with one end only: the missing end."""
        super()._post_clean()
        wrong = [name for name in ("quiet_from", "quiet_until", "time_zone") if name in self.errors]
        if not wrong and forms.forms.NON_FIELD_ERRORS in self.errors:
            wrong = ["quiet_until" if self.cleaned_data.get("quiet_from") else "quiet_from"]
        for name in wrong:
            self.fields[name].widget.attrs["aria-invalid"] = "true"
        if wrong:
            self.fields[wrong[0]].widget.attrs["autofocus"] = True

    def switches(self) -> dict[str, list[str]]:
        return {
            kind: [
                channel
                for channel in Channel.values
                if self.cleaned_data.get(switch_name(kind, channel))
            ]
            for kind in preferences.SWITCHED
        }

    def grid(self) -> list[tuple[str, list]]:
        """The switches by kind: (kind's label, [bound field per channel])."""
        return [
            (kind.label, [self[switch_name(kind, channel)] for channel in Channel.values])
            for kind in preferences.SWITCHED
        ]
