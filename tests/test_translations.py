"""Every user-facing string has a Russian translation, and the compiled catalogue is current."""

import gettext
import re
from pathlib import Path

import polib
from django.utils import translation

from games.models import Round
from tournaments.models import TournamentRound

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "ru" / "LC_MESSAGES"


def test_every_russian_message_is_translated_and_none_is_fuzzy():
    catalogue = polib.pofile(str(LOCALE / "django.po"))
    assert catalogue.untranslated_entries() == []
    assert catalogue.fuzzy_entries() == []
    assert len(catalogue.translated_entries()) > 200


def test_the_compiled_catalogue_matches_the_translations():
    catalogue = polib.pofile(str(LOCALE / "django.po"))
    with open(LOCALE / "django.mo", "rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    for entry in catalogue.translated_entries():
        if entry.msgid_plural and entry.msgctxt:
            assert (
                translations.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, 5)
                == entry.msgstr_plural[2]
            )
        elif entry.msgid_plural:
            assert (
                translations.ngettext(entry.msgid, entry.msgid_plural, 5) == entry.msgstr_plural[2]
            )
        elif entry.msgctxt:
            assert translations.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr
        else:
            assert translations.gettext(entry.msgid) == entry.msgstr, entry.msgid


def test_in_russian_a_tournament_round_is_a_tur_and_a_round_of_a_match_a_raund():
    with translation.override("ru"):
        assert str(TournamentRound(number=2)) == "Тур 2"
        assert str(Round(number=2)) == "Раунд 2"


# Russian words that would give a player a gender: "ходит первым" (a man who leads), "ходящий",
# "оба", a man's past tense "снялся". A player may be a woman or a man, so the Russian says
# "первый ход", "начинает", "больше не участвует".
GENDERED = re.compile(r"\bпервым\b|\bходящ|\bоба\b|\bснялся\b")


def test_no_russian_message_gives_a_player_a_gender():
    catalogue = polib.pofile(str(LOCALE / "django.po"))
    gendered = [
        (entry.msgid, entry.msgstr)
        for entry in catalogue.translated_entries()
        if GENDERED.search(entry.msgstr)
    ]
    assert gendered == []
    with translation.override("ru"):
        assert translation.gettext("leads first") == "первый ход"
        assert translation.gettext("the leader leads any card") == "первый ход — любой картой"


def test_no_template_writes_a_month_as_russian_would_not_in_running_text():
    """Django's Russian "M", "N" and "F" write a month with a capital ("27 Ноя", "Ноябрь"); in
    a sentence it is small and in the genitive: "j E" ("27 ноября") or a named format."""
    templates = Path(__file__).resolve().parent.parent / "templates"
    capitalised = []
    for template in templates.rglob("*.html"):
        for format_ in re.findall(r"""\|date:["']([^"']+)["']""", template.read_text()):
            if not format_.endswith("_FORMAT") and re.search(r"(?<!\\)[MNF]", format_):
                capitalised.append(f"{template.relative_to(templates)}: {format_}")
    assert capitalised == []
