"""Rules errors as people read them: in their language, players by their display names."""

from django.utils import translation

from cards101.rules import PRESETS, RulesError, parse_cards, score_match
from games.labels import rules_message

CLASSIC = PRESETS["classic"]


def rejected(players, round_) -> RulesError:
    try:
        score_match(CLASSIC, players, [round_])
    except RulesError as error:
        return error
    raise AssertionError("the round was accepted")


def test_a_rules_message_names_seats_by_the_names_given():
    error = rejected([0, 1, 2], {0: {"out": "Q♠"}, 1: {"hand": "Q♠"}, 2: {"points": 3}})
    with translation.override("en"):
        assert rules_message(error, {0: "Max", 1: "Max"}) == "Round 1: Q♠ is given twice (Max, Max)"
        assert rules_message(error) == "Round 1: Q♠ is given twice (0, 1)"


def test_a_rules_message_is_in_russian_with_russian_cards_and_names():
    error = rejected([0, 1, 2], {0: {"out": "Q♠"}, 1: {"hand": "Q♠"}, 2: {"points": 3}})
    with translation.override("ru"):
        assert rules_message(error, {0: "Анна", 1: "Борис"}) == (
            "Раунд 1: Карта Д♠ указана у двух игроков (Анна, Борис)"
        )


def test_a_rules_message_joins_several_players_by_name():
    error = rejected([0, 1, 2], {0: {"out": "Q♠"}, 1: {"out": "A♣"}, 2: {"points": 3}})
    with translation.override("en"):
        assert rules_message(error, {0: "Anna", 1: "Boris"}) == (
            "Round 1: With 'first out', exactly one player goes out; here 2 did (Anna, Boris)"
        )


def test_a_list_of_cards_in_a_rules_message_is_written_in_the_language():
    error = RulesError("%(player)s: %(cards)s", {"player": 2, "cards": parse_cards("7♥ Q♠")})
    with translation.override("ru"):
        assert rules_message(error, {2: "Вера"}) == "Вера: 7♥, Д♠"
