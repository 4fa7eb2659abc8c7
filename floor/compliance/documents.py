"""A patron's identity document, checked and normalised (issue 25, item 1).

Ley 10/2010 art. 7.5 has casinos identify every person who enters and fully
identify anyone who buys or cashes chips for 2,000 EUR or more; the Portuguese
casinos identify their patrons too (Lei 83/2017). What the desk or the cage
types is checked here before anything is recorded:

- a Spanish DNI is 8 digits and a check letter, the letter being
  ``TRWAGMYFPDXBNJZSQVHLCKE[number % 23]`` (Real Decreto 1553/2005, art. 11,
  and the Ministry of the Interior's published algorithm);
- a NIE (a foreigner's number in Spain) is X, Y or Z, 7 digits and the same
  check letter, computed with X=0, Y=1, Z=2 in front of the digits;
- a passport number is 5 to 9 letters or digits (ICAO Doc 9303 part 4: the
  document number field of the machine-readable zone holds at most 9);
- any other document, 3 to 20 letters or digits.

The number is kept upper case without spaces, dots or dashes, so one document
typed two ways is one document (PatronIdentity's unique constraint). A DNI or
NIE is issued by Spain, whatever country was typed. The patron is an adult
(casinos in Spain and Portugal admit adults only: the regional casino
regulations and Decreto-Lei 422/89 art. 36 keep minors out of the gaming
rooms; articles to confirm against the texts, as issue 25 asks) and a birth
date over 120 years ago is a typing error. Every bad input is an ``invalid``
refusal with its own code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from floor.kernel.errors import invalid
from floor.models import PatronIdentity

CHECK_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
NIE_PREFIX = {"X": "0", "Y": "1", "Z": "2"}
ADULT_AGE = 18
OLDEST_AGE = 120
MAX_NAME_LENGTH = 120
# What people type between a document's characters: dropped.
SEPARATORS = re.compile(r"[\s.\-/]")
DNI = re.compile(r"(\d{8})([A-Z])")
NIE = re.compile(r"([XYZ])(\d{7})([A-Z])")
PASSPORT = re.compile(r"[A-Z0-9]{5,9}")
OTHER = re.compile(r"[A-Z0-9]{3,20}")

# ISO 3166-1 alpha-2: the officially assigned codes.
_ASSIGNED = """
    AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL
    BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV
    CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD
    GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM
    IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK
    LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW
    MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR
    PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS
    ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY
    UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
"""
COUNTRIES = frozenset(_ASSIGNED.split())


@dataclass(frozen=True)
class Document:
    document_type: str
    number: str
    country: str


@dataclass(frozen=True)
class Identity:
    document: Document
    full_name: str
    birth_date: date


def check_letter(digits: str) -> str:
    """The DNI's check letter of an 8-digit number (a NIE's, prefixed)."""
    return CHECK_LETTERS[int(digits) % 23]


def normalise_number(number: object) -> str:
    """A document number as kept: upper case, no spaces, dots, dashes or
    slashes (PatronIdentity's, and an exclusion list's entries, so that they
    compare)."""
    return SEPARATORS.sub("", number).upper() if isinstance(number, str) else ""


def clean_number(document_type: str, number: object) -> str:
    """The document number, normalised and checked for its type."""
    text = normalise_number(number)
    if not text:
        raise invalid("document_number_required")
    if document_type == PatronIdentity.DNI:
        found = DNI.fullmatch(text)
        if found is None:
            raise invalid("document_number_invalid", document_type=document_type)
        if check_letter(found.group(1)) != found.group(2):
            raise invalid("document_letter_wrong", document_type=document_type)
    elif document_type == PatronIdentity.NIE:
        found = NIE.fullmatch(text)
        if found is None:
            raise invalid("document_number_invalid", document_type=document_type)
        if check_letter(NIE_PREFIX[found.group(1)] + found.group(2)) != found.group(3):
            raise invalid("document_letter_wrong", document_type=document_type)
    else:
        shape = PASSPORT if document_type == PatronIdentity.PASSPORT else OTHER
        if not shape.fullmatch(text):
            raise invalid("document_number_invalid", document_type=document_type)
    return text


def clean_country(value: object) -> str:
    text = value.strip().upper() if isinstance(value, str) else ""
    if text not in COUNTRIES:
        raise invalid("country_invalid", format="ISO 3166-1 alpha-2")
    return text


def clean_document(document_type: object, number: object, country: object) -> Document:
    """A document's type, number and issuing country, checked together: a DNI
    or NIE is Spain's, whatever else was typed."""
    if document_type not in PatronIdentity.DOCUMENT_TYPES:
        raise invalid("document_type_invalid", allowed=list(PatronIdentity.DOCUMENT_TYPES))
    kind = str(document_type)
    cleaned = clean_number(kind, number)
    issuer = "ES" if kind in (PatronIdentity.DNI, PatronIdentity.NIE) else clean_country(country)
    return Document(kind, cleaned, issuer)


def clean_full_name(value: object) -> str:
    text = " ".join(value.split()) if isinstance(value, str) else ""
    if not text:
        raise invalid("full_name_required")
    if len(text) > MAX_NAME_LENGTH or not text.isprintable():
        raise invalid("full_name_invalid", max_length=MAX_NAME_LENGTH)
    return text


def years_between(born: date, on: date) -> int:
    """Whole years from ``born`` to ``on`` (a birthday on 29 February counts
    on 1 March in other years)."""
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def clean_birth_date(value: object, today: date) -> date:
    """A real date (ISO, YYYY-MM-DD), of a patron of age and under 120."""
    if isinstance(value, date):
        born = value
    else:
        try:
            born = date.fromisoformat(value.strip()) if isinstance(value, str) else None
        except ValueError:
            born = None
        if born is None:
            raise invalid("birth_date_invalid", format="YYYY-MM-DD")
    if born > today or years_between(born, today) > OLDEST_AGE:
        raise invalid("birth_date_invalid", format="YYYY-MM-DD")
    if years_between(born, today) < ADULT_AGE:
        raise invalid("patron_under_age", age=ADULT_AGE)
    return born


def clean_identity(
    document_type: object,
    document_number: object,
    country: object,
    full_name: object,
    birth_date: object,
    today: date,
) -> Identity:
    """The whole of what the desk typed, checked; the first fault refuses it."""
    return Identity(
        clean_document(document_type, document_number, country),
        clean_full_name(full_name),
        clean_birth_date(birth_date, today),
    )
