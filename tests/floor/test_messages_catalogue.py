"""Every refusal the floor can give is catalogued, and reads in Spanish,
Galician and Portuguese: no supervisor gets the domain's English prose.

The codes are collected from the source, so a new ``invalid("...")`` without
a MESSAGES entry fails here rather than reaching a Spanish screen in English.
The domain raises a code and its params, never prose (issue 21): the
catalogue is the one place a refusal is worded.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils.translation import override

from floor.kernel.errors import DomainError, ErrorKind, conflict, invalid
from floor.messages import MESSAGES, describe, message_for
from games.errors import RuleViolation
from tests.support.floor import JEFE, new_id
from tests.support.room import Room, refused

ROOT = Path(__file__).resolve().parents[2]
FLOOR_DIRS = (
    "floor/kernel",
    "floor/domain",
    "floor/application",
    "floor/selectors",
    "floor/reports",
    "floor/api",
    "floor/player",
    "floor/compliance",
    "ledger/domain",
    "ledger/application",
    "ledger/reports",
)
REFUSALS = {"invalid", "conflict", "not_found", "forbidden", "DomainError"}
# The games' checks whose refusals the floor passes on with the same code:
# the stakes and ante of a table, and the rake it announces.
GAMES_CHECKS = {
    "games/limits.py": {"check_stakes"},
    "games/betting.py": {"check_ante", "_require_non_negative", "check_banked_stakes"},
    "games/table_rules.py": {"_check_per_hand", "_check_per_session", "_percent", "_cents"},
    "games/banked/jackpot.py": {"check_stake", "check_seed"},
    # A banked hand's bets (floor.domain.banked_hand passes them on).
    "games/banked/common.py": {"check_within_limits"},
}
GAMES_REFUSALS = {"RuleViolation", "SettlementError", "_refuse"}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _literal_codes(node: ast.expr) -> list[str]:
    """The code a refusal passes, when the source spells it out."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):  # "a" if owed else "b"
        return _literal_codes(node.body) + _literal_codes(node.orelse)
    return []


def _params(call: ast.Call) -> set[str] | None:
    """The params a refusal passes, or None when it forwards a ``**dict``."""
    names = {k.arg for k in call.keywords}
    if None in names:
        return None
    return names - {"kind"}


def _sites(path: Path, refusals: set[str], functions: set[str] | None = None):
    """(code, params, line) for each refusal in ``path`` (or in its ``functions``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = (
        [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in functions]
        if functions is not None
        else [tree]
    )
    for root in roots:
        for node in ast.walk(root):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = _name(node)
            if name in refusals:
                for code in _literal_codes(node.args[0]):
                    yield code, _params(node), f"{path.relative_to(ROOT)}:{node.lineno}"
            elif name == "load" and len(node.args) >= 3:
                # CommandService.load(cls, id, "table") refuses f"{what}_not_found".
                for what in _literal_codes(node.args[2]):
                    yield f"{what}_not_found", set(), f"{path.relative_to(ROOT)}:{node.lineno}"


def refusal_sites() -> list[tuple[str, set[str] | None, str]]:
    sites = []
    for folder in FLOOR_DIRS:
        for path in sorted((ROOT / folder).glob("*.py")):
            sites.extend(_sites(path, REFUSALS))
    for file, functions in GAMES_CHECKS.items():
        sites.extend(_sites(ROOT / file, GAMES_REFUSALS, functions))
    return sites


SITES = refusal_sites()
CODES = sorted({code for code, _params, _where in SITES})


def test_the_scan_finds_the_floors_refusals():
    expected = {"seat_taken", "table_not_found", "sector_not_found", "player_not_found"}
    assert expected <= set(CODES)
    assert {"stakes_out_of_band", "ante_above_half_minimum"} <= set(CODES)
    assert len(CODES) > 80


def test_every_refusal_code_is_catalogued():
    missing = sorted({f"{code} ({where})" for code, _p, where in SITES if code not in MESSAGES})
    assert not missing, f"codes without a MESSAGES entry: {missing}"


def test_each_message_uses_only_the_params_its_refusals_pass():
    """A placeholder a raise site does not fill makes message_for fall back to
    the English prose, so each one must be passed wherever the code is raised."""
    unfilled = []
    for code, params, where in SITES:
        if params is None or code not in MESSAGES:
            continue
        # message_for writes each ``X_cents`` param as ``X_euros`` too.
        given = params | {f"{p[: -len('_cents')]}_euros" for p in params if p.endswith("_cents")}
        needed = set(PLACEHOLDER.findall(str(MESSAGES[code])))
        if needed - given:
            unfilled.append(f"{code} at {where} lacks {sorted(needed - given)}")
    assert not unfilled


@pytest.mark.parametrize("language", ["es", "gl", "pt"])
def test_every_message_is_translated(language):
    with override("en"):
        english = {code: str(template) for code, template in MESSAGES.items()}
    untranslated = []
    with override(language):
        for code, template in MESSAGES.items():
            text = str(template)
            assert text.strip(), code
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[code])), code
            if text == english[code]:
                untranslated.append(code)
            # Filled with its params, the translation formats without falling back.
            params = dict.fromkeys(PLACEHOLDER.findall(english[code]), 7)
            assert message_for(code, "FALLBACK", **params) != "FALLBACK", code
    assert len(untranslated) <= len(MESSAGES) // 20, untranslated


@pytest.mark.django_db
def test_a_taken_seat_is_refused_in_spanish(make_app):
    room = Room(make_app("CM"))
    table_id, _cards = room.drawn_table(4)
    busy = next(iter(room.seats(table_id)))
    error = refused(
        room.app, "seat_taken", room.app.call_next, JEFE, new_id(), table_id=table_id, seat=busy
    )
    with override("es"):
        assert describe(error) == f"El asiento {busy} está ocupado."
    with override("gl"):
        assert describe(error) == f"O asento {busy} está ocupado."
    with override("pt"):
        assert describe(error) == f"O lugar {busy} está ocupado."
    with override("en"):
        assert describe(error) == f"Seat {busy} is taken."


@pytest.mark.parametrize(
    ("language", "seat", "not_seat"),
    [("es", "asiento", "puesto"), ("gl", "asento", "posto"), ("pt", "lugar", "posto")],
)
def test_a_seat_is_called_by_one_word(language, seat, not_seat):
    """A seat is "asiento" in every Spanish message ("asento", "lugar"), never
    "puesto" in one and "asiento" in the next (issue 22)."""
    with override("en"):
        english = {code: str(template) for code, template in MESSAGES.items()}
    with override(language):
        said = {code: str(template) for code, template in MESSAGES.items()}
    about_seats = [code for code, text in english.items() if re.search(r"\bseats?\b", text)]
    assert "player_away" in about_seats
    wrong = re.compile(rf"\b{not_seat}s?\b", re.IGNORECASE)
    assert [code for code in about_seats if wrong.search(said[code])] == []
    assert sum(seat in said[code].lower() for code in about_seats) > len(about_seats) // 2


def test_no_refusal_in_the_floor_or_the_ledger_passes_prose():
    """The helpers take the code alone as a positional argument: a second one
    would be prose the catalogue already says (floor.kernel.errors)."""
    prose = []
    for folder in ("floor", "ledger"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _name(node) in REFUSALS and len(node.args) > 1:
                    prose.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not prose, f"refusals passing prose: {prose}"


def test_a_refusal_s_own_text_is_its_code_and_params():
    """What logs and tracebacks show: stable and plain, no prose."""
    error = conflict("seat_taken", seat=3)
    assert str(error) == error.message == "seat_taken (seat=3)"
    assert (error.code, error.params, error.kind) == ("seat_taken", {"seat": 3}, "conflict")
    assert isinstance(error, RuleViolation)
    named = invalid("unknown_variant", variant="bingo\n", low=2)
    assert str(named) == "unknown_variant (variant='bingo\\n', low=2)"
    assert str(invalid("table_full")) == "table_full"


def test_an_uncatalogued_refusal_is_said_generically_never_as_its_code():
    error = DomainError("no_such_code_anywhere", kind=ErrorKind.CONFLICT, seat=3)
    for language in ("en", "es", "gl", "pt"):
        with override(language):
            assert describe(error) == message_for("refused")
            assert "no_such_code_anywhere" not in describe(error)
    with override("es"):
        assert describe(error) == "La sala ha rechazado esta solicitud; no se ha registrado nada."
    # A games refusal the floor passes on unworded keeps the game's own message.
    assert describe(RuleViolation("no_such_code_anywhere", "The game says no.")) == (
        "The game says no."
    )
