"""Cards, decks and the notation people type, in English and Russian."""

import pytest

from cards101.rules import Card, RulesError, deck, format_card, parse_card, parse_cards

QUEEN_OF_SPADES = Card("Q", "S")


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("Q♠", Card("Q", "S")),
        ("10♥", Card("10", "H")),
        ("10h", Card("10", "H")),
        ("10H", Card("10", "H")),
        ("QS", Card("Q", "S")),
        ("qs", Card("Q", "S")),
        ("q♠", Card("Q", "S")),
        ("a♣", Card("A", "C")),
        ("2d", Card("2", "D")),
        ("J♦", Card("J", "D")),
        ("K♤", Card("K", "S")),
        ("6♡", Card("6", "H")),
        ("7♢", Card("7", "D")),
        ("8♧", Card("8", "C")),
        ("Q♥\ufe0f", Card("Q", "H")),
    ],
)
def test_english_notation_and_suit_symbols_parse(token: str, card: Card) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("Дп", Card("Q", "S")),
        ("Тк", Card("A", "C")),
        ("Кк", Card("K", "C")),
        ("10ч", Card("10", "H")),
        ("Вб", Card("J", "D")),
        ("дп", Card("Q", "S")),
        ("ТК", Card("A", "C")),
        ("Д♠", Card("Q", "S")),
        ("Qп", Card("Q", "S")),
        ("9Ч", Card("9", "H")),
        # Clubs are трефы («т») as the buttons say, or крести («к») as many write them.
        ("Вт", Card("J", "C")),
        ("10т", Card("10", "C")),
        ("Тт", Card("A", "C")),
        ("Дт", Card("Q", "C")),
    ],
)
def test_russian_ranks_and_suits_parse_and_mix_with_other_scripts(token: str, card: Card) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize("token", ["Qx", "T♠", "Th", "1♠", "11♥", "♠", "Q", "", "♠Q", "Ж♠"])
def test_a_bad_token_is_rejected_by_name(token: str) -> None:
    with pytest.raises(RulesError) as error:
        parse_card(token)
    assert str(error.value) == f'"{token}" is not a card'


def test_latin_t_is_not_an_ace_because_it_would_be_ambiguous() -> None:
    assert parse_card("Тп") == Card("A", "S")  # Cyrillic Т
    with pytest.raises(RulesError, match='"Tп" is not a card'):
        parse_card("Tп")  # Latin T


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    assert parse_cards("Q♠ 10h Тк") == (Card("Q", "S"), Card("10", "H"), Card("A", "C"))
    assert parse_cards(" QS,10H ,  ,AC\n") == (
        Card("Q", "S"),
        Card("10", "H"),
        Card("A", "C"),
    )


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards("  , ") == ()


def test_parse_cards_names_the_bad_token_among_good_ones() -> None:
    with pytest.raises(RulesError, match='"Qx" is not a card'):
        parse_cards("Q♠ Qx 10h")


def test_parse_errors_are_value_errors_with_a_template() -> None:
    with pytest.raises(ValueError) as error:
        parse_card("Qx")
    assert error.value.template == '"%(token)s" is not a card'
    assert error.value.params == {"token": "Qx"}


def test_a_card_prints_with_its_suit_symbol_and_has_an_ascii_code() -> None:
    assert str(Card("Q", "S")) == "Q♠"
    assert str(Card("10", "H")) == "10♥"
    assert Card("10", "H").code == "10H"
    assert Card("A", "C").code == "AC"
    assert Card.from_code("QS") == QUEEN_OF_SPADES
    assert Card.from_code("10D") == Card("10", "D")


@pytest.mark.parametrize("code", ["", "Q", "QX", "1S", "qs", "♠Q"])
def test_a_bad_code_is_rejected(code: str) -> None:
    with pytest.raises(RulesError, match="is not a card"):
        Card.from_code(code)


def test_a_card_cannot_be_built_from_nonsense() -> None:
    with pytest.raises(RulesError, match='"1S" is not a card'):
        Card("1", "S")
    with pytest.raises(RulesError):
        Card("Q", "♠")


def test_cards_are_hashable_and_ordered_by_suit_then_rank() -> None:
    assert len({Card("Q", "S"), parse_card("qs"), parse_card("Дп")}) == 1
    assert Card("A", "S") < Card("6", "H")
    assert Card("9", "S") < Card("10", "S") < Card("J", "S")
    assert sorted(parse_cards("AC 6S 10S QH")) == list(parse_cards("6S 10S QH AC"))


def test_cards_are_frozen() -> None:
    with pytest.raises(AttributeError):
        QUEEN_OF_SPADES.rank = "K"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("code", "english", "russian"),
    [
        ("QS", "Q♠", "Д♠"),
        ("JD", "J♦", "В♦"),
        ("KC", "K♣", "К♣"),
        ("AH", "A♥", "Т♥"),
        ("10H", "10♥", "10♥"),
        ("6S", "6♠", "6♠"),
    ],
)
def test_format_card_in_english_and_russian(code: str, english: str, russian: str) -> None:
    card = Card.from_code(code)
    assert format_card(card) == english
    assert format_card(card, "en") == english
    assert format_card(card, "ru") == russian
    assert parse_card(russian) == card


def test_format_card_rejects_an_unknown_language() -> None:
    with pytest.raises(RulesError, match='not "de"'):
        format_card(QUEEN_OF_SPADES, "de")


def test_the_36_card_deck_runs_six_to_ace_by_suit() -> None:
    cards = deck(36)
    assert len(cards) == len(set(cards)) == 36
    assert cards[:9] == parse_cards("6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠")
    assert [c.suit for c in cards[::9]] == ["S", "H", "D", "C"]
    assert cards == tuple(sorted(cards))


def test_the_52_card_deck_adds_twos_to_fives() -> None:
    cards = deck(52)
    assert len(set(cards)) == 52
    assert cards[0] == Card("2", "S")
    assert set(deck(36)) < set(cards)
    assert {c.rank for c in set(cards) - set(deck(36))} == {"2", "3", "4", "5"}


@pytest.mark.parametrize("size", [32, 54, 36.0, True, "36"])
def test_there_is_no_other_deck(size: object) -> None:
    with pytest.raises(RulesError, match="A deck has 36 or 52 cards"):
        deck(size)  # type: ignore[arg-type]


def test_a_cards_index_is_its_place_in_the_52_card_deck_and_not_part_of_its_value() -> None:
    assert [card.index for card in deck(52)] == list(range(52))
    assert [card.index for card in deck(36)] == [
        card.index for card in deck(52) if card in deck(36)
    ]
    assert parse_card("Д♠").index == QUEEN_OF_SPADES.index == deck(52).index(QUEEN_OF_SPADES)
    assert repr(QUEEN_OF_SPADES) == "Card(rank='Q', suit='S')"
    assert Card("Q", "S") == QUEEN_OF_SPADES and hash(Card("Q", "S")) == hash(QUEEN_OF_SPADES)
