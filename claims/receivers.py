"""What this app answers when the games app asks (games.signals): a scorekeeper naming someone
else's account asks it to confirm, and once it has, that scorekeeper's tables count for it."""

from django.dispatch import receiver

from claims import notices, queries, services
from games.models import Seat
from games.signals import (
    account_named,
    confirmations_waiting,
    stand_ins_waiting,
    tables_counted,
)


@receiver(account_named)
def ask_the_account(sender, *, guest, user, by, **kwargs) -> None:
    services.ask_to_confirm(guest=guest, user=user, by=by)


@receiver(tables_counted)
def confirmed_once(sender, *, user, by, **kwargs) -> bool:
    return queries.confirmed_a_guest_of(user, by)


@receiver(stand_ins_waiting)
def still_asked(sender, *, match, by, **kwargs) -> list[str]:
    return queries.asked_at(match, by)


@receiver(confirmations_waiting)
def guests_to_confirm(sender, *, match, user, **kwargs) -> list[queries.ToConfirm]:
    return notices.to_confirm(user, Seat.objects.filter(match=match).values("player_id"))
