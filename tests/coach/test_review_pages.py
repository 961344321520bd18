"""The review as people see it: the replay marks each reviewed move and says, at a step, what
was better and what it would have saved; the match's review gives each seat's accuracy and
their costliest decisions, linked to the replay; after a round's board, the viewer's accuracy
(or that the coach is at it)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cards101 import analysis
from coach.models import ReviewedDecision, RoundReview
from play.board import MoveShown
from play.models import PlayTable
from tests.coach.factories import played_table
from tests.coach.mistakes import mistakes_of
from tests.factories import run_tasks

pytestmark = pytest.mark.django_db
EN = {"Accept-Language": "en"}
RU = {"Accept-Language": "ru"}


def reviewed(user, **kwargs) -> PlayTable:
    """A played table whose finished rounds the coach's tasks have reviewed."""
    table = played_table(user, **kwargs)
    PlayTable.objects.update(server_moves_at=None)
    run_tasks()
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
    # Each move's own line says its label, in words and by its class, as the review judged it.
    said = {
        int(step): (kind, words)
        for kind, step, words in re.findall(
            r'<li class="label-(\w+)"><a href="\?step=(\d+)".*?'
            r'<span class="coach-mark" aria-hidden="true">[^<]*</span> '
            r'<span class="coach-label">([^<]*)</span>',
            page,
        )
    }
    words = {"best": "best", "inaccuracy": "inaccuracy", "mistake": "mistake", "blunder": "blunder"}
    assert {row.index: (row.label, words[row.label]) for row in rows} == said
    assert {row.label for row in rows} - {"best"}, "greedy bots make costly moves to mark"


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
    assert f"<strong>{round(analysis.accuracy(mine))}%</strong>" in page
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
    table = reviewed(alice, rounds=3)
    mine = ReviewedDecision.objects.filter(review__table=table, seat=0)
    own = mine.exclude(label="best").order_by("-loss").first()
    assert own is not None, "a player of first moves makes a costly one"
    everything = round(analysis.accuracy([d.loss for d in mine]))
    alone = round(analysis.accuracy([own.loss]))
    assert alone != everything  # so that the page shows which it counted
    mine.exclude(pk=own.pk).update(by="timer")  # the others were the stand-in's
    client.force_login(alice)
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=EN).content.decode()
    assert percent(r'<tr class="mine">.*?<strong>(\d+)%</strong>', page) == alone


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
    run_tasks()
    losses = ReviewedDecision.objects.filter(review__table=table, seat=0).values_list(
        "loss", flat=True
    )
    panel = client.get(slot, headers=EN).content.decode()
    assert f"Your accuracy this round: {round(analysis.accuracy(list(losses)))}%" in panel
    assert reverse("coach:table_review", args=[table.pk]) in panel
    assert "hx-trigger" not in panel
    # The coach's own address answers the same while it polls.
    again = client.get(reverse("coach:round_end", args=[table.pk]) + "?round=1", headers=EN)
    assert "Your accuracy this round" in again.content.decode()
    # A spectator is shown the way to the review, and nobody's accuracy.
    client.force_login(carol)
    panel = client.get(slot, headers=RU).content.decode()
    assert "Точность" not in panel and reverse("coach:table_review", args=[table.pk]) in panel


def costliest_of(page: str) -> str:
    return re.search(r'<ol class="coach-costliest">.*?</ol>', page, re.S)[0]


@pytest.mark.parametrize(
    ("headers", "kind"),
    [(EN, "Kept a Queen too long."), (RU, "Дама придержана слишком долго.")],
)
def test_the_match_review_says_what_kind_of_mistake_each_costly_move_was(
    client, alice, headers, kind
):
    worst = mistakes_of(alice, count=1)[0]
    ReviewedDecision.objects.filter(pk=worst.pk).update(kind="queen_kept")
    table = worst.review.table
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=headers)
    costliest = costliest_of(page.content.decode())
    step = f"?step={worst.index}"
    row = next(item for item in costliest.split("<li") if step in item)
    assert f'<strong class="coach-kind">{kind}</strong>' in row
    # A mistake of no kind the coach can name is not given one.
    ReviewedDecision.objects.filter(pk=worst.pk).update(kind="other")
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=headers)
    assert "coach-kind" not in costliest_of(page.content.decode())


@pytest.mark.parametrize(
    ("headers", "kind", "better"),
    [
        (EN, "Drew where a card could be played.", "Better:"),
        (RU, "Взята карта, хотя можно было сыграть.", "Лучше:"),
    ],
)
def test_at_a_costly_move_the_replay_says_what_kind_of_mistake_it_was(
    client, alice, headers, kind, better
):
    worst = mistakes_of(alice, count=1)[0]
    ReviewedDecision.objects.filter(pk=worst.pk).update(kind="drew")
    page = replay(client, worst.review.table, worst.index, headers, worst.review.round + 1)
    current = re.search(r'<div class="coach-current.*?</div>', page, re.S)[0]
    assert f'<strong class="coach-kind">{kind}</strong> {better}' in current


@pytest.mark.parametrize(
    ("headers", "open_hands", "judged"),
    [
        (
            EN,
            "The round is over, so every hand is open, at every step.",
            "Each move is judged by what its player could see just before it",
        ),
        (
            RU,
            "Раунд окончен, поэтому все руки открыты — на каждом шаге.",
            "Каждый ход оценён по тому, что его игрок видел перед ним",
        ),
    ],
)
def test_the_replay_says_every_hand_is_open_and_the_coach_judged_by_what_was_seen(
    client, alice, headers, open_hands, judged
):
    table = reviewed(alice)
    page = replay(client, table, 0, headers)
    assert open_hands in page and judged in page
    assert "такой, какой её видел игрок" not in page


def percent(pattern: str, page: str) -> int:
    return int(re.search(pattern, page)[1])


@pytest.mark.parametrize("headers", [EN, RU])
def test_the_review_gives_the_profiles_figure_beside_the_matchs_and_says_what_each_counts(
    client, alice, headers
):
    first = reviewed(alice)
    reviewed(alice, seed=5)
    client.force_login(alice)
    page = client.get(reverse("coach:table_review", args=[first.pk]), headers=headers)
    page = page.content.decode()
    match = percent(r'<tr class="mine">.*?<strong>(\d+)%</strong>', page)
    mine = ReviewedDecision.objects.filter(review__table=first, seat=0, by="")
    assert match == round(analysis.accuracy([d.loss for d in mine]))
    overall = re.search(r'<p class="coach-overall">(.*?)</p>', page, re.S)[1]
    everything = ReviewedDecision.objects.filter(player__user=alice, by="")
    figure = round(analysis.accuracy([d.loss for d in everything]))
    # The same figure as the profile's, for two tables, with the way to the profile.
    profile_page = client.get(
        reverse("stats:profile", args=[alice.player.pk]), headers=headers
    ).content.decode()
    if headers is EN:
        assert f"as your profile gives it: {figure}% (2 tables)." in overall
        assert "This match alone: the mean over each player's own decisions in it" in page
        assert "accuracy is 100% when every move was the best one" in page
        assert f"Accuracy {figure}% over {everything.count()} reviewed decisions" in profile_page
        assert "That is the mean over 2 reviewed tables; a match's review gives" in profile_page
    else:
        assert f"как в профиле: {figure}% (2 стола)." in overall
        assert "Только эта партия: среднее по собственным решениям каждого игрока" in page
        assert "точность равна 100%, когда каждый ход лучший" in page
        assert f"Точность {figure}% по {everything.count()} разобранным" in profile_page
        assert "Это среднее по 2 разобранным столам; в разборе партии" in profile_page
    assert f'href="{reverse("stats:profile", args=[alice.player.pk])}"' in overall


def test_a_spectator_of_the_review_is_given_no_figure_of_their_own(client, alice, carol):
    table = reviewed(alice)
    client.force_login(carol)
    page = client.get(reverse("coach:table_review", args=[table.pk]), headers=EN)
    assert "coach-overall" not in page.content.decode()


def test_in_russian_the_move_played_is_said_without_a_gender_the_name_may_not_have(client, alice):
    worst = mistakes_of(alice, count=1)[0]
    table = worst.review.table
    page = replay(client, table, worst.index, RU, worst.review.round + 1)
    current = re.search(r'<div class="coach-current.*?</div>', page, re.S)[0]
    assert '<span class="pname">alice</span>: сыграно' in current
    review = client.get(reverse("coach:table_review", args=[table.pk]), headers=RU)
    assert "</a>: сыграно" in costliest_of(review.content.decode())
    assert "сыграл" not in page + review.content.decode()
