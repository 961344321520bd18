"""Practice from your own mistakes: the list of your costliest reviewed moves, a position as
your seat saw it, tries told how they compare with the best, until solved."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cards101 import analysis
from cards101.analysis import practice
from cards101.engine import Game
from coach import queries, services
from coach.models import Practice, ReviewedDecision
from games.labels import card_name
from play import queries as play_queries
from tests.coach.mistakes import best_move, mistakes_of, reviewed_table, worst_move

pytestmark = pytest.mark.django_db


def position_url(decision) -> str:
    return reverse("coach:practice_position", args=[decision.pk])


def answer_url(decision) -> str:
    return reverse("coach:practice_answer", args=[decision.pk])


def posted(move: dict) -> dict:
    return {key: value for key, value in move.items() if value is not None}


def a_wrong_move(decision) -> dict:
    """A legal move that does not solve the position (the costliest)."""
    move = worst_move(decision)
    assert not practice.solves(decision, move)
    return move


@pytest.fixture
def mistakes(alice):
    return mistakes_of(alice, count=2)


def test_the_list_shows_my_costliest_mistakes_first(client, alice, mistakes):
    client.force_login(alice)
    body = client.get(reverse("coach:practice")).content.decode()
    first, second = mistakes
    assert first.loss >= second.loss >= analysis.MISTAKE
    assert body.index(position_url(first)) < body.index(position_url(second))
    assert "2 positions to solve" in body
    assert f"cost about {round(first.loss)} points" in body
    assert "not tried yet" in body
    assert f'href="{position_url(first)}">Practise the next position' in body.replace(
        'class="button" ', ""
    )


@pytest.mark.parametrize(
    ("loss", "label", "said"),
    [
        (89.0, "blunder", "грубая ошибка стоила около 89 очков"),
        (21.0, "blunder", "грубая ошибка стоила около 21 очка"),
        (7.0, "mistake", "ошибка стоила около 7 очков"),
        (3.0, "inaccuracy", "неточность стоила около 3 очков"),
    ],
)
def test_the_list_says_in_russian_what_each_mistake_cost_in_agreement(
    client, alice, mistakes, loss, label, said
):
    first, _ = mistakes
    ReviewedDecision.objects.filter(pk=first.pk).update(loss=loss, label=label)
    client.force_login(alice)
    body = client.get(reverse("coach:practice"), headers={"Accept-Language": "ru"})
    # As a person reads the row: the badge, then what it cost.
    text = " ".join(re.sub(r"<[^>]+>", " ", body.content.decode()).split())
    assert said in text
    assert "стоил около" not in text


def test_a_solved_position_goes_after_the_unsolved_ones(client, alice, mistakes):
    first, second = mistakes
    services.try_move(user=alice, decision=first, move=best_move(first))
    client.force_login(alice)
    body = client.get(reverse("coach:practice")).content.decode()
    assert body.index(position_url(second)) < body.index(position_url(first))
    assert "1 position to solve · 1 solved" in body
    assert re.search(r'practice-state">\s*solved', body)


def test_when_every_position_is_solved_the_list_says_so(client, alice, mistakes):
    for decision in mistakes:
        services.try_move(user=alice, decision=decision, move=best_move(decision))
    client.force_login(alice)
    body = client.get(reverse("coach:practice")).content.decode()
    assert "All solved!" in body and "Practise the next position" not in body


def test_with_nothing_reviewed_the_list_says_how_positions_come(client, alice):
    client.force_login(alice)
    body = client.get(reverse("coach:practice")).content.decode()
    assert "Nothing to practise yet." in body
    assert "the coach reviews every round within minutes of its end" in body
    assert reverse("play:lobby") in body


def test_inaccuracies_are_practised_when_there_are_few_mistakes(alice):
    table = reviewed_table(alice, rounds=2)
    decision = ReviewedDecision.objects.filter(review__table=table, player__user=alice).first()
    decision.label, decision.loss = "inaccuracy", 3.0
    decision.save()
    assert decision in queries.practised(alice)


def test_a_stand_ins_and_a_bots_moves_are_not_practised(client, alice, mistakes):
    decision = mistakes[0]
    bots = ReviewedDecision.objects.filter(review=decision.review).exclude(by="").first()
    client.force_login(alice)
    assert client.get(position_url(bots)).status_code == 404
    decision.by = "timer"  # the stand-in played it when alice's time ran out
    decision.save()
    assert client.get(position_url(decision)).status_code == 404
    assert decision not in queries.practised(alice)


def test_another_persons_position_is_not_found(client, bob, mistakes):
    client.force_login(bob)
    assert client.get(position_url(mistakes[0])).status_code == 404
    assert client.post(answer_url(mistakes[0]), {"show": "1"}).status_code == 404
    assert not Practice.objects.exists()


def test_practice_asks_to_log_in(client, mistakes):
    response = client.get(reverse("coach:practice"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_position_shows_what_my_seat_saw_and_no_other_hand(client, alice, mistakes):
    decision = mistakes[0]
    table = decision.review.table
    game, _ = play_queries.replay(table, decision.review.round, decision.index)
    seen = game.view(decision.seat)
    client.force_login(alice)
    body = client.get(position_url(decision)).content.decode()
    names = set(re.findall(r'class="card suit-\w"[^>]*title="([^"]+)"', body))
    assert names == {card_name(card) for card in game.hands[decision.seat]}
    others = {
        card for seat, hand in enumerate(game.hands) if seat != decision.seat for card in hand
    }
    assert not {card_name(card) for card in others} & set(re.findall(r'title="([^"]+)"', body))
    assert f"{seen['stock']} cards in the stock" in body
    for count in seen["hand_counts"][1:]:
        assert f'class="count">{count} card' in body
    assert "What is best here?" in body
    assert f"In the game this move cost you about {round(decision.loss)} points." in body


def test_a_wrong_move_is_told_how_much_worse_it_is_and_not_the_best(client, alice, mistakes):
    decision = mistakes[0]
    move = a_wrong_move(decision)
    client.force_login(alice)
    body = client.post(answer_url(decision), posted(move), HTTP_HX_REQUEST="true")
    body = body.content.decode()
    extra = round(practice.extra_loss(decision, move))
    assert f"This costs about {extra} points more than the best move." in body
    assert "Try again." in body and "autofocus" in body
    assert "The best move:" not in body and "Show the best move" in body
    assert Practice.objects.get(user=alice, decision=decision).tries == 1
    # The fragment swapped in is the position again, with its moves to try.
    assert body.lstrip().startswith('<div id="practice"') and 'name="card"' in body


def test_the_best_move_solves_it_and_says_what_it_saves(client, alice, mistakes):
    decision = mistakes[0]
    client.force_login(alice)
    client.post(answer_url(decision), posted(a_wrong_move(decision)))
    response = client.post(answer_url(decision), posted(decision.best))
    assert response.status_code == 302
    assert response["Location"] == position_url(decision) + "?answered=1"
    body = client.get(response["Location"]).content.decode()
    assert "Best move!" in body and "autofocus" in body
    assert "In the game you played:" in body
    assert f"it saves about {round(decision.loss)} points" in body
    step = reverse("play:replay", args=[decision.review.table.pk, decision.review.round + 1])
    assert f'href="{step}?step={decision.index}"' in body
    assert f'href="{position_url(mistakes[1])}">Next position' in body.replace(
        'class="button" ', ""
    )
    assert 'name="card"' not in body  # nothing left to try
    done = Practice.objects.get(user=alice, decision=decision)
    assert done.tries == 2 and done.solved_at is not None and done.last_move == decision.best


def test_the_last_position_solved_leads_back_to_the_list(client, alice, mistakes):
    first, second = mistakes
    services.try_move(user=alice, decision=first, move=best_move(first))
    client.force_login(alice)
    body = client.post(answer_url(second), posted(second.best), HTTP_HX_REQUEST="true")
    body = body.content.decode()
    assert "Next position" not in body and "All positions" in body


def test_a_try_sent_twice_after_solving_changes_nothing(client, alice, mistakes):
    decision = mistakes[0]
    client.force_login(alice)
    client.post(answer_url(decision), posted(decision.best))
    client.post(answer_url(decision), posted(a_wrong_move(decision)))
    done = Practice.objects.get(user=alice, decision=decision)
    assert done.tries == 1 and done.last_move == decision.best and done.solved_at


def test_showing_the_best_move_marks_it_shown_not_solved(client, alice, mistakes):
    decision = mistakes[0]
    client.force_login(alice)
    body = client.post(answer_url(decision), {"show": "1"}, HTTP_HX_REQUEST="true")
    body = body.content.decode()
    assert "The best move here:" in body and "Play it to mark the position solved." in body
    assert re.search(r'class="notice practice-shown" tabindex="-1" autofocus', body)
    assert "Show the best move" not in body
    done = Practice.objects.get(user=alice, decision=decision)
    assert done.shown_at is not None and done.solved_at is None and done.tries == 0
    assert decision in queries.practised(alice).filter(solved=0)
    assert "best move shown" in client.get(reverse("coach:practice")).content.decode()
    services.try_move(user=alice, decision=decision, move=decision.best)
    body = client.get(reverse("coach:practice")).content.decode()
    assert "solved after seeing the best move" in body


def test_a_move_that_is_not_legal_there_is_refused_and_not_counted(client, alice, mistakes):
    decision = mistakes[0]
    client.force_login(alice)
    hand = decision.position["hand"]
    missing = next(code for code in ("AS", "AH", "AD", "AC", "10S", "10H") if code not in hand)
    body = client.post(
        answer_url(decision), {"kind": "play", "card": missing}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "That move could not be read." in body
    assert not Practice.objects.filter(tries__gt=0).exists()


def test_practice_reads_in_russian(client, alice, mistakes):
    decision = mistakes[0]
    client.force_login(alice)
    listed = client.get(reverse("coach:practice"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Работа над ошибками" in listed and "2 позиции" in listed
    body = client.post(
        answer_url(decision),
        posted(a_wrong_move(decision)),
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="ru",
    ).content.decode()
    assert "Это стоит примерно на" in body and "Попробуйте ещё раз." in body


def test_a_game_position_is_the_seat_view_kept_by_the_review(alice, mistakes):
    """The page draws decision.position alone: it is the seat's view before the move."""
    decision = mistakes[0]
    game, _ = play_queries.replay(decision.review.table, decision.review.round, decision.index)
    assert isinstance(game, Game)
    view = game.view(decision.seat)
    assert {key: view[key] for key in decision.position} == decision.position


def test_the_move_played_in_the_game_costs_what_the_review_says_it_lost(alice, mistakes):
    """The review may measure the move played more cautiously than the mean kept for every
    move (cards101.analysis): trying it again is told the loss the game's summary shows."""
    decision = mistakes[0]
    decision.loss = decision.loss - 1.5
    decision.save()
    assert practice.extra_loss(decision, decision.played) == decision.loss
