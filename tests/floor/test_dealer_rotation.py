"""The dealer rotation plan's promises (floor.domain.dealer_rotation): every
table keeps a dealer who may deal its game [GA art. 19], breaks are fair (the
longest without a break goes first, nobody deals past the house's limit while a
relief is there), and a table opening or closing re-plans the sector."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.dealer_rotation import run
from floor.domain.dealer_rotation import (
    DEALING,
    IDLE,
    ON_BREAK,
    TO_BOX,
    TO_BREAK,
    DealerSlot,
    TableSlot,
    plan,
)
from games.profile_rules import DealerRotationRules

NOW = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
RULES = DealerRotationRules()  # downs of 30, breaks of 15 after at most 60 minutes
MIN = timedelta(minutes=1)
HE, OM = frozenset({"texas_holdem"}), frozenset({"omaha"})
BOTH = HE | OM


def table(n: int, games=HE, dealer: str | None = None, since: datetime | None = None):
    return TableSlot(f"t{n}", n, games, dealer, since)


def dealer(name: str, games=HE, state=IDLE, since=NOW, dealt=0, table_id=None):
    """A dealer who dealt ``dealt`` minutes since a break before ``since``."""
    return DealerSlot(name, games, state, since, dealt * MIN, table_id)


def dealing(name: str, n: int, since: datetime, dealt: int = 0, games=HE):
    return dealer(name, games, DEALING, since, dealt, f"t{n}")


def test_a_table_without_a_dealer_gets_an_idle_one_now():
    result = plan([table(1)], [dealer("ana")], RULES, NOW)
    assert [(p.table_id, p.dealer_in, p.at, p.dealer_out) for p in result.pushes] == [
        ("t1", "ana", NOW, None)
    ]
    assert result.uncovered == ()


def test_the_next_down_is_due_after_the_down_length_and_the_relief_takes_it():
    tables = [table(1, dealer="ana", since=NOW - 10 * MIN)]
    dealers = [dealing("ana", 1, NOW - 10 * MIN), dealer("bea")]
    push = plan(tables, dealers, RULES, NOW).push_for("t1")
    assert (push.dealer_in, push.dealer_out, push.at) == ("bea", "ana", NOW + 20 * MIN)
    assert push.out_to == TO_BOX  # 30 minutes dealt: another down still within 60


def test_a_dealer_whose_next_down_would_pass_the_limit_goes_on_break():
    tables = [table(1, dealer="ana", since=NOW - 30 * MIN)]
    dealers = [dealing("ana", 1, NOW - 30 * MIN, dealt=15), dealer("bea")]
    push = plan(tables, dealers, RULES, NOW).push_for("t1")
    assert (push.dealer_in, push.at, push.out_to) == ("bea", NOW, TO_BREAK)


def test_only_a_dealer_who_may_deal_the_game_takes_the_table():
    tables = [table(1, OM), table(2, HE)]
    dealers = [dealer("ana", HE), dealer("bea", OM)]
    result = plan(tables, dealers, RULES, NOW)
    assert {(p.table_id, p.dealer_in) for p in result.pushes} == {("t1", "bea"), ("t2", "ana")}


def test_the_matching_frees_the_all_rounder_for_the_table_only_they_may_deal():
    # "ana" deals both and is the longest idle; "bea" only Hold'em: a greedy
    # choice table by table would give ana the Hold'em table and leave Omaha bare.
    tables = [table(1, HE), table(2, OM)]
    dealers = [dealer("ana", BOTH, since=NOW - 30 * MIN), dealer("bea", HE)]
    result = plan(tables, dealers, RULES, NOW)
    assert {(p.table_id, p.dealer_in) for p in result.pushes} == {("t1", "bea"), ("t2", "ana")}


def test_a_table_nobody_qualified_can_take_is_named_uncovered():
    result = plan([table(1, OM)], [dealer("ana", HE)], RULES, NOW)
    assert result.uncovered == ("t1",)
    assert result.pushes == ()
    # A dealer named outside the box still deals it: no push, not uncovered.
    named = plan([table(1, OM, dealer="cris")], [dealer("ana", HE)], RULES, NOW)
    assert named.uncovered == () and named.pushes == ()
    # A box dealer the jefe named at the table stands there: not pushed
    # elsewhere, and the table is not without a dealer.
    tables = [table(1, HE, dealer="ana"), table(2, HE)]
    standing = plan(tables, [dealer("ana", HE)], RULES, NOW)
    assert standing.uncovered == ("t2",) and standing.pushes == ()
    # One in the box who may deal it: the push is due now (since unknown).
    relieved = plan([table(1, HE, dealer="cris")], [dealer("ana", HE)], RULES, NOW)
    assert [(p.dealer_in, p.dealer_out, p.at) for p in relieved.pushes] == [("ana", "cris", NOW)]


def test_a_dealer_on_break_comes_back_when_it_is_up():
    tables = [table(1)]
    dealers = [dealer("ana", state=ON_BREAK, since=NOW - 5 * MIN, dealt=60)]
    result = plan(tables, dealers, RULES, NOW)
    assert result.back_at == {"ana": NOW + 10 * MIN}
    assert result.push_for("t1").at == NOW + 10 * MIN


def test_the_longest_without_a_break_is_relieved_first():
    # Two tables due at the same time, one relief: the dealer longest without
    # a break is relieved now, the other waits for the next dealer free.
    tables = [
        table(1, dealer="ana", since=NOW - 30 * MIN),
        table(2, dealer="bea", since=NOW - 30 * MIN),
    ]
    dealers = [
        dealing("ana", 1, NOW - 30 * MIN, dealt=10),
        dealing("bea", 2, NOW - 30 * MIN, dealt=20),
        dealer("cris"),
    ]
    result = plan(tables, dealers, RULES, NOW)
    first = result.pushes[0]
    assert (first.table_id, first.dealer_in, first.at, first.out_to) == (
        "t2",
        "cris",
        NOW,
        TO_BREAK,
    )


def test_an_idle_dealer_due_a_break_is_named_but_the_last_one_stays_in_the_box():
    result = plan([], [dealer("ana", dealt=40)], RULES, NOW)
    assert result.breaks_due == ("ana",)
    assert plan([], [dealer("ana", dealt=20)], RULES, NOW).breaks_due == ()
    # A table is open: the last idle dealer stays, whoever dealt longest goes.
    tables = [table(1, dealer="cris", since=NOW)]
    dealers = [dealing("cris", 1, NOW), dealer("ana", dealt=40), dealer("bea", dealt=50)]
    assert plan(tables, dealers, RULES, NOW).breaks_due == ("bea",)


def test_a_tired_dealer_goes_in_only_where_nobody_else_can():
    # Two idle dealers for one bare table: the one who could take another
    # down goes in although the other waited longer.
    dealers = [dealer("ana", since=NOW - 20 * MIN, dealt=45), dealer("bea", since=NOW)]
    assert plan([table(1)], dealers, RULES, NOW).pushes[0].dealer_in == "bea"
    # Alone, the tired one takes it, and is relieved when the limit comes.
    alone = plan([table(1)], [dealer("ana", dealt=45)], RULES, NOW)
    assert alone.pushes[0].dealer_in == "ana"
    tables = [table(1, dealer="ana", since=NOW)]
    dealers = [dealing("ana", 1, NOW, dealt=45), dealer("bea")]
    push = plan(tables, dealers, RULES, NOW).push_for("t1")
    assert (push.at, push.out_to) == (NOW + 15 * MIN, TO_BREAK)


def test_a_table_opening_or_closing_re_plans_the_sector():
    tables = [table(1, dealer="ana", since=NOW - 10 * MIN)]
    dealers = [dealing("ana", 1, NOW - 10 * MIN), dealer("bea")]
    before = plan(tables, dealers, RULES, NOW)
    assert before.push_for("t1").dealer_in == "bea"
    # A table opens: the relief takes it now, table 1's dealer stays on.
    opened = plan([*tables, table(2)], dealers, RULES, NOW)
    assert [(p.table_id, p.dealer_in, p.at) for p in opened.pushes] == [("t2", "bea", NOW)]
    # Table 1 closes: its dealer is back in the box (the command sets them
    # idle), table 2 gets a dealer now and table 1 is planned no more.
    closed = plan([table(2)], [dealer("ana", since=NOW - 10 * MIN), dealer("bea")], RULES, NOW)
    assert [p.table_id for p in closed.pushes] == ["t2"]
    assert closed.pushes[0].at == NOW


# --- the promises, on any floor ---------------------------------------------------------

GAMES = st.sampled_from([HE, OM, BOTH])


@st.composite
def floors(draw):
    """Tables of Hold'em or Omaha, some dealt (for some minutes now), and
    dealers of either or both games, some idle and some on break."""
    n_tables = draw(st.integers(1, 5))
    tables, dealers = [], []
    for n in range(1, n_tables + 1):
        games = draw(st.sampled_from([HE, OM]))
        if draw(st.booleans()):
            name = f"d{n}"
            since = NOW - draw(st.integers(0, 40)) * MIN
            tables.append(table(n, games, name, since))
            dealers.append(
                dealing(name, n, since, draw(st.integers(0, 30)), games=draw(GAMES) | games)
            )
        else:
            tables.append(table(n, games))
    for k in range(draw(st.integers(0, 5))):
        state = draw(st.sampled_from([IDLE, ON_BREAK]))
        since = NOW - draw(st.integers(0, 20)) * MIN
        dealers.append(dealer(f"r{k}", draw(GAMES), state, since, draw(st.integers(0, 60))))
    return tables, dealers


def can_cover(tables, dealers) -> bool:
    """Whether the idle dealers can take every table without a dealer (brute force)."""
    bare = [t for t in tables if t.dealer is None]
    idle = [d for d in dealers if d.state == IDLE]

    def place(i: int, used: frozenset) -> bool:
        if i == len(bare):
            return True
        return any(
            place(i + 1, used | {d.username})
            for d in idle
            if d.username not in used and d.may_deal(bare[i])
        )

    return place(0, frozenset())


@settings(max_examples=150, deadline=None)
@given(floors())
def test_every_table_gets_a_qualified_dealer_now_when_enough_are_idle(floor):
    tables, dealers = floor
    result = plan(tables, dealers, RULES, NOW)
    by_name = {d.username: d for d in dealers}
    by_table = {t.table_id: t for t in tables}
    for push in result.pushes:
        assert by_name[push.dealer_in].may_deal(by_table[push.table_id])
        assert push.at >= NOW
    # One push per table, and nobody pushed into two tables at once.
    assert len({p.table_id for p in result.pushes}) == len(result.pushes)
    if can_cover(tables, dealers):
        assert result.uncovered == ()
        for t in tables:
            if t.dealer is None:
                assert result.push_for(t.table_id).at == NOW


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), tables=st.integers(1, 6))
def test_a_shift_never_leaves_a_table_bare_and_breaks_are_fair(seed, tables):
    # Staffed for the busiest hour: a relief for every two tables and three
    # more (every dealer deals both games). Fewer, and a dealer waits past
    # the limit for a relief (still no table without a dealer).
    figures = run(
        hours=4, tables=tables, dealers=tables + tables // 2 + 3, omaha=1.0, churn=2.0, seed=seed
    )
    assert figures["tables_ever_without_a_dealer"] == 0
    assert figures["longest_without_a_break_minutes"] <= RULES.break_after // MIN
    assert figures["breaks_spread"] <= 2


def test_a_twelve_hour_shift_with_tables_opening_and_closing():
    figures = run(hours=12, tables=8, dealers=12, omaha=0.5, churn=1.0, seed=7)
    assert figures["tables_opened"] > 4 and figures["tables_closed"] > 0
    assert figures["tables_ever_without_a_dealer"] == 0
    assert figures["longest_without_a_break_minutes"] <= 60
    assert figures["breaks_spread"] <= 2
