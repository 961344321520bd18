"""What played tables tell the apps above (a correspondence move's time running out, a move
the site made for a person, a round finished), what they ask them for their
pages (panels beside a replay and a round's end), and what they answer the games app (which
of them show a player's name)."""

from django.dispatch import Signal, receiver

from games.signals import pages_showing_players
from play.models import PlaySeat, PlayTable

move_time_running_out = Signal()
"""Sent by the reminder's task (play.reminders), once a move, when the time of the person to move
at a correspondence table runs low (play.correspondence.remind_at), inside the transaction
that marks it sent: `table` (PlayTable), `seat` (PlaySeat), `user` and `deadline` (an aware
datetime, when the stand-in plays for them). A receiver writes what it sends in that
transaction; raising undoes the mark, and the task tries again later."""

moved_for_person = Signal()
"""Sent when the stand-in made a move for a person whose time for it ran out (not for someone
away already, nor for someone who resigned and left), inside the transaction that keeps the
move: `table` (PlayTable), `seat` (PlaySeat), `user`, `move` (cards101.engine.Move), `number`
(the move's PlayMove.number) and `away` (the seat is now played by the stand-in until its
person comes back). A receiver writes what it sends in that transaction."""

round_finished = Signal()
"""Sent when a round of a played table ends, inside the transaction that keeps its last move
and its result: `table` (PlayTable) and `round` (the round's index, 0-based as the engine
counts; its moves are the table's PlayMove rows of that round). A receiver writes what must
follow (a review for the coach to compute) in that transaction; raising undoes the move."""

table_changed = Signal()
"""Sent whenever a table's version moves (a seat taken, a deal, a move, a round's end, a
resignation), inside the transaction that keeps the change: `table` (PlayTable, locked). A
receiver writes what follows (a group chat's journal of the table) in that transaction; it
reads only what every seat may see."""

replay_panels = Signal()
"""Asked by the replay of a finished round for what the apps above show beside it (the coach's
marks): `table` (PlayTable), `round` (0-based), `step` (the moves made before the position
shown, 0..count), `count` (the round's moves), `seats` (PlaySeat, in order, as the board names
them) and `viewer` (the request's user). A receiver returns HTML, escaped by its maker, or "";
the page is not cached, so a receiver costs a fixed number of queries."""

round_end_panels = Signal()
"""Asked, after the board of a round's end (loaded apart from it: the board is cached for
spectators and is not drawn again when the apps above have more to say), for what the apps
above show there (the coach's accuracy of the viewer): `table`, `round` (0-based), `seats` and
`viewer`. A receiver returns HTML, escaped by its maker, or ""."""


def panels(signal: Signal, **asked) -> list[str]:
    """The HTML the receivers of `signal` answer (those with something to show)."""
    return [html for _, html in signal.send(sender=PlayTable, **asked) if html]


@receiver(pages_showing_players)
def tables_showing(sender, *, players: list[int], **kwargs) -> list[tuple[type, int]]:
    """A table's board names its seats (its spectators' board is cached: play.views)."""
    seated = PlaySeat.objects.filter(player__in=players).values_list("table_id", flat=True)
    return [(PlayTable, pk) for pk in set(seated)]
