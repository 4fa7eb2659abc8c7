"""One money format per language on every page (issue 22): the cards, the
cage, the board and the messages write "1.000,00 €" in Spanish, Galician and
Portuguese and "1,000.00 €" in English, with the marks the consoles' reader
reads (floor.amounts), never Django's locale formats (which group with a
no-break space in Spanish and not at all in Galician)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from floor.amounts import format_euros, money, parse_euros
from floor.board import tv_euros
from floor.messages import _as_euros
from ledger.console_actions import euros as ledger_euros

SHOWN = {
    "es": ("1.234.567,89 €", "-1.000,50 €", "0,05 €"),
    "gl": ("1.234.567,89 €", "-1.000,50 €", "0,05 €"),
    "pt": ("1.234.567,89 €", "-1.000,50 €", "0,05 €"),
    "en": ("1,234,567.89 €", "-1,000.50 €", "0.05 €"),
}


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_every_money_display_writes_one_format(language):
    big, negative, small = SHOWN[language]
    template = Template("{% load floor_format %}{{ a|euros }}|{{ b|euros }}|{{ c|euros }}")
    with translation.override(language):
        rendered = template.render(Context({"a": 123456789, "b": -100050, "c": 5}))
        assert rendered == f"{big}|{negative}|{small}"
        assert ledger_euros(123456789) == big  # the cage's answers and confirmations
        assert _as_euros({"amount_cents": -100050}) == {"amount_euros": negative}
        assert money(5) == small


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_the_board_drops_only_zero_cents(language):
    thousand = "1,000 €" if language == "en" else "1.000 €"
    with translation.override(language):
        assert tv_euros(123456789) == SHOWN[language][0]
        assert tv_euros(100000) == thousand
        assert tv_euros(200) == "2 €"


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_a_negative_amount_is_said_right_and_reads_back_the_same(language):
    with translation.override(language):
        said = format_euros(-150)
        assert said.startswith("-1") and said.endswith("50 EUR")
        assert parse_euros(format_euros(150)).cents == 150


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_a_field_holds_an_amount_the_reader_reads_back(language):
    template = Template("{% load floor_format %}{{ a|typed_euros }}")
    with translation.override(language):
        typed = template.render(Context({"a": 100050}))
        assert parse_euros(typed).cents == 100050
