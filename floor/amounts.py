"""Euros as a person types them into a console, read in the person's language.

One reader for every euro field of every console (the jefe's, the dealer's
table view, the cage; the open-table form too): ``parse_euros`` turns what was
typed into integer cents, or refuses with a code and a message saying why and
how to write it; ``format_euros`` says back what was read ("1.000,00 EUR").

The rules (issue 18, "Trust"):

- The language decides the marks. Spanish, Galician and Portuguese write
  ``1.000,50``: the comma marks the cents, the dot groups thousands. English
  writes ``1,000.50``. The decimal mark is Django's ``DECIMAL_SEPARATOR`` of
  the active language; the thousands mark is the other of dot and comma. A
  space (plain, no-break, thin, narrow no-break or figure space) may group
  thousands in every language, as the SI and the RAE write them.
- **Never guess.** The thousands mark is read only where it groups whole
  thousands (``1.000``, ``12.345.678``); anything else in the thousands mark's
  place is refused, not read another way: ``12.50`` in Spanish could be a
  mistyped twelve-fifty or a mistyped twelve hundred and fifty, so it is
  refused with the way to write it ("12,50"). ``1.000`` in Spanish is a
  thousand, never one euro; ``1,000`` in Spanish (and ``1.000`` in English)
  has three decimals and is refused, suggesting the reading the language's
  other mark would give. A suggestion is only shown, never applied.
- At most two decimals; ``12,5`` is 12,50 and ``,50`` is 0,50.
- No scientific notation (``1e5``), no sign: no console field takes a
  negative amount (a correction is its own command), so ``-5`` is refused as
  negative rather than read as five.
- A ``€`` or ``EUR``/``euro(s)`` before or after the figure is allowed.
- At most ``games.limits.MAX_AMOUNT_CENTS`` (one million euros): checked on
  the digits before any arithmetic, so forty nines are a refusal, not a 500.

Why our own reader and not a library's: Decimal takes ``1e30``, ``NaN`` and a
dot as decimal mark in any language; Django's localized DecimalField reads
``12.50`` as 1250 in Spanish without a word; Babel's strict ``parse_decimal``
refuses ``1.000`` in Spanish (CLDR groups from five digits) and takes
exponents. What is wanted is one short grammar, below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils import formats, translation
from django.utils.translation import gettext as _

from games.limits import MAX_AMOUNT_CENTS

# Spaces that may group thousands: plain, no-break, thin, narrow no-break, figure.
SPACES = " \u00a0\u2009\u202f\u2007"
_SPACE_RUN = re.compile(f"[{SPACES}]")
_CURRENCY = re.compile(
    r"(?:€|eur(?:os?)?)?\s*(?P<number>.*?)\s*(?:€|eur(?:os?)?)?", re.IGNORECASE | re.DOTALL
)
_SCIENTIFIC = re.compile(r"[+\-−]?[0-9.,]*[0-9][0-9.,]*[eE][+\-−]?[0-9]+")
# Longer than any amount however it is spaced: refused before any pattern runs.
MAX_TYPED = 40
_MAX_EUROS_DIGITS = len(str(MAX_AMOUNT_CENTS // 100))


@dataclass(frozen=True)
class Amount:
    """What was read: the cents and how they are said back."""

    cents: int
    text: str


class AmountError(ValueError):
    """What was typed is not read as an amount; ``code`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Marks:
    decimal: str
    group: str


def marks(language: str | None = None) -> Marks:
    """The decimal and thousands marks of ``language`` (default: the active one)."""
    decimal = formats.get_format("DECIMAL_SEPARATOR", language or translation.get_language())
    decimal = decimal if decimal in {",", "."} else ","
    return Marks(decimal, "." if decimal == "," else ",")


def figure(cents: int, language: str | None = None, *, whole: bool = False) -> str:
    """``100000`` -> ``1.000,00`` (es, gl, pt) or ``1,000.00`` (en): how the
    language types it, and the one way every page writes an amount (issue 22:
    the same marks the reader reads, not Django's locale formats, which group
    with a no-break space in Spanish and not at all in Galician). ``-150`` is
    ``-1,50``; ``whole`` leaves out ",00" (the TV board's "2 €")."""
    m = marks(language)
    sign, cents = ("-" if cents < 0 else ""), abs(cents)
    euros = f"{cents // 100:,}".replace(",", m.group)
    if whole and cents % 100 == 0:
        return f"{sign}{euros}"
    return f"{sign}{euros}{m.decimal}{cents % 100:02d}"


def money(cents: int, language: str | None = None, *, whole: bool = False) -> str:
    """``100000`` -> ``1.000,00 €``: an amount as every page shows it (the
    ``euros`` template filter, the messages, the board, the ledger's pages)."""
    return f"{figure(cents, language, whole=whole)} €"


def format_euros(cents: int, language: str | None = None) -> str:
    """``100000`` -> ``1.000,00 EUR``: what a console says it read."""
    return f"{figure(cents, language)} EUR"


def _grammar(m: Marks) -> re.Pattern[str]:
    group = re.escape(m.group)
    whole = rf"[0-9]+|[0-9]{{1,3}}(?:{group}[0-9]{{3}})+|[0-9]{{1,3}}(?: [0-9]{{3}})+"
    return re.compile(rf"(?P<whole>{whole})?(?:{re.escape(m.decimal)}(?P<cents>[0-9]+))?")


def _read(number: str, m: Marks) -> tuple[str, str] | None:
    """The whole euros' digits and the decimals' digits, or None."""
    found = _grammar(m).fullmatch(number)
    if not found or not (found["whole"] or found["cents"]):
        return None
    whole = re.sub(r"[^0-9]", "", found["whole"] or "")
    return whole, found["cents"] or ""


def _cents(whole: str, decimals: str) -> int | None:
    """The cents, or None past the ceiling (checked on the digits first)."""
    whole = whole.lstrip("0")
    if len(whole) > _MAX_EUROS_DIGITS:
        return None
    cents = int(whole or "0") * 100 + int(decimals.ljust(2, "0"))
    return cents if cents <= MAX_AMOUNT_CENTS else None


def _other_reading(number: str, m: Marks) -> str:
    """ " Did you mean ...?" with the reading the swapped marks give, or ""."""
    swapped = number.translate(str.maketrans({m.decimal: m.group, m.group: m.decimal}))
    read = _read(swapped, m)
    if read is None or len(read[1]) > 2:
        return ""
    cents = _cents(*read)
    if cents is None:
        return ""
    return " " + _("Did you mean %(suggestion)s?") % {"suggestion": figure(cents)}


def parse_euros(typed: str, language: str | None = None) -> Amount:
    """What ``typed`` reads as in ``language`` (default: the active one), or an
    ``AmountError`` saying why not (see the module's docstring for the rules)."""
    if language is not None:
        with translation.override(language):
            return parse_euros(typed)
    m = marks()
    example = figure(125_050)
    if len(typed) > MAX_TYPED:
        raise AmountError(
            "amount_not_a_number",
            _("Type an amount in euros, such as %(example)s.") % {"example": example},
        )
    found = _CURRENCY.fullmatch(typed.strip())
    number = _SPACE_RUN.sub(" ", found["number"] if found else typed.strip())
    if number[:1] in {"-", "−"} and _read(number[1:].strip(), m):
        raise AmountError("amount_negative", _("An amount cannot be negative."))
    if _SCIENTIFIC.fullmatch(number):
        raise AmountError(
            "amount_scientific",
            _("Scientific notation such as 1e5 is not read: type the figure, such as %(example)s.")
            % {"example": figure(10_000_000)},
        )
    read = _read(number, m)
    if read is None:
        suggestion = _other_reading(number, m)
        if suggestion or m.group in number:
            raise AmountError(
                "amount_separator",
                _(
                    "Not read: the cents go after “%(decimal)s” and “%(group)s” only "
                    "separates thousands, such as %(example)s."
                )
                % {"decimal": m.decimal, "group": m.group, "example": example}
                + suggestion,
            )
        raise AmountError(
            "amount_not_a_number",
            _("Type an amount in euros, such as %(example)s.") % {"example": example},
        )
    whole, decimals = read
    if len(decimals) > 2:
        raise AmountError(
            "amount_too_many_decimals",
            _("At most two decimals (the cents), such as %(example)s.") % {"example": example}
            + _other_reading(number, m),
        )
    cents = _cents(whole, decimals)
    if cents is None:
        raise AmountError(
            "amount_too_large",
            _("At most %(maximum)s.") % {"maximum": format_euros(MAX_AMOUNT_CENTS)},
        )
    return Amount(cents, format_euros(cents))
