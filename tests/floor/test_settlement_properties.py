"""The hand's settlement, generated (issue 19, "Done when").

Hypothesis deals hands (stacks, all-ins, folds, dead blinds, ties, odd
amounts) and checks, on the pure settlement (floor.domain.settlement), that
the service's own settlement conserves every cent, pays nobody outside the
pots they reached, returns the uncalled chips and rakes only the called pots
[PT 38, 49-50, 65-67; GA art. 18.3a, 23.3; CM "restados", "Beneficio"]; and
that a typed hand end is accepted exactly when some sharing of the pots gives
it (an oracle of its own: a max-flow from the pots to their seats), so any
hand end breaking those rules is refused. A few hands then go through the
HTTP API, preview and end alike.
"""

from __future__ import annotations

import itertools
from collections import deque
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from floor.domain import settlement
from floor.kernel.errors import DomainError
from games.pots import CM_SPLIT, GA_SPLIT, PT_SPLIT
from games.rake import CM_HAND_RAKE, GA_HAND_RAKE, PT_HAND_RAKE, HandRake
from tests.support.floor import CRUPIER
from tests.support.room import Room

FIVE = Fraction(5, 100)
RAKES = {
    "none": None,
    "PT": settlement.RakeSetting(PT_HAND_RAKE, HandRake(FIVE)),
    "GA": settlement.RakeSetting(GA_HAND_RAKE, HandRake(FIVE)),
    "CM": settlement.RakeSetting(CM_HAND_RAKE, HandRake(FIVE, 1000, 2000)),
}
SPLITS = {"PT": PT_SPLIT, "GA": GA_SPLIT, "CM": CM_SPLIT}
AWAY_SEAT = 10


@st.composite
def hands(draw):
    """A hand's facts and contributions: 2 to 6 seats, some all in, some
    folding, an overbet nobody called now and then, a dead blind, an away
    player's blind."""
    count = draw(st.integers(2, 6))
    seats = list(range(1, count + 1))
    stacks = {s: draw(st.integers(1, 3000)) for s in seats}
    levels = draw(st.lists(st.integers(0, 3000), min_size=1, max_size=3))
    put_in, dead = {}, {}
    for s in seats:
        kind = draw(st.sampled_from(["all_in", "level", "level", "any"]))
        if kind == "all_in":
            amount = stacks[s]
        elif kind == "level":
            amount = min(stacks[s], draw(st.sampled_from(levels)))
        else:
            amount = draw(st.integers(0, stacks[s]))
        put_in[s] = amount
        if amount and draw(st.integers(0, 5)) == 0:
            dead[s] = draw(st.integers(1, amount))
    away = {AWAY_SEAT: draw(st.integers(1, 300))} if draw(st.booleans()) else {}
    source = draw(st.sampled_from(["PT", "GA", "CM"]))
    facts = settlement.HandFacts(
        stacks=stacks,
        blinds={},
        dead_blinds=dead,
        away_blinds=away,
        dead_hands=frozenset(),
        variant="texas_holdem",
        button=draw(st.sampled_from(seats)),
        ascending=draw(st.booleans()),
        table_minimum=draw(st.sampled_from([1, 7, 100, 200])),
        split=SPLITS[source],
        rake=RAKES[draw(st.sampled_from([source, "none"]))],
    )
    said_folded = draw(st.lists(st.sampled_from(seats), max_size=2, unique=True))
    return facts, put_in, said_folded


def built(facts, put_in, said_folded):
    """The pots, or None when nobody is left in the hand (refused)."""
    try:
        return settlement.build(facts, put_in, said_folded)
    except DomainError as refused:
        assert refused.code == "no_live_player"
        return None


def bets_of(facts, put_in):
    return {s: put_in[s] - facts.dead_blinds.get(s, 0) for s in facts.stacks}


def rake_limit_oracle(facts, pots) -> int:
    """The rake limit counted directly from the sources: 5 % of each pot [PT
    65], or of the called pot [GA art. 18.3a], CM in steps of 20 EUR capped at
    10 EUR [CM "Beneficio"]."""
    if facts.rake is None:
        return 0
    called = sum(p.amount for p in pots)
    if facts.rake.rule is PT_HAND_RAKE:
        return sum(p.amount * 5 // 100 for p in pots)
    if facts.rake.rule is GA_HAND_RAKE:
        return called * 5 // 100
    return min((called - called % 2000) * 5 // 100, 1000)


def max_flow_fits(pots, wanted: dict[int, int], rake: int) -> bool:
    """Whether the pots, less ``rake`` taken anywhere, can be shared so that
    each seat gets exactly ``wanted``, every cent going to an eligible seat:
    a max-flow source -> pots -> seats -> sink, plus the rake as a sink any
    pot may feed."""
    nodes = ["src", *[("pot", i) for i in range(len(pots))], *[("seat", s) for s in wanted]]
    nodes += ["rake", "sink"]
    cap: dict = {}

    def edge(a, b, c):
        cap[(a, b)] = cap.get((a, b), 0) + c
        cap.setdefault((b, a), 0)

    for i, pot in enumerate(pots):
        edge("src", ("pot", i), pot.amount)
        edge(("pot", i), "rake", pot.amount)
        for s in pot.eligible:
            if s in wanted:
                edge(("pot", i), ("seat", s), pot.amount)
    for s, amount in wanted.items():
        edge(("seat", s), "sink", amount)
    edge("rake", "sink", rake)
    flow = 0
    while True:
        parent = {"src": None}
        queue = deque(["src"])
        while queue and "sink" not in parent:
            a = queue.popleft()
            for b in nodes:
                if b not in parent and cap.get((a, b), 0) > 0:
                    parent[b] = a
                    queue.append(b)
        if "sink" not in parent:
            break
        path, b = [], "sink"
        while parent[b] is not None:
            path.append((parent[b], b))
            b = parent[b]
        push = min(cap[e] for e in path)
        for a, b in path:
            cap[(a, b)] -= push
            cap[(b, a)] += push
        flow += push
    return flow == sum(wanted.values()) + rake == sum(p.amount for p in pots)


def settled(facts, build, data):
    winners = [
        sorted(data.draw(st.lists(st.sampled_from(sorted(p.eligible)), min_size=1, unique=True)))
        for p in build.pots
    ]
    return settlement.settle(facts, build, winners), winners


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(hand=hands(), data=st.data())
def test_the_service_settlement_keeps_every_rule(hand, data):
    facts, put_in, said_folded = hand
    build = built(facts, put_in, said_folded)
    if build is None:
        return
    total = sum(put_in.values()) + sum(facts.away_blinds.values())
    paid, winners = settled(facts, build, data)
    # Conserved to the cent: winnings (returned chips included) plus rake.
    assert sum(paid.winnings.values()) + paid.rake == total
    assert all(v >= 0 for v in paid.winnings.values())
    # Uncalled chips go back: the top bet above everyone else's, to its owner
    # even when the owner then mucked (nobody folds to their own bet) [PT 38].
    bets = bets_of(facts, put_in)
    ranked = sorted(bets.values(), reverse=True)
    top_seat = max(bets, key=lambda s: (bets[s], -s))
    second = ranked[1] if len(ranked) > 1 else 0
    expected_back = bets[top_seat] - second
    if expected_back > 0:
        assert build.returned == {top_seat: expected_back}
    else:
        assert build.returned == {}
    for seat, back in build.returned.items():
        assert paid.winnings.get(seat, 0) >= back
    # The called pots are what was put in less the chips returned.
    assert build.called == total - sum(build.returned.values())
    # Nobody is paid outside their pots; a folded seat gets nothing.
    for index, pot in enumerate(paid.pots):
        shares = {int(s): c for s, c in pot["paid"].items()}
        assert set(shares) <= build.pots[index].eligible
        assert set(pot["winners"]) == set(winners[index])
        assert sum(shares.values()) + pot["rake_cents"] == pot["amount_cents"]
    for seat in build.folded:
        assert paid.winnings.get(seat, 0) == build.returned.get(seat, 0)
    for seat, amount in paid.winnings.items():
        assert amount - build.returned.get(seat, 0) <= build.most(seat)
    # The rake: the table's, on the called pots only, never above 5 % of them.
    assert paid.rake == rake_limit_oracle(facts, build.pots)
    assert paid.rake <= build.called * 5 // 100
    # The settlement, typed back, is accepted.
    settlement.check_typed(facts, build, paid.winnings, paid.rake)


@st.composite
def typed_reports(draw, facts, build, total):
    """What a dealer might type: the service's settlement bent a little, or the
    money spread anyhow over the seats; a rake at, under or over the limit."""
    seats = sorted(facts.stacks)
    limit = rake_limit_oracle(facts, build.pots)
    rake = draw(st.sampled_from(sorted({0, limit, limit + 1, max(limit - 1, 0)})))
    rake = min(rake, total)
    left = total - rake
    if draw(st.booleans()):
        cuts = sorted(
            draw(st.lists(st.integers(0, left), min_size=len(seats) - 1, max_size=len(seats) - 1))
        )
        shares = [b - a for a, b in zip([0, *cuts], [*cuts, left], strict=True)]
        won = dict(zip(seats, shares, strict=True))
    else:
        winners = [sorted(p.eligible)[:1] for p in build.pots]
        won = dict(settlement.settle(facts, build, winners).winnings)
        spare = sum(won.values()) + rake - total  # the settlement's own rake differs
        giver = max(won, key=won.get) if won else seats[0]
        won[giver] = won.get(giver, 0) - spare
        if won[giver] < 0:
            return None
        if draw(st.booleans()) and won:
            source, target = draw(st.sampled_from(sorted(won))), draw(st.sampled_from(seats))
            moved = draw(st.integers(0, won[source]))
            won[source] -= moved
            won[target] = won.get(target, 0) + moved
    return won, rake


@FAST
@given(hand=hands(), data=st.data())
def test_a_typed_hand_end_is_accepted_exactly_when_the_pots_allow_it(hand, data):
    facts, put_in, said_folded = hand
    build = built(facts, put_in, said_folded)
    if build is None:
        return
    total = sum(put_in.values()) + sum(facts.away_blinds.values())
    typed = data.draw(typed_reports(facts, build, total))
    if typed is None:
        return
    won, rake = typed
    note(f"{facts} {put_in} {said_folded} {build}")
    assert sum(won.values()) + rake == total
    from_pots = {s: w - build.returned.get(s, 0) for s, w in won.items()}
    for seat in build.returned:
        from_pots.setdefault(seat, -build.returned[seat])
    allowed = (
        all(v >= 0 for v in from_pots.values())
        and all(won.get(s, 0) <= build.returned.get(s, 0) for s in build.folded)
        and rake <= rake_limit_oracle(facts, build.pots)
        # A typed report names no pot for the rake: it may come out of any.
        and max_flow_fits(build.pots, {s: v for s, v in from_pots.items() if v}, rake)
    )
    try:
        settlement.check_typed(facts, build, won, rake)
    except DomainError as refused:
        event(f"refused {refused.code}")
        assert not allowed, (refused.code, refused.params)
        assert refused.code in {
            "folded_seat_wins",
            "winnings_outside_pot",
            "uncalled_not_returned",
            "rake_above_maximum",
        }
    else:
        event("accepted")
        assert allowed


# --- a few hands through the HTTP API -------------------------------------------------


@pytest.fixture
def floor_client(floor_app, make_user):
    """A factory: a new table of four bought in for 10 EUR each, a hand dealt,
    and the API client of its dealer. Each table is a game of its own (its own
    maximum), in a sector of its own (a sector holds four tables), so the
    draw does not fill the others' free seats."""
    client = APIClient()
    client.force_authenticate(make_user(CRUPIER.username, "crupier"))
    count = itertools.count(1)

    def table():
        number = next(count)
        room = Room(floor_app, tag=f"HY{number}")
        maximum = 1000 - 10 * (number % 50)
        table_id, _cards = room.drawn_table(4, buy_in=maximum, maximum_cents=maximum)
        seats = room.get(table_id).occupied()
        room.start(table_id, seats)
        return client, room, table_id, seats

    return table


@pytest.mark.django_db
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_through_the_api_the_preview_is_what_the_hand_end_pays(floor_client, data):
    client, room, table_id, seats = floor_client()
    stacks = {s: room.state(table_id, seat=s)["stack"] for s in seats}
    put_in = {
        s: data.draw(st.sampled_from([stacks[s], min(stacks[s], 400), 0, 150]), label=f"put {s}")
        for s in seats
    }
    body = {"contributions": {str(s): c for s, c in put_in.items()}}
    preview = client.post(f"/api/tables/{table_id}/hands/settlement/", body, format="json")
    assert preview.status_code == 200, preview.content  # the pots, before any winner
    assert preview.json()["stacks"] is None
    pots = preview.json()["pots"]
    winners = [[data.draw(st.sampled_from(p["eligible"]), label="winner")] for p in pots]
    body["pot_winners"] = winners
    preview = client.post(f"/api/tables/{table_id}/hands/settlement/", body, format="json")
    assert preview.status_code == 200, preview.content
    answer = preview.json()
    assert sum(answer["payments"].values()) + answer["rake_cents"] == sum(put_in.values())
    ended = client.post(
        f"/api/tables/{table_id}/hands/end/",
        {"command_id": str(data.draw(st.uuids())), **body},
        format="json",
    )
    assert ended.status_code == 201, ended.content
    result = ended.json()["result"]
    assert result["winnings"] == answer["payments"] and result["stacks"] == answer["stacks"]
    for seat, stack in answer["stacks"].items():
        assert room.state(table_id, seat=int(seat))["stack"] == stack
