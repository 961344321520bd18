"""The one error type of the rules library: a translatable message about a player and round."""

from collections.abc import Callable, Mapping
from typing import Any


def gettext_noop(s: str) -> str:
    """Mark a message for translation without translating it, so xgettext can find it."""
    return s


ROUND_PREFIX = gettext_noop("Round %(number)s: %(message)s")


class RulesError(ValueError):
    """Input that breaks a rule; `template % params` is the English message."""

    def __init__(
        self,
        template: str,
        params: Mapping[str, Any] | None = None,
        *,
        player: str | None = None,
        round: int | None = None,
    ) -> None:
        self.template = template
        self.params = dict(params or {})
        self.player = player
        self.round = round
        super().__init__(template)

    def render(self, translate: Callable[[str], str] = gettext_noop) -> str:
        """The message, each template passed through `translate` (e.g. Django's gettext)."""
        # Cards (and anything else that is not text or a number) show as their str().
        params = {
            key: value if isinstance(value, int | str) else str(value)
            for key, value in self.params.items()
        }
        message = translate(self.template) % params
        if self.round is None:
            return message
        return translate(ROUND_PREFIX) % {"number": self.round + 1, "message": message}

    def __str__(self) -> str:
        return self.render()

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only arguments are lost by the default exception pickling.
        state = {"player": self.player, "round": self.round}
        return (self.__class__, (self.template, self.params), state)
