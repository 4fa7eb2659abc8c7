"""The players' time and rating (issue 26): how long each player played, per
seat session, per gaming day and per game, and what it was worth to the house;
and the players' hours per game and hour of day, which a room reads to decide
which games to spread.

A player's time runs from sitting down (seated, drawn, moved in) to leaving,
being moved out or the table closing, as the projection keeps it
(floor.projections.seat_sessions). The minutes they rested [GA art. 20; PT 13]
or were away on the absence clock [CM-18] are left out unless the house counts
them (games.profile_rules.PlayerRating: by default neither counts). Every
moment is an event's, so the seconds are exact; a session still open runs
until now. A stretch is split at each hour and each gaming day's start
(games.profile_rules.GamingDay), so a night played across the turn of the day
counts on each day for what was played in it.

The rating of a session: its buy-in and rebuys (the chips bought at the seat,
as the books book them: ledger.domain.floor_money), the stack the player
left with, the time charged [GA art. 18.3b; PT 7b], the hours, the stakes
(the table's minimum bet) and the comp points (hours x the house's points an
hour for those stakes). By day, the money of the sessions begun that day and
what the cage paid the player for their chips that day (from the books:
floor.reports.parts; none without them, nor to a reader scoped to some
sectors: the cage's payouts are not by table), only for the range's days.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from floor.reports.common import ReportFilter, hours, iso, now, table_columns
from floor.reports.parts import REPORT_PARTS
from floor.runtime import floor_app
from floor.selectors import reports as selected
from floor.selectors.player_hours import AWAY, RESTING, Played, pause_seconds
from floor.selectors.player_hours import played as played_in
from games.profile_rules import PlayerRating

PLAYER = ("player_id", "card_number", "player")
TABLE = ("table_id", "sector", "table", "game")
COLUMNS = {
    "top": (
        "rank",
        *PLAYER,
        "sessions",
        "tables",
        "seconds",
        "hours",
        "average_stakes_cents",
        "comp_points",
    ),
    "session": (
        *PLAYER,
        *TABLE,
        "seat",
        "started_at",
        "ended_at",
        "how_ended",
        "gaming_day",
        "seconds",
        "hours",
        "rest_seconds",
        "away_seconds",
        "stakes_cents",
        "carried_in_cents",
        "buy_in_cents",
        "rebuys",
        "rebuy_cents",
        "voided_cents",
        "left_with_cents",
        "time_charges",
        "time_charged_cents",
        "comp_points",
    ),
    "day": (
        *PLAYER,
        "gaming_day",
        "sessions",
        "seconds",
        "hours",
        "average_stakes_cents",
        "buy_in_cents",
        "rebuys",
        "rebuy_cents",
        "cash_out_cents",
        "time_charged_cents",
        "comp_points",
    ),
    "game": (*PLAYER, "game", "sessions", "seconds", "hours", "comp_points"),
}
GAME_HOUR_COLUMNS = (
    "game",
    "hour",
    "players",
    "days",
    "player_seconds",
    "player_hours",
    "average_players",
)


# --- the rows ------------------------------------------------------------------------


def _until(report: ReportFilter) -> datetime:
    moment = now()
    return moment if report.end is None else min(report.end, moment)


def played(report: ReportFilter) -> list[Played]:
    """The sessions at the report's tables overlapping its range, counted."""
    return played_in(report.table_ids, report.start, report.end)


def _player_columns(player_id: str, players: dict) -> dict:
    found = players.get(player_id)
    return {
        "player_id": str(UUID(player_id)),
        "card_number": found.card_number if found else "",
        "player": found.display_name if found else "",
    }


def _players(sessions: list[Played]) -> dict:
    """The players of the sessions, by id as hex (their card and name)."""
    wanted = {UUID(s.session.player_id) for s in sessions}
    return {key.hex: value for key, value in selected.players_by_id(wanted).items()}


def _seconds_row(seconds: float) -> dict:
    return {"seconds": int(seconds), "hours": hours(seconds)}


def players_report(report: ReportFilter, by: str) -> list[dict]:
    """The players' time and rating, one row per ``by`` group, its fields in
    the order of its COLUMNS."""
    return [{column: row[column] for column in COLUMNS[by]} for row in _rows(report, by)]


def _rows(report: ReportFilter, by: str) -> list[dict]:
    sessions = played(report)
    labels = selected.tables_by_id({s.session.table_id for s in sessions})
    sessions = [s for s in sessions if s.session.table_id in labels]
    players = _players(sessions)
    rating = floor_app().profile.rating
    until = _until(report)

    def stakes(s: Played) -> int:
        return labels[s.session.table_id].minimum_cents

    def points(s: Played) -> int:
        return rating.comp_points(int(s.seconds), stakes(s))

    if by == "session":
        rows = []
        for s in sessions:
            session = s.session
            rows.append(
                {
                    **_player_columns(session.player_id, players),
                    **table_columns(labels[session.table_id]),
                    "seat": session.seat,
                    "started_at": iso(session.started_at),
                    "ended_at": iso(session.ended_at),
                    "how_ended": session.how_ended,
                    "gaming_day": s.gaming_day,
                    **_seconds_row(s.seconds),
                    "rest_seconds": pause_seconds(session, RESTING, until),
                    "away_seconds": pause_seconds(session, AWAY, until),
                    "stakes_cents": stakes(s),
                    "carried_in_cents": session.carried_in_cents,
                    "buy_in_cents": session.buy_in_cents,
                    "rebuys": session.rebuys,
                    "rebuy_cents": session.rebuy_cents,
                    "voided_cents": session.voided_cents,
                    "left_with_cents": session.left_with_cents,
                    "time_charges": session.time_charges,
                    "time_charged_cents": session.time_charged_cents,
                    "comp_points": points(s),
                }
            )
        return rows
    if by == "day":
        return _by_day(report, sessions, players, stakes, rating)
    groups: dict[tuple, dict] = {}
    for s in sessions:
        player = s.session.player_id
        if by == "game":
            game = table_columns(labels[s.session.table_id])["game"]
            key = (player, game)
            row = groups.setdefault(
                key,
                {
                    "player_id": player,
                    "game": game,
                    "sessions": 0,
                    "seconds": 0.0,
                    "comp_points": 0,
                },
            )
        else:
            key = (player,)
            row = groups.setdefault(
                key,
                {
                    "player_id": player,
                    "sessions": 0,
                    "tables": set(),
                    "seconds": 0.0,
                    "stake_seconds": 0.0,
                    "comp_points": 0,
                },
            )
            row["tables"].add(s.session.table_id)
            row["stake_seconds"] += stakes(s) * s.seconds
        row["sessions"] += 1
        row["seconds"] += s.seconds
        row["comp_points"] += points(s)
    rows = []
    for row in groups.values():
        out = {**_player_columns(row["player_id"], players), **row, **_seconds_row(row["seconds"])}
        if by == "top":
            out["tables"] = len(row["tables"])
            out["average_stakes_cents"] = (
                int(row["stake_seconds"] // row["seconds"]) if row["seconds"] else None
            )
            out.pop("stake_seconds")
        rows.append(out)
    if by == "game":
        rows.sort(key=lambda r: (r["card_number"], r["player_id"], r["game"]))
        return rows
    rows.sort(key=lambda r: (-r["seconds"], r["card_number"], r["player_id"]))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


def _by_day(
    report: ReportFilter, sessions: list[Played], players: dict, stakes, rating: PlayerRating
) -> list[dict]:
    """Per player and gaming day: the seconds played that day (split at the
    turn of the day), the money of the sessions begun that day, and what the
    cage paid the player that day (the books').

    Only the days of the range: a session begun before the range counts
    its seconds in it, its money in the range it began in (so adjacent
    ranges add up to the whole, each session's money counted once). The
    cage's payouts are the player's, whatever table their chips came from:
    a reader scoped to some sectors (a jefe) does not read them (None), as
    he does not read the other sectors' tables [GA art. 19.1]; management
    does."""
    groups: dict[tuple[str, str], dict] = {}

    def row_of(player: str, day: str) -> dict:
        return groups.setdefault(
            (player, day),
            {
                "player_id": player,
                "gaming_day": day,
                "sessions": set(),
                "seconds": 0.0,
                "stake_seconds": 0.0,
                "buy_in_cents": 0,
                "rebuys": 0,
                "rebuy_cents": 0,
                "time_charged_cents": 0,
                "comp_points": 0,
            },
        )

    for s in sessions:
        session = s.session
        for day, seconds in s.by_day.items():
            row = row_of(session.player_id, day)
            row["sessions"].add(id(s))
            row["seconds"] += seconds
            row["stake_seconds"] += stakes(s) * seconds
            row["comp_points"] += rating.comp_points(int(seconds), stakes(s))
        if not report.covers(session.started_at):
            continue  # its money is the range's it began in
        row = row_of(session.player_id, s.gaming_day)
        row["sessions"].add(id(s))
        row["buy_in_cents"] += session.buy_in_cents
        row["rebuys"] += session.rebuys
        row["rebuy_cents"] += session.rebuy_cents
        row["time_charged_cents"] += session.time_charged_cents
    paid = None
    if not report.scoped:
        paid = REPORT_PARTS.cash_outs(
            sorted({p for p, _ in groups}), sorted({d for _, d in groups})
        )
    rows = []
    for (player, day), row in sorted(groups.items(), key=lambda item: (item[0][1], item[0][0])):
        rows.append(
            {
                **_player_columns(player, players),
                "gaming_day": day,
                "sessions": len(row["sessions"]),
                **_seconds_row(row["seconds"]),
                "average_stakes_cents": (
                    int(row["stake_seconds"] // row["seconds"]) if row["seconds"] else None
                ),
                "buy_in_cents": row["buy_in_cents"],
                "rebuys": row["rebuys"],
                "rebuy_cents": row["rebuy_cents"],
                "cash_out_cents": None if paid is None else paid.get((player, day), 0),
                "time_charged_cents": row["time_charged_cents"],
                "comp_points": row["comp_points"],
            }
        )
    return rows


def game_hours_report(report: ReportFilter) -> list[dict]:
    """Per game (variant, limit and stakes) and local hour of day: the players
    who played in it, on how many gaming days, their hours, and how many
    played on average in that hour of those days."""
    sessions = played(report)
    labels = selected.tables_by_id({s.session.table_id for s in sessions})
    groups: dict[tuple[str, int], dict] = {}
    for s in sessions:
        table = labels.get(s.session.table_id)
        if table is None:
            continue
        game = table_columns(table)["game"]
        for (day, hour), seconds in s.by_hour.items():
            if seconds <= 0:
                continue
            row = groups.setdefault((game, hour), {"players": set(), "days": set(), "seconds": 0.0})
            row["players"].add(s.session.player_id)
            row["days"].add(day)
            row["seconds"] += seconds
    return [
        {
            "game": game,
            "hour": f"{hour:02d}:00",
            "players": len(row["players"]),
            "days": len(row["days"]),
            "player_seconds": int(row["seconds"]),
            "player_hours": hours(row["seconds"]),
            "average_players": round(row["seconds"] / 3600 / len(row["days"]), 2),
        }
        for (game, hour), row in sorted(groups.items())
    ]
