"""The catalogue of notifications (notify.kinds): every class is stored and read back as it
was told, says its words in both languages, and its event key is built, matched and read
from the one format it declares."""

import pytest
from django.utils import translation

from notify import kinds, services
from notify.models import Kind, Notification

pytestmark = pytest.mark.django_db

EXAMPLES = {
    kinds.YourMove: kinds.YourMove(table_id=4, moves_made=17, name="Пятничный", path="/play/4/"),
    kinds.Seated: kinds.Seated(
        round_id=9, match_id=31, position=2, tournament="Кубок", round=2, table=3, seat=3,
        others=["Боря", "Вера"], path="/matches/31/",
    ),
    kinds.ClockStarted: kinds.ClockStarted(
        round_id=9, stamp=1767261600, tournament="Кубок", round=2, minutes=40
    ),
    kinds.ToConfirm: kinds.ToConfirm(
        round_id=55, version=3, round=6, started="2026-12-01T18:00:00+00:00",
        tournament="Кубок", tournament_round=2, table=3,
    ),
    kinds.ClaimWaiting: kinds.ClaimWaiting(claim_id=8, guest="Гость", account="alice"),
    kinds.ClaimDecided: kinds.ClaimDecided(claim_id=8, guest="Гость", approved=False),
    kinds.TournamentDay: kinds.TournamentDay(tournament_id=12, tournament="Кубок", place="Клуб"),
    kinds.Deadline: kinds.Deadline(table_id=4, name="", deadline="2026-12-05T09:30:00+00:00"),
    kinds.StandIn: kinds.StandIn(
        table_id=4, number=30, name="Пятничный", move={"kind": "play", "card": "8H"}, away=True
    ),
    kinds.TestMessage: kinds.TestMessage(number=1, at=1767261600.5),
}  # fmt: skip


def test_every_class_has_an_example_and_every_kind_a_class():
    assert set(EXAMPLES) == set(kinds.CATALOGUE)
    assert {told.kind for told in kinds.CATALOGUE} == set(Kind.values)
    names = [told.KEY[0] for told in kinds.CATALOGUE]
    assert len(set(names)) == len(names)  # no two classes' keys can be the same


@pytest.mark.parametrize("told", EXAMPLES.values(), ids=lambda told: type(told).__name__)
def test_told_is_stored_and_read_back_as_it_was_and_says_its_words(alice, told):
    notification = services.tell(user=alice, told=told) or Notification.objects.get()
    stored = Notification.objects.get(pk=notification.pk)
    assert stored.kind == told.kind and stored.key == told.key()
    assert kinds.read(stored) == told
    assert type(told).fields_of(stored.key) == {
        name: str(getattr(told, name)) for name in told.KEY[1:]
    }
    assert stored.key.startswith(type(told).prefix(getattr(told, told.KEY[1])))
    for language in ("ru", "en"):
        with translation.override(language):
            message = told.message()
        assert message.title and message.text and message.path.startswith("/")
    with translation.override("ru"):
        assert told.message().title != EXAMPLES[kinds.TestMessage].message().title or (
            isinstance(told, kinds.TestMessage)
        )


def test_a_key_of_another_class_has_no_fields_here():
    assert kinds.TournamentDay.fields_of(EXAMPLES[kinds.YourMove].key()) == {}
    assert kinds.TournamentDay.fields_of("day:12:extra") == {}


def test_the_words_are_the_classes_own(alice):
    with translation.override("ru"):
        seated = EXAMPLES[kinds.Seated].message()
        stand_in = EXAMPLES[kinds.StandIn].message()
    assert seated.title == "Кубок, тур 2: стол 3"
    assert "Боря, Вера" in seated.text
    assert "восьмёрку червей" in stand_in.text


def test_a_payload_of_no_class_known_is_read_as_the_test_message(alice):
    old = Notification.objects.create(user=alice, kind=Kind.REMINDER, key="x", payload={"a": 1})
    assert isinstance(kinds.read(old), kinds.TestMessage)
