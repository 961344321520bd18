"""Counted messages in Russian: each takes the form its number needs (1 and 21 карта, 2 карты,
0, 5 and 11 карт), from the int the pages pass."""

import re
from collections import defaultdict
from pathlib import Path

import polib
import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.functional import SimpleLazyObject

CATALOGUE = Path(__file__).resolve().parent.parent / "locale" / "ru" / "LC_MESSAGES" / "django.po"
# The Russian plural form of each number the tests try: one, few, many.
FORMS = {1: 0, 21: 0, 2: 1, 5: 2, 11: 2, 0: 2}

COUNTED = [entry for entry in polib.pofile(str(CATALOGUE)) if entry.msgid_plural]


def test_the_catalogue_has_counted_messages():
    assert len(COUNTED) > 10


@pytest.mark.parametrize("entry", COUNTED, ids=lambda entry: entry.msgid[:40])
@pytest.mark.parametrize("count", list(FORMS))
def test_every_counted_message_takes_the_russian_form_of_its_number(entry, count):
    with translation.override("ru"):
        if entry.msgctxt:
            text = translation.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, count)
        else:
            text = translation.ngettext(entry.msgid, entry.msgid_plural, count)
    assert text == entry.msgstr_plural[FORMS[count]]
    # The number fills its place: every placeholder is one the English has.
    values = defaultdict(lambda: "…", count=count, number=count)
    shown = text % values
    if re.search(r"%\((count|number)\)s", entry.msgid_plural):
        assert re.search(rf"(?<!\d){count}(?!\d)", shown)
    assert set(re.findall(r"%\((\w+)\)s", text)) <= set(
        re.findall(r"%\((\w+)\)s", entry.msgid_plural)
    )


@pytest.mark.parametrize(
    ("count", "russian"),
    [
        (1, "1 карта"),
        (21, "21 карта"),
        (2, "2 карты"),
        (5, "5 карт"),
        (11, "11 карт"),
        (0, "0 карт"),
    ],
)
def test_a_template_counts_cards_in_russian(count, russian):
    template = Template(
        "{% load i18n %}{% blocktranslate count count=cards %}{{ count }} card"
        "{% plural %}{{ count }} cards{% endblocktranslate %}"
    )
    with translation.override("ru"):
        assert template.render(Context({"cards": count})) == russian


def test_a_lazy_count_cannot_be_counted_in_russian_so_pages_pass_ints():
    """Why the pages pass ints: English (n != 1) takes a lazy number, Russian's n % 10 does not."""
    template = Template(
        "{% load i18n %}{% blocktranslate count count=cards %}{{ count }} card"
        "{% plural %}{{ count }} cards{% endblocktranslate %}"
    )
    lazy = SimpleLazyObject(lambda: 5)
    with translation.override("en"):
        assert template.render(Context({"cards": lazy})) == "5 cards"
    with translation.override("ru"), pytest.raises(TypeError):
        template.render(Context({"cards": lazy}))
