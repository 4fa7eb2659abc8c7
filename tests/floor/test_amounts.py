"""The consoles' reader of euros (floor.amounts), language by language.

Spanish, Galician and Portuguese write ``1.000,50``, English ``1,000.50``; a
space of any width may group thousands everywhere. What a language does not
write that way is refused with a code, never read another way.
"""

from __future__ import annotations

import pytest

from floor.amounts import AmountError, format_euros, parse_euros
from games.limits import MAX_AMOUNT_CENTS

NBSP, THIN, NARROW = "\u00a0", "\u2009", "\u202f"

# Typed -> cents, in a language that writes the cents after a comma.
COMMA_LANGUAGES = ("es", "gl", "pt")
READ_WITH_A_COMMA = [
    ("1000", 100_000),
    ("1.000", 100_000),
    ("1.000,50", 100_050),
    ("1000,5", 100_050),
    ("12,50", 1_250),
    (" 12,50 € ", 1_250),
    ("12,50 EUR", 1_250),
    ("12,50eur", 1_250),
    ("€12", 1_200),
    ("EUR 7,5", 750),
    ("3 euros", 300),
    (",50", 50),
    ("0", 0),
    ("007", 700),
    ("1 000", 100_000),
    (f"1{NBSP}000,50", 100_050),
    (f"1{THIN}000{THIN}000", 100_000_000),
    (f"12{NARROW}345,67", 1_234_567),
    ("12.345.678", None),  # past the ceiling: refused below
    ("1.000.000", 100_000_000),
]
READ_WITH_A_DOT = [
    ("1000", 100_000),
    ("1,000", 100_000),
    ("1,000.50", 100_050),
    ("1000.5", 100_050),
    ("12.50", 1_250),
    (" 12.50 € ", 1_250),
    ("12.50 EUR", 1_250),
    (".50", 50),
    ("1 000.50", 100_050),
    (f"1{NBSP}000", 100_000),
    ("1,000,000", 100_000_000),
]
# Typed -> the refusal's code, in the comma languages and in English.
REFUSED_WITH_A_COMMA = [
    ("12.50", "amount_separator"),
    ("1.5", "amount_separator"),
    ("1000.000", "amount_separator"),
    ("1.000.50", "amount_separator"),
    ("1,000.50", "amount_separator"),
    ("1,234", "amount_too_many_decimals"),
    ("1,000", "amount_too_many_decimals"),
    ("12,505", "amount_too_many_decimals"),
]
REFUSED_WITH_A_DOT = [
    ("12,50", "amount_separator"),
    ("1,5", "amount_separator"),
    ("1.000,50", "amount_separator"),
    ("1.000", "amount_too_many_decimals"),
    ("12.505", "amount_too_many_decimals"),
]
REFUSED_EVERYWHERE = [
    ("", "amount_not_a_number"),
    ("   ", "amount_not_a_number"),
    ("doce", "amount_not_a_number"),
    ("€", "amount_not_a_number"),
    ("12 50", "amount_not_a_number"),
    ("1 00", "amount_not_a_number"),
    ("+5", "amount_not_a_number"),
    ("NaN", "amount_not_a_number"),
    ("Infinity", "amount_not_a_number"),
    ("٣", "amount_not_a_number"),  # digits of another script
    ("1" * 41, "amount_not_a_number"),  # longer than any amount
    ("1e5", "amount_scientific"),
    ("1E5", "amount_scientific"),
    ("1e30", "amount_scientific"),
    ("2.5e3", "amount_scientific"),
    ("1e-2", "amount_scientific"),
    ("-5", "amount_negative"),
    ("−5", "amount_negative"),  # the minus sign
    ("- 5", "amount_negative"),
    ("9" * 40, "amount_too_large"),
    ("1000001", "amount_too_large"),
]


@pytest.mark.parametrize("language", COMMA_LANGUAGES)
@pytest.mark.parametrize(("typed", "cents"), READ_WITH_A_COMMA)
def test_a_comma_language_reads(language, typed, cents):
    if cents is None:
        with pytest.raises(AmountError) as refused:
            parse_euros(typed, language)
        assert refused.value.code == "amount_too_large"
        return
    assert parse_euros(typed, language).cents == cents


@pytest.mark.parametrize(("typed", "cents"), READ_WITH_A_DOT)
def test_english_reads(typed, cents):
    assert parse_euros(typed, "en").cents == cents


@pytest.mark.parametrize("language", COMMA_LANGUAGES)
@pytest.mark.parametrize(("typed", "code"), REFUSED_WITH_A_COMMA + REFUSED_EVERYWHERE)
def test_a_comma_language_refuses(language, typed, code):
    with pytest.raises(AmountError) as refused:
        parse_euros(typed, language)
    assert refused.value.code == code


@pytest.mark.parametrize(("typed", "code"), REFUSED_WITH_A_DOT + REFUSED_EVERYWHERE)
def test_english_refuses(typed, code):
    with pytest.raises(AmountError) as refused:
        parse_euros(typed, "en")
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("language", "cents", "said"),
    [
        ("es", 100_000, "1.000,00 EUR"),
        ("gl", 5, "0,05 EUR"),
        ("pt", 123_456_789, "1.234.567,89 EUR"),
        ("en", 100_050, "1,000.50 EUR"),
        ("en", MAX_AMOUNT_CENTS, "1,000,000.00 EUR"),
    ],
)
def test_what_was_read_is_said_in_the_language(language, cents, said):
    assert format_euros(cents, language) == said


@pytest.mark.parametrize(
    ("language", "typed", "message"),
    [
        (
            "es",
            "12.50",
            "No se lee: los céntimos van tras «,» y «.» solo separa los miles, "
            "por ejemplo 1.250,50. ¿Quería decir 12,50?",
        ),
        (
            "es",
            "1,234",
            "Como mucho dos decimales (los céntimos), por ejemplo 1.250,50. "
            "¿Quería decir 1.234,00?",
        ),
        (
            "en",
            "1.000",
            "At most two decimals (the cents), such as 1,250.50. Did you mean 1,000.00?",
        ),
        (
            "gl",
            "1e5",
            "A notación científica como 1e5 non se le: escriba a cifra, por exemplo 100.000,00.",
        ),
        ("pt", "-5", "Um montante não pode ser negativo."),
        ("es", "9" * 40, "Como mucho 1.000.000,00 EUR."),
    ],
)
def test_a_refusal_says_how_to_write_it(language, typed, message):
    with pytest.raises(AmountError) as refused:
        parse_euros(typed, language)
    assert refused.value.message == message


def test_what_is_said_reads_back_as_the_same_cents():
    for language in (*COMMA_LANGUAGES, "en"):
        for cents in (0, 5, 50, 1_250, 100_000, 1_234_567, MAX_AMOUNT_CENTS):
            assert parse_euros(format_euros(cents, language), language).cents == cents
