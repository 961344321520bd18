"""Every list of names: case ignored, the Russian alphabet for Cyrillic (Ё right after Е)."""

import re

import pytest
from django.urls import reverse

from core.names import sort_key
from games.models import Player
from stats.models import Rating, RatingPool
from tests.factories import make_match
from tests.tournaments.factories import enter, make_tournament
from tournaments import services

# As a reader expects them: Latin, then Cyrillic; capitals among the small letters; Ель before
# Ёжик (е, then ё, then ж), though ё's code point comes after я.
IN_ORDER = ["ann", "Bob", "Анна", "анна", "Борис", "Егор", "Ель", "Ёжик", "Жора", "Яна"]
# What a tournament keeps of them: the first of two names alike but for case.
DISTINCT = [name for name in IN_ORDER if name != "Анна"]
SHUFFLED = ["Жора", "Яна", "Ёжик", "Bob", "анна", "Ель", "Анна", "ann", "Егор", "Борис"]


def listed(page: str, names: list[str], pattern: str = ">{}<") -> list[str]:
    """`names` in the order the page shows them (each found by `pattern`)."""
    at = {page.index(pattern.format(name)): name for name in names}
    return [at[index] for index in sorted(at)]


def test_the_key_orders_names_as_a_reader_expects():
    assert sorted(SHUFFLED, key=sort_key) == IN_ORDER
    assert sorted(["Ёлка", "Елена", "ёж", "Ежи", "Ёж"], key=sort_key) == [
        "Ежи",
        "Елена",
        "Ёж",
        "ёж",
        "Ёлка",
    ]


@pytest.mark.django_db
def test_the_database_orders_players_as_the_key_does():
    for name in SHUFFLED:
        Player.objects.create(name=name)
    assert [p.name for p in Player.objects.all()] == IN_ORDER


@pytest.mark.django_db
def test_the_leaderboard_lists_equal_ratings_and_found_players_in_name_order(client):
    pool = RatingPool.objects.create(preset="classic")
    for name in SHUFFLED:
        player = Player.objects.create(name=name)
        Rating.objects.create(pool=pool, player=player, mu=25, sigma=2, matches=10, shown=1500)
    page = client.get(reverse("stats:leaderboard"), {"preset": "classic"}).content.decode()
    assert listed(page, IN_ORDER, ">{}</a>") == IN_ORDER
    # A search ignores case and reads ё as е: "е" finds Егор, Ель and Ёжик, in name order.
    page = client.get(reverse("stats:leaderboard"), {"search": "Е"}).content.decode()
    found = page[page.index("found-title") : page.index("board-title")]
    assert listed(found, ["Егор", "Ель", "Ёжик"], ">{}</a>") == ["Егор", "Ель", "Ёжик"]
    for name in ("Анна", "Жора", "Борис", "Bob"):
        assert f">{name}</a>" not in found


@pytest.mark.django_db
def test_the_tournament_lists_its_players_in_name_order(client, alice):
    tournament = make_tournament(alice)
    enter(tournament, SHUFFLED, alice)
    client.force_login(alice)
    page = client.get(reverse("tournaments:players", args=[tournament.pk])).content.decode()
    assert listed(page, DISTINCT, "<td>{}") == DISTINCT
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    entered = re.search(r'<p class="entrant-names">(.*?)</p>', page).group(1)
    assert entered == ", ".join(DISTINCT)


@pytest.mark.django_db
def test_a_rounds_players_to_swap_are_in_name_order(client, alice):
    tournament = make_tournament(alice)
    enter(tournament, SHUFFLED, alice)
    services.seat_next_round(tournament=tournament, by=alice)
    client.force_login(alice)
    page = client.get(reverse("tournaments:round", args=[tournament.pk, 1])).content.decode()
    first = page[page.index('name="first"') : page.index('name="second"')]
    assert listed(first, DISTINCT, '">{}</option>') == DISTINCT


@pytest.mark.django_db
def test_the_new_match_form_suggests_known_names_in_name_order(client, alice):
    for name in SHUFFLED:
        Player.objects.create(name=name, added_by=alice)
    client.force_login(alice)
    page = client.get(reverse("games:new_match")).content.decode()
    assert listed(page, IN_ORDER, '<option value="{}">') == IN_ORDER


@pytest.mark.django_db
def test_a_search_finds_cyrillic_names_whatever_their_case_and_yo(client, alice):
    tables = {
        names[1]: make_match(alice, names)
        for names in (["alice", "Анна"], ["alice", "МАРИАННА"], ["alice", "Алёна"], ["alice", "Ян"])
    }
    url = reverse("games:match_list")

    def found(text: str) -> list[str]:
        page = client.get(url, {"player": text}).content.decode()
        return sorted(name for name, m in tables.items() if m.get_absolute_url() in page)

    assert found("анна") == ["Анна", "МАРИАННА"]
    assert found("АННА") == ["Анна", "МАРИАННА"]
    assert found("алена") == ["Алёна"]
    assert found("АЛЁНА") == ["Алёна"]
    assert found("ян") == ["Ян"]
    assert Player.objects.named_like("мари").get().name == "МАРИАННА"
