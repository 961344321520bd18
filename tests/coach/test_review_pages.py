"""The review as people see it: the replay marks each reviewed move and says, at a step, what
was better and what it would have saved; the match's review gives each seat's accuracy and
their costliest decisions, linked to the replay; after a round's board, the viewer's accuracy
(or that the coach is at it)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cards101 import analysis
from coach import worker
from coach.models import ReviewedDecision, RoundReview
from play.board import MoveShown
from play.models import PlayTable
from tests.coach.conftest import played_table
from tests.coach.mistakes import mistakes_of

pytestmark = pytest.mark.django_db
EN = {"Accept-Language": "en"}
RU = {"Accept-Language": "ru"}


def reviewed(user, **kwargs) -> PlayTable:
    """A played table whose finished rounds the worker has reviewed."""
    table = played_table(user, **kwargs)
    PlayTable.objects.update(server_moves_at=None)
    worker.forget()
    while worker.review_due(budget=0.003, slice_seconds=60):
        pass
    assert not RoundReview.objects.exclude(status="done").exists()
    return table


def replay(client, table, step, headers=EN, number=1) -> str:
    url = reverse("play:replay", args=[table.pk, number])
    response = client.get(f"{url}?step={step}", headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def costly(table) -> ReviewedDecision:
    return ReviewedDecision.objects.filter(review__table=table).exclude(label="best").first()


def test_the_replay_marks_every_reviewed_move_and_links_each_to_its_step(client, alice):
    table = reviewed(alice)
    page = replay(client, table, 0)
    assert "The coach's review" in page
    rows = list(ReviewedDecision.objects.filter(review__table=table).order_by("index"))
    for row in rows:
        assert f'href="?step={row.index}"' in page
    assert page.count('class="coach-mark"') >= len(rows)
    for label in {row.label for row in rows}:
        assert {
            "best": "best",
            "inaccuracy": "inaccuracy",
            "mistake": "mistake",
            "blunder": "blunder",
        }[label] in page


def test_at_a_costly_move_the_replay_says_what_was_better_and_what_it_would_have_saved(
    client, alice
):
    table = reviewed(alice)
    row = costly(table)
    assert row is not None, "greedy bots and a player of first moves make mistakes"
    page = replay(client, table, row.index)
    assert f"Move {row.index + 1}</strong>" in page
    assert "Better:" in page
    saved = max(1, round(row.loss))
    assert f"which would have saved {saved} point" in page
    assert MoveShown.of(row.best).face is None or MoveShown.of(row.best).face.title in page
    assert 'aria-current="step"' in page
    # In Russian too.
    page = replay(client, table, row.index, RU)
    assert "Лучше:" in page and "сэкономил" in page


def test_at_a_best_move_the_replay_says_so(client, alice):
    table = reviewed(alice)
    row = ReviewedDecision.objects.filter(review__table=table, label="best").first()
    page = replay(client, table, row.index)
    assert "Best move." in page


def test_while_the_round_waits_the_replay_says_the_coach_is_at_it(client, alice):
    table = played_table(alice)
    moves = table.moves.filter(round=0).count()
    page = replay(client, table, 0)
    assert f"The coach is reviewing this round: 0 of {moves} moves so far." in page


def test_the_match_review_gives_each_seats_accuracy_and_their_costliest_decisions(
    client, alice, carol
):
    table = mistakes_of(alice, count=1, rounds=2)[0].review.table
    rows = list(ReviewedDecision.objects.filter(review__table=table))
    client.force_login(alice)
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=EN).content.decode()
    mine = [row.loss for row in rows if row.seat == 0]
    assert f"<strong>{round(analysis.accuracy(mine))}</strong>" in page
    assert "(you)" in page
    # Alice's part comes first, her costliest decision linked to its step.
    worst = max((row for row in rows if row.seat == 0), key=lambda row: row.loss)
    assert worst.label != "best"
    link = reverse("play:replay", args=[table.pk, worst.review.round + 1])
    assert f'{link}?step={worst.index}"' in page.split("<h3>")[1]
    # and her mistakes wait to be practised.
    assert f'href="{reverse("coach:practice")}">Practise your mistakes<' in page
    # Anyone may look; nobody is "you" for carol, who has nothing to practise here.
    client.force_login(carol)
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=RU).content.decode()
    assert "Точность" in page and "(вы)" not in page
    assert reverse("coach:practice") not in page


def test_a_stand_ins_moves_do_not_count_in_a_persons_accuracy(client, alice):
    table = reviewed(alice)
    mine = ReviewedDecision.objects.filter(review__table=table, seat=0)
    own = mine.exclude(label="best").first() or mine.first()
    mine.exclude(pk=own.pk).update(by="timer")
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=EN).content.decode()
    assert f"<strong>{round(analysis.accuracy([own.loss]))}</strong>" in page


def test_the_match_review_says_when_rounds_still_wait(client, alice):
    table = played_table(alice)
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=EN).content.decode()
    assert "The coach is still reviewing 1 round" in page


def test_after_a_rounds_board_the_person_sees_their_accuracy_once_the_coach_is_done(
    client, alice, carol
):
    table = played_table(alice)
    client.force_login(alice)
    board = client.get(table.get_absolute_url(), headers=EN).content.decode()
    slot = reverse("play:round_end", args=[table.pk]) + "?round=1"
    assert slot in board
    panel = client.get(slot, headers=EN).content.decode()
    assert "The coach is reviewing this round" in panel
    assert 'hx-trigger="every 3s"' in panel
    PlayTable.objects.update(server_moves_at=None)
    worker.forget()
    while worker.review_due(budget=0.003, slice_seconds=60):
        pass
    losses = ReviewedDecision.objects.filter(review__table=table, seat=0).values_list(
        "loss", flat=True
    )
    panel = client.get(slot, headers=EN).content.decode()
    assert f"Your accuracy this round: {round(analysis.accuracy(list(losses)))}" in panel
    assert reverse("coach:table_review", args=[table.pk]) in panel
    assert "hx-trigger" not in panel
    # The coach's own address answers the same while it polls.
    again = client.get(reverse("coach:round_end", args=[table.pk]) + "?round=1", headers=EN)
    assert "Your accuracy this round" in again.content.decode()
    # A spectator is shown the way to the review, and nobody's accuracy.
    client.force_login(carol)
    panel = client.get(slot, headers=RU).content.decode()
    assert "Точность" not in panel and reverse("coach:table_review", args=[table.pk]) in panel
