"""A club's pages (issue 26, points 1 and 2): the list, a new club and its settings, the club's
page with its nights and members, who may change what, joining by link or by asking, and the
club's nights (a new night from the club's defaults, the roll call, its directors)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import formats, timezone, translation

from claims import queries as claim_queries
from claims import services as claims
from claims.services import NotAllowed
from clubs import queries, rights, services
from clubs.models import Club, JoinRequest, Member
from games.models import Player
from games.services import own_player
from tests.factories import counts_tables_of, make_match, play_out, rules_form_data
from tests.tournaments.factories import make_tournament
from tournaments import services as tournaments
from tournaments.models import Entrant, Tournament
from tournaments.services.tournaments import renamed_for_date

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(alice):
    return services.create_club(owner=alice, name="Клуб «Туз»", city="Тверь")


@pytest.fixture
def dave(django_user_model):
    return django_user_model.objects.create_user("dave", "dave@example.com", "dave-password")


def member_named(club, name: str) -> Member:
    return club.members.get(player__name=name)


def settings_data(**changes) -> dict:
    return (
        rules_form_data("classic")
        | {
            "name": "Клуб «Туз»",
            "city": "Тверь",
            "description": "По пятницам",
            "place": "Кафе «Ладья»",
            "rounds_planned": "4",
            "table_size": "3",
            "match_end": "played_out",
            "deals_per_match": "",
            "final_table_size": "3",
            "confirm_results": "on",
            "points_4": "5, 3, 1, 0",
            "points_3": "4, 2, 0",
            "points_2": "3, 0",
            "tie_break_1": "deals_won",
            "tie_break_2": "penalty_total",
        }
        | changes
    )


# --- the list, a new club, its settings ------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_list_shows_my_clubs_first_and_offers_a_new_one(client, alice, bob, language):
    services.create_club(owner=alice, name="Аист")
    services.create_club(owner=bob, name="Ястреб")
    client.force_login(bob)
    page = client.get(reverse("clubs:list"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert page.index("Ястреб") < page.index("Аист")  # bob's own first, though A comes first
    assert reverse("clubs:new") in page
    assert ("New club" if language == "en" else "Новый клуб") in page


def test_the_list_says_so_when_there_is_no_club(client):
    page = client.get(reverse("clubs:list"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Клубов пока нет" in page


def test_a_new_club_makes_its_creator_the_owner_and_goes_on_to_its_settings(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("clubs:new"), {"name": "Сто одно", "city": "Тверь", "description": ""}
    )
    club = Club.objects.get(name="Сто одно")
    assert response.url == reverse("clubs:edit", args=[club.slug])
    assert club.city == "Тверь" and club.slug == "sto-odno"
    assert club.members.get().role == Member.Role.OWNER


def test_the_settings_keep_the_house_rules_and_the_defaults_of_a_night(client, alice, club):
    client.force_login(alice)
    data = settings_data(preset="aaow") | rules_form_data("aaow")
    response = client.post(reverse("clubs:edit", args=[club.slug]), data)
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.preset == "aaow" and club.place == "Кафе «Ладья»"
    assert (club.rounds_planned, club.table_size, club.final_table_size) == (4, 3, 3)
    assert club.points_by_place["4"] == [5, 3, 1, 0]
    assert club.tie_breaks == ["deals_won", "penalty_total"]
    assert club.confirm_results is True
    # The form reads them back.
    page = client.get(reverse("clubs:edit", args=[club.slug])).content.decode()
    assert 'value="5, 3, 1, 0"' in page


def test_the_settings_refuse_points_that_rise(client, alice, club):
    client.force_login(alice)
    response = client.post(
        reverse("clubs:edit", args=[club.slug]), settings_data(points_3="0, 1, 2")
    )
    assert response.status_code == 200
    assert "never rising" in response.content.decode()
    club.refresh_from_db()
    assert club.points_by_place["3"] != [0, 1, 2]


def test_a_stranger_or_a_member_cannot_change_the_club(client, club, bob, carol):
    services.add_member(club=club, player=Player.objects.get(user=carol), by=club.owner)
    for user in (bob, carol):
        client.force_login(user)
        assert client.get(reverse("clubs:edit", args=[club.slug])).status_code == 403
        assert (
            client.post(
                reverse("clubs:edit", args=[club.slug]), settings_data(name="X")
            ).status_code
            == 403
        )
        assert client.get(reverse("clubs:night_new", args=[club.slug])).status_code == 403
    club.refresh_from_db()
    assert club.name == "Клуб «Туз»"


def test_the_home_page_lists_my_clubs(client, alice, club):
    client.force_login(alice)
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Ваши клубы" in page and reverse("clubs:detail", args=[club.slug]) in page


def test_an_unknown_club_is_not_found(client):
    assert client.get(reverse("clubs:detail", args=["no-such-club"])).status_code == 404


# --- the club's page ---------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_club_page_shows_its_nights_and_members_and_a_directors_links(
    client, alice, carol, club, language
):
    services.add_member(club=club, player=Player.objects.get(user=carol), by=alice)
    coming = make_tournament(alice, club=club, name="Пятница", date=str(timezone.localdate()))
    other = make_tournament(alice, name="Чужой вечер")
    client.force_login(alice)
    page = client.get(reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode()
    assert "Тверь" in text and "Пятница" in text and other.name not in text
    assert reverse("tournaments:projector", args=[coming.pk]) in text
    assert "carol" in text
    assert reverse("clubs:night_new", args=[club.slug]) in text
    assert reverse("clubs:edit", args=[club.slug]) in text
    assert ("New club night" if language == "en" else "Новый клубный вечер") in text


def test_a_member_sees_no_directors_links_and_a_stranger_may_ask_to_join(client, club, bob, carol):
    services.add_member(club=club, player=Player.objects.get(user=carol), by=club.owner)
    client.force_login(carol)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert reverse("clubs:night_new", args=[club.slug]) not in page
    assert reverse("clubs:ask", args=[club.slug]) not in page
    client.force_login(bob)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert reverse("clubs:ask", args=[club.slug]) in page


def test_the_members_are_listed_with_their_ratings_under_the_clubs_rules(
    client, alice, carol, club
):
    counts_tables_of(carol, alice)
    for winner in (0, 1, 0):
        play_out(make_match(alice, ["alice", "carol", "Anna"]), alice, winner_index=winner)
    services.add_member(club=club, player=Player.objects.get(user=carol), by=alice)
    lines = queries.member_lines(club)
    assert [line.name for line in lines] == ["alice", "carol"]  # alice won two of three
    assert all(line.rating is not None for line in lines)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert str(lines[0].rating) in page


def test_a_hidden_member_is_named_to_the_clubs_directors_only(client, alice, bob, carol, club):
    hidden = Player.objects.get(user=carol)
    services.add_member(club=club, player=hidden, by=alice)
    claims.set_private(player=hidden, private=True, by=carol)
    client.force_login(bob)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "carol" not in page
    client.force_login(alice)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "carol" in page


# --- members, joining ----------------------------------------------------------------------


def test_joining_by_the_invitation_link_asks_to_log_in_first_and_then_joins(client, club, bob):
    url = reverse("clubs:join", args=[club.slug, club.invite_code])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode().replace("%2F", "/")
    # A newcomer's main button is to sign up; logging in is offered beside it.
    signup = f"{reverse('account_signup')}?next={url}"
    assert f'<a class="button" href="{signup}">Зарегистрироваться</a>' in page
    assert f'{reverse("account_login")}?next={url}">Уже есть аккаунт? Войти</a>' in page
    # A post from someone signed out (a session ended meanwhile) goes to the login and back.
    assert client.post(url).url == f"{reverse('account_login')}?next={url}"
    assert not club.members.filter(player__user=bob).exists()
    client.force_login(bob)
    assert "Join" in client.get(url).content.decode()
    response = client.post(url)
    assert response.url == reverse("clubs:detail", args=[club.slug])
    assert club.members.filter(player__user=bob, role=Member.Role.MEMBER).exists()


def test_a_wrong_or_old_invitation_code_says_so_and_lets_nobody_in(client, alice, club, bob):
    old = club.invite_code
    client.force_login(alice)
    client.post(reverse("clubs:new_invitation", args=[club.slug]))
    club.refresh_from_db()
    assert club.invite_code != old
    client.force_login(bob)
    response = client.post(reverse("clubs:join", args=[club.slug, old]), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 404
    assert "Эта ссылка-приглашение больше не действует" in response.content.decode()
    assert not club.members.filter(player__user=bob).exists()


def test_a_request_to_join_is_accepted_by_a_director(client, alice, club, bob):
    client.force_login(bob)
    client.post(reverse("clubs:ask", args=[club.slug]))
    asked = JoinRequest.objects.get(club=club, user=bob)
    assert "asked to join" in client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    # bob cannot accept himself.
    url = reverse("clubs:request", args=[club.slug, asked.pk])
    assert client.post(url, {"decision": "accept"}).status_code == 403
    client.force_login(alice)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "1 request to join" in page
    assert "bob" in client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    client.post(url, {"decision": "accept"})
    assert club.members.filter(player__user=bob).exists()
    assert not JoinRequest.objects.filter(pk=asked.pk).exists()


def test_a_declined_request_makes_nobody_a_member(client, alice, club, bob):
    asked = services.ask_to_join(club=club, user=bob)
    client.force_login(alice)
    client.post(reverse("clubs:request", args=[club.slug, asked.pk]), {"decision": "decline"})
    assert not club.members.filter(player__user=bob).exists()
    assert not JoinRequest.objects.exists()


def test_the_owner_makes_a_director_who_then_runs_the_club(client, alice, bob, club):
    services.join(club=club, user=bob, code=club.invite_code)
    member = club.members.get(player__user=bob)
    client.force_login(bob)  # a member cannot make himself a director
    client.post(reverse("clubs:member", args=[club.slug, member.pk]), {"action": "director"})
    assert not rights.runs(bob, club)
    client.force_login(alice)
    client.post(reverse("clubs:member", args=[club.slug, member.pk]), {"action": "director"})
    assert rights.runs(bob, club)
    client.force_login(bob)
    assert client.get(reverse("clubs:edit", args=[club.slug])).status_code == 200


def test_directors_add_a_guest_in_one_line_and_remove_members(client, alice, club):
    client.force_login(alice)
    client.post(reverse("clubs:members", args=[club.slug]), {"name": "Анна"})
    anna = member_named(club, "Анна")
    assert anna.player.user is None and anna.player.added_by == alice
    client.post(reverse("clubs:member", args=[club.slug, anna.pk]), {"action": "remove"})
    assert not club.members.filter(pk=anna.pk).exists()


def test_the_members_page_shows_the_invitation_and_its_qr_code_to_directors_only(
    client, alice, bob, club
):
    client.force_login(alice)
    page = client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    assert club.invite_code in page
    qr = client.get(reverse("clubs:invitation_qr", args=[club.slug]))
    assert qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    client.force_login(bob)
    assert (
        club.invite_code
        not in client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    )
    assert client.get(reverse("clubs:invitation_qr", args=[club.slug])).status_code == 403


def test_a_member_may_leave_but_the_owner_may_not(client, alice, bob, club):
    member = services.join(club=club, user=bob, code=club.invite_code)
    client.force_login(bob)
    client.post(reverse("clubs:member", args=[club.slug, member.pk]), {"action": "remove"})
    assert not club.members.filter(player__user=bob).exists()
    owner = club.members.get(role=Member.Role.OWNER)
    client.force_login(alice)
    client.post(reverse("clubs:member", args=[club.slug, owner.pk]), {"action": "remove"})
    assert club.members.filter(pk=owner.pk).exists()


# --- nights -------------------------------------------------------------------------------


def test_a_new_night_is_filled_from_the_clubs_defaults_and_belongs_to_the_club(client, alice, club):
    client.force_login(alice)
    client.post(reverse("clubs:edit", args=[club.slug]), settings_data())
    page = client.get(reverse("clubs:night_new", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ru")
    text = page.content.decode()
    today = timezone.localdate()
    assert f'value="{today:%Y-%m-%d}"' in text
    assert 'value="5, 3, 1, 0"' in text
    form = page.context["form"]
    assert f"{club.name} — {today.day} " in form["name"].value()
    assert form["place"].value() == "Кафе «Ладья»"
    data = {name: form[name].value() for name in form.fields}
    data = {
        k: ("on" if v is True else "" if v is None or v is False else v) for k, v in data.items()
    }
    data = {k: v for k, v in data.items() if v != ""} | {"date": f"{today:%Y-%m-%d}"}
    response = client.post(reverse("clubs:night_new", args=[club.slug]), data)
    assert response.status_code == 302, response.context["form"].errors
    night = Tournament.objects.get(club=club)
    assert response.url == reverse("clubs:roll_call", args=[club.slug, night.pk])
    assert night.created_by == alice and night.date == today
    assert (night.rounds_planned, night.table_size, night.final_table_size) == (4, 3, 3)
    assert night.points_by_place["4"] == [5, 3, 1, 0] and night.tie_breaks == [
        "deals_won",
        "penalty_total",
    ]
    assert night.confirm_results is True
    assert night.name.startswith("Клуб «Туз» — ")

    # Moved to the next day on the night's own form: its name says the new date.
    tomorrow = today + datetime.timedelta(days=1)
    edit = client.get(reverse("tournaments:edit", args=[night.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    form = edit.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {
        k: ("on" if v is True else "" if v is None or v is False else v) for k, v in data.items()
    }
    data = {k: v for k, v in data.items() if v != ""} | {"date": f"{tomorrow:%Y-%m-%d}"}
    data["version"] = str(night.version)
    response = client.post(reverse("tournaments:edit", args=[night.pk]), data)
    assert response.status_code == 302, response.context["form"].errors
    night.refresh_from_db()
    assert night.date == tomorrow
    with translation.override("ru"):
        assert night.name == f"Клуб «Туз» — {formats.date_format(tomorrow, 'j E')}"


def test_a_new_night_set_for_another_day_is_named_for_that_day(client, alice, club):
    """The form is filled on Wednesday, named for Wednesday; the director picks Friday and
    leaves the name: the night is named for Friday. A name she typed is kept."""
    client.force_login(alice)
    url = reverse("clubs:night_new", args=[club.slug])
    form = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {
        k: ("on" if v is True else v)
        for k, v in data.items()
        if v not in (None, "") and v is not False
    }
    friday = timezone.localdate() + datetime.timedelta(days=2)
    response = client.post(url, data | {"date": f"{friday:%Y-%m-%d}"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 302, response.context["form"].errors
    with translation.override("ru"):
        named = f"{club.name} — {formats.date_format(friday, 'j E')}"
    assert Tournament.objects.get(club=club, date=friday).name == named
    typed = data | {"date": f"{friday:%Y-%m-%d}", "name": f"{form['name'].value()}, финал"}
    client.post(url, typed, HTTP_ACCEPT_LANGUAGE="ru")
    assert Tournament.objects.filter(club=club, name=typed["name"]).exists()


def test_a_name_typed_without_its_date_stays_when_the_date_moves(alice, club):
    night = make_tournament(alice, club=club, name="Кубок осени", date=datetime.date(2026, 11, 27))
    tournaments.update_tournament(
        tournament=night,
        variant=night.variant,
        name="Кубок осени",
        date=datetime.date(2026, 11, 28),
    )
    night.refresh_from_db()
    assert (night.name, night.date) == ("Кубок осени", datetime.date(2026, 11, 28))
    with translation.override("ru"):
        typed = renamed_for_date(
            "Клуб «Туз» — 27 ноября", datetime.date(2026, 11, 27), datetime.date(2026, 12, 1)
        )
    assert typed == "Клуб «Туз» — 1 декабря"


def test_a_director_of_the_club_directs_its_nights(alice, bob, club):
    night = make_tournament(alice, club=club)
    elsewhere = make_tournament(alice)
    services.join(club=club, user=bob, code=club.invite_code)
    assert not night.is_director(bob)
    services.set_role(
        member=club.members.get(player__user=bob), role=Member.Role.DIRECTOR, by=alice
    )
    assert night.is_director(bob) and not elsewhere.is_director(bob)
    assert list(Tournament.objects.directed_by(bob)) == [night]


def test_the_roll_call_checks_members_in_and_out_and_adds_a_newcomer(client, alice, carol, club):
    counts_tables_of(carol, alice)
    services.add_member(club=club, player=Player.objects.get(user=carol), by=alice)
    night = make_tournament(alice, club=club)
    carols = Player.objects.get(user=carol)
    url = reverse("clubs:roll_call", args=[club.slug, night.pk])
    client.force_login(alice)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'id="roll-{carols.pk}"' in page and 'aria-pressed="false"' in page

    client.post(url, {"player": carols.pk, "present": "1"})
    assert Entrant.objects.get(tournament=night, player=carols).checked_in
    client.post(url, {"player": carols.pk, "present": "0"})
    assert not Entrant.objects.get(tournament=night, player=carols).checked_in

    client.post(url, {"name": "Борис"})
    boris = member_named(club, "Борис")
    assert Entrant.objects.get(tournament=night, player=boris.player).checked_in
    page = client.get(url).content.decode()
    pressed = f'id="roll-{boris.player_id}" name="present" value="0" class="roll-name"'
    assert f'{pressed} aria-pressed="true"' in page


def test_only_the_clubs_directors_call_the_roll_of_its_own_nights(client, alice, bob, club):
    night = make_tournament(alice, club=club)
    other = make_tournament(alice)
    client.force_login(bob)
    assert client.get(reverse("clubs:roll_call", args=[club.slug, night.pk])).status_code == 403
    client.force_login(alice)
    assert client.get(reverse("clubs:roll_call", args=[club.slug, other.pk])).status_code == 404


def test_a_nights_page_names_its_club_and_links_the_roll_call(client, alice, club):
    night = make_tournament(alice, club=club)
    client.force_login(alice)
    page = client.get(night.get_absolute_url()).content.decode()
    assert reverse("clubs:detail", args=[club.slug]) in page
    assert reverse("clubs:roll_call", args=[club.slug, night.pk]) in page


# --- merging a guest member into an account --------------------------------------------------


def test_a_guest_member_merged_into_a_member_leaves_one_membership_with_the_higher_role(
    alice, bob, club
):
    services.join(club=club, user=bob, code=club.invite_code)
    anna = services.add_members_named(club=club, names=["Anna"], by=alice)[0]
    services.set_role(member=anna, role=Member.Role.DIRECTOR, by=alice)
    claim = claims.ask(guest=anna.player, by=bob)
    claims.decide(claim=claim, approve=True, by=alice)
    kept = club.members.get(player__user=bob)
    assert kept.role == Member.Role.DIRECTOR
    assert club.members.count() == 2  # alice and bob
    assert not Player.objects.filter(pk=anna.player_id).exists()


def test_a_guest_member_of_another_club_moves_with_the_merge(alice, bob, club):
    other = services.create_club(owner=alice, name="Другой")
    anna = services.add_members_named(club=other, names=["Anna"], by=alice)[0]
    claims.decide(claim=claims.ask(guest=anna.player, by=bob), approve=True, by=alice)
    assert other.members.filter(player__user=bob, role=Member.Role.MEMBER).exists()
    assert not club.members.filter(player__user=bob).exists()


def test_a_merge_refused_elsewhere_leaves_both_memberships(alice, bob, club):
    services.join(club=club, user=bob, code=club.invite_code)
    anna = services.add_members_named(club=club, names=["Anna"], by=alice)[0]
    night = make_tournament(alice, club=club)
    counts_tables_of(bob, alice)
    tournaments.add_entrants(tournament=night, names=["Anna", "bob"], by=alice)
    with pytest.raises(NotAllowed):
        claims.decide(claim=claims.ask(guest=anna.player, by=bob), approve=True, by=alice)
    assert club.members.filter(pk=anna.pk).exists()
    assert club.members.filter(player__user=bob).exists()


def test_the_clubs_directors_read_the_hidden_name_of_who_asks_to_join(client, alice, bob, club):
    claims.set_private(player=Player.objects.get(user=bob), private=True, by=bob)
    services.ask_to_join(club=club, user=bob)
    client.force_login(alice)
    page = client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    assert "bob" in page
    # Accepted, he is a member whose name they still read; a stranger does not.
    services.decide_request(join_request=JoinRequest.objects.get(), accept=True, by=alice)
    assert "bob" in client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    client.logout()
    assert "bob" not in client.get(reverse("clubs:detail", args=[club.slug])).content.decode()


def test_choosing_a_preset_in_the_settings_fills_in_its_options(client, alice, club):
    client.force_login(alice)
    page = client.get(reverse("clubs:edit", args=[club.slug])).content.decode()
    assert f'hx-get="{reverse("clubs:new")}"' in page
    fragment = client.get(reverse("clubs:new"), {"preset": "aaow"}, HTTP_HX_REQUEST="true")
    text = fragment.content.decode()
    assert text.lstrip().startswith('<div id="options">') and "<html" not in text
    classic = client.get(reverse("clubs:new"), {"preset": "classic"}, HTTP_HX_REQUEST="true")
    assert classic.content.decode() != text  # each preset sets its own options


def test_the_clubs_directors_decide_who_claims_a_guest_member(alice, bob, carol, club):
    """The owner and directors keep the club's guests: they judge a claim of one; a plain
    member does not."""
    services.add_members_named(club=club, names=["Вера"], by=alice)
    services.add_member(club=club, player=own_player(carol), by=alice)
    director = services.add_member(club=club, player=own_player(bob), by=alice)
    services.set_role(member=director, role=Member.Role.DIRECTOR, by=alice)
    guest = member_named(club, "Вера").player

    judged = claim_queries.judges(guest)

    assert {alice.pk, bob.pk} <= judged and carol.pk not in judged


def test_the_club_page_shows_its_house_rules_and_where_it_plays(client, alice, bob, club):
    client.force_login(alice)
    page = client.get(
        reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    # No venue yet: the director is told where to add it.
    assert "Место вечеров клуба ещё не указано" in page
    client.post(reverse("clubs:edit", args=[club.slug]), settings_data())
    client.force_login(bob)
    page = client.get(
        reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "Место вечеров: Кафе «Ладья»." in page
    assert "Правила клуба: " in page
    assert "ещё не указано" not in page
    english = client.get(
        reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Nights are played at Кафе «Ладья»." in english
    assert "House rules: " in english
