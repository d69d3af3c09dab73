"""A tournament's standings laid out for its page and its CSVs.

The standings themselves are the services' (stored at the finish, computed live before);
here they are laid out for a page: the crosstable as rows of cells with their labels, the
rounds and brackets with their byes; and written out as the standings and crosstable CSVs
with their notes.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC
from typing import Any

from arena.models import Tournament

__all__ = [
    "CROSSTABLE_COLUMNS",
    "CROSSTABLE_HOW_TO_READ",
    "CSV_COLUMNS",
    "OPTION_COLUMNS",
    "STANDINGS_COLUMNS",
    "crosstable_csv",
    "crosstable_rows",
    "csv_notes",
    "has_match_points",
    "standings_csv",
    "tournament_rounds",
]


# --- the tournament page -----------------------------------------------------------------------


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"


def _count(value: float) -> str:
    """1, 2, 1½: points as people write them."""
    whole, half = divmod(round(value * 2), 2)
    return f"{whole}\u00bd" if half and whole else "\u00bd" if half else str(whole)


def has_match_points(standings: Mapping[str, Any]) -> bool:
    """Whether the game keeps a score of its own in these standings (Lie 21's games, say):
    a game without one (Liars' placings are all there is) records none, so its pages leave
    the match points out rather than show zeros."""
    return any(row.get("match_points") for row in standings.get("rows", []))


def _cell_view(
    cell: Mapping[str, Any] | None,
    row: Mapping[str, Any],
    col: Mapping[str, Any],
    seats: int,
    *,
    games: bool = True,
) -> dict[str, Any] | None:
    """A crosstable cell ready for the template: its class, its lines and a full title.

    Two seats: matches won-drawn-lost by the row bot, then the game's match points of both
    over them. More seats: how often the row bot placed ahead of the column bot, level,
    behind. Then the score share with its 95% interval, whatever the table size.
    """
    if cell is None:
        return None
    played = cell["ahead"] + cell["level"] + cell["behind"]
    view: dict[str, Any] = {"matches": len(cell["matches"]), "result": cell.get("result")}
    if not played:
        view["state"] = "pending" if cell.get("open") else "failed"
        view["label"] = "\u2026" if cell.get("open") else "\u00d7"
        count = len(cell["matches"])
        view["title"] = (
            f"{row['name']} and {col['name']}: {count} match{'es' if count != 1 else ''}, "
            + ("not played yet" if cell.get("open") else "not played (failed)")
        )
        return view
    ahead, level, behind = cell["ahead"], cell["level"], cell["behind"]
    # The numbers as the API and the CSV have them, for scripts and tests reading the page.
    view["data"] = {
        "ahead": ahead,
        "level": level,
        "behind": behind,
        "points": cell["score"],
        "low": (cell["interval"] or ("", ""))[0],
        "high": (cell["interval"] or ("", ""))[1],
    }
    view["state"] = cell["result"]
    view["label"] = f"{ahead}\u2013{level}\u2013{behind}" if level else f"{ahead}\u2013{behind}"
    low, high = cell["interval"] or (None, None)
    view["share"] = _percent(cell["share"])
    view["interval"] = (
        f"{_percent(low)}\u2013{_percent(high)}" if low is not None and high is not None else ""
    )
    words = "won, drew, lost" if seats == 2 else "placed ahead, level, behind"
    title = (
        f"{row['name']} against {col['name']}: {played} match{'es' if played != 1 else ''} "
        f"played ({words}: {ahead}, {level}, {behind}), {_count(cell['score'])} of {played} "
        f"points, score {view['share']}, 95% interval {view['interval']}"
    )
    if "match_points" in cell and games:
        mine, theirs = cell["match_points"]
        view["games"] = f"{mine}\u2013{theirs}"
        view["data"]["games"] = f"{mine}-{theirs}"
        title += f"; match points {mine}\u2013{theirs}"
    if cell.get("open"):
        title += f"; {cell['open']} still to play"
    view["title"] = title
    return view


def crosstable_rows(standings: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The standings' crosstable as rows of cells in rank order, ready for a template.

    Each row is ``{"bot", "cells"}``; a cell is ``{"self": True}`` on the diagonal, None for
    bots that never shared a table, else :func:`_cell_view` with the column bot's id.
    """
    names = {row["bot"]["id"]: row["bot"] for row in standings.get("rows", [])}
    table = standings.get("crosstable") or {}
    order = [bot for bot in (table.get("bots") or list(names)) if bot in names]
    cells = table.get("cells") or {}
    seats = standings.get("seats") or 2
    games = has_match_points(standings)
    rows = []
    for row_id in order:
        line: list[dict[str, Any] | None] = []
        for col_id in order:
            if row_id == col_id:
                line.append({"self": True})
                continue
            found = cells.get(f"{row_id}-{col_id}")
            view = _cell_view(found, names[row_id], names[col_id], seats, games=games)
            if view is not None:
                view["opponent"] = col_id
            line.append(view)
        rows.append({"bot": names[row_id], "cells": line})
    return rows


#: The brackets of an elimination, in the order the page shows them.
BRACKETS = (
    ("winners", "Winners' bracket"),
    ("losers", "Losers' bracket"),
    ("round", "Rounds"),
    ("final", "Final"),
)


def tournament_rounds(standings: Mapping[str, Any]) -> dict[str, Any]:
    """The rounds of a Swiss or an elimination, with the bots' names, for a template.

    ``rounds`` lists every round's tables (each seat ``{"bot", "points", "won"}``) and byes;
    ``brackets`` splits them by bracket (eliminations): ``[{"name", "title", "rounds":
    [{"round", "tables", "byes"}]}]``, each bracket's rounds in order, its byes with them.
    """
    names = {row["bot"]["id"]: row["bot"] for row in standings.get("rows", [])}

    def bot(bot_id: int) -> Mapping[str, Any]:
        return names.get(bot_id, {"id": bot_id, "name": f"bot {bot_id}"})

    rounds = []
    for round_ in standings.get("rounds") or []:
        tables = [
            {
                **t,
                "seats": [
                    {
                        "bot": bot(b),
                        "points": points,
                        "won": b in (t.get("through") or [t.get("winner")]),
                    }
                    for b, points in zip(t["bots"], t["points"], strict=True)
                ],
            }
            for t in round_["tables"]
        ]
        brackets_of_byes = round_.get("bye_brackets") or [None] * len(round_["byes"])
        byes = [
            {"bot": bot(b), "bracket": bracket}
            for b, bracket in zip(round_["byes"], brackets_of_byes, strict=True)
        ]
        rounds.append({"round": round_["round"], "tables": tables, "byes": byes})
    brackets = []
    for name, title in BRACKETS:
        in_bracket = [
            {
                "round": r["round"],
                "tables": [t for t in r["tables"] if t.get("bracket") == name],
                "byes": [b for b in r["byes"] if b["bracket"] == name],
            }
            for r in rounds
        ]
        in_bracket = [r for r in in_bracket if r["tables"] or r["byes"]]
        if in_bracket:
            brackets.append({"name": name, "title": title, "rounds": in_bracket})
    return {"rounds": rounds, "brackets": brackets}


# --- the CSVs and their notes -----------------------------------------------------------------
#
# Two plain tables (a header line, then one row per line) so that every spreadsheet and CSV
# reader opens them as they are: nothing but the header precedes the rows and nothing follows
# them. What their columns mean, and how to read the intervals, is a third download, the
# notes (``csv_notes``), linked beside them; the standings CSV also repeats the tournament's
# options on every row, so that rows copied elsewhere keep saying what was played.

#: The standings CSV's columns, in order, with what each means (the notes list them).
STANDINGS_COLUMNS: dict[str, str] = {
    "rank": "1 = first; bots level on every tie-break share a rank",
    "bot_id": "the bot's id (/bots/<id>/)",
    "bot": "the bot's name",
    "owner": "its owner's username",
    "version": "the version number it entered with",
    "seed": "1 = best, by the entered version's rating at the start",
    "played": "matches it played",
    "points": "per match, 1 for each bot placed behind it and 1/2 for each placed level "
    "(two seats: a win 1, a draw 1/2), summed; byes included",
    "points_low": "the low end of the 95% interval of its points",
    "points_high": "the high end of the 95% interval of its points",
    "ahead_of_next": "the likelihood of superiority over the next row, 0-1 (the page shows "
    "it as a percentage); empty on the last row",
    "buchholz": "Swiss: its opponents' points, summed; empty in other formats",
    "eliminated_in": "eliminations: the round it went out in; empty for the champion, "
    "those still in and in other formats",
    "byes": "Swiss and eliminations: how many rounds it sat out",
    "first_places": "matches it placed first in, alone or shared",
    "wins": "matches it placed first in alone",
    "draws": "matches it placed first in, shared",
    "losses": "matches it placed anywhere else",
    "mean_place": "its mean place, 1 = first",
    "match_points": "the game's own match points, summed (Lie 21: games won)",
    "faults": "matches its own fault put it out of",
}
#: The tournament's options, repeated on every row of the standings CSV (``OPTIONS``).
OPTION_COLUMNS: dict[str, str] = {
    "tournament_id": "the tournament's id (/tournaments/<id>/)",
    "game": "the game played",
    "format": "round_robin, swiss, double_elimination or promotion",
    "table_size": "the seats at each table it was set to (fewer bots than that sit at one "
    "smaller table)",
    "rounds": "Swiss: the rounds it plays; empty in other formats",
    "matches_per_pairing": "the matches each pairing (each table of a round) plays, each a "
    "whole match of the game",
    "duplicate": "true when each deal was played once per seat rotation",
    "rated": "true when its matches counted for the ladder's ratings",
    "entry": "all, signup or top: who played",
    "entry_limit": "top: how many of the ladder were invited; empty otherwise",
    "signup_deadline": "signup: when sign-up closed (ISO 8601, UTC); empty otherwise",
    "move_timeout_s": "its own CPU seconds per move; empty: the arena's",
    "time_bank_s": "its own CPU time bank per match, in seconds; empty: the arena's",
}
#: The standings CSV's header, in order.
CSV_COLUMNS = (*STANDINGS_COLUMNS, *OPTION_COLUMNS)
#: The crosstable CSV's columns: one row per ordered pair of bots that shared a table, the
#: first bot's results against the second over every match they shared (as the page's cell
#: in the first bot's row and the second bot's column).
CROSSTABLE_COLUMNS: dict[str, str] = {
    "rank": "the bot's rank in the standings",
    "bot_id": "the bot's id",
    "bot": "the bot's name",
    "opponent_rank": "the opponent's rank in the standings",
    "opponent_id": "the opponent's id",
    "opponent": "the opponent's name",
    "matches": "the matches they shared, played or not",
    "played": "of them, played to a result",
    "open": "of them, still to play",
    "failed": "of them, not played (count for nobody)",
    "ahead": "played matches the bot placed ahead of the opponent (two seats: won)",
    "level": "played matches they placed level (two seats: drawn)",
    "behind": "played matches the bot placed behind the opponent (two seats: lost)",
    "points": "ahead + level / 2: the bot's points against the opponent",
    "share": "points / played: its score share, 0-1 (the page shows a percentage)",
    "share_low": "the low end of the score share's 95% interval, 0-1",
    "share_high": "the high end of the score share's 95% interval, 0-1",
    "match_points": "two seats: the bot's match points (the game's own score, Lie 21's "
    "games) over their played matches; empty at more seats",
    "opponent_match_points": "two seats: the opponent's match points over them",
    "result": "win (ahead more often than behind), draw or loss; empty before any is played",
    "match_ids": "the ids of their matches, space-separated (/matches/<id>/)",
}
#: How to read a crosstable cell's interval, in one sentence (the notes and the page).
CROSSTABLE_HOW_TO_READ = (
    "A cell's 95% interval: where the row bot's score share against the column bot would "
    "fall 19 times in 20 if they played those matches again; an interval clear of 50% means "
    "one of the two is really the stronger."
)


def _cell(value: Any) -> Any:
    """A value a spreadsheet shows as text: a name starting with = + - @ (or a tab or a
    carriage return) would otherwise be read as a formula (CSV injection), so it gets a
    leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _options_row(tournament: Tournament) -> tuple[Any, ...]:
    """The tournament's options, as the standings CSV repeats them on every row."""
    deadline = tournament.signup_deadline
    return (
        tournament.pk,
        tournament.game,
        tournament.format,
        tournament.table_size,
        tournament.rounds if tournament.format == Tournament.Format.SWISS else None,
        tournament.matches_per_pairing,
        _flag(tournament.duplicate),
        _flag(tournament.rated),
        tournament.entry,
        tournament.entry_limit,
        deadline.astimezone(UTC).isoformat() if deadline else None,
        tournament.move_timeout_s,
        tournament.time_bank_s,
    )


def _csv_row(row: Mapping[str, Any]) -> Sequence[Any]:
    byes = row.get("byes")
    interval = row.get("points_interval") or (None, None)
    return (
        row["rank"],
        row["bot"]["id"],
        row["bot"]["name"],
        row["bot"]["owner"],
        row["version"],
        row.get("seed"),
        row["played"],
        row["points"],
        interval[0],
        interval[1],
        row.get("superiority_over_next"),
        row.get("buchholz"),
        row.get("eliminated_in"),
        len(byes) if byes is not None else None,
        row["first_places"],
        row["wins"],
        row["draws"],
        row["losses"],
        row["mean_place"],
        row["match_points"],
        row["faults"],
    )


def _writer(out: io.StringIO) -> Any:
    return csv.writer(out, lineterminator="\r\n")


def standings_csv(standings: Mapping[str, Any], *, tournament: Tournament) -> str:
    """The standings (``tournament_standings``) as CSV: one row per bot in rank order, the
    numbers as the API has them, then the tournament's options (``CSV_COLUMNS``)."""
    out = io.StringIO()
    writer = _writer(out)
    writer.writerow(CSV_COLUMNS)
    options = _options_row(tournament)
    rows: Iterable[Mapping[str, Any]] = standings.get("rows", [])
    for row in rows:
        writer.writerow(_cell(value) for value in (*_csv_row(row), *options))
    return out.getvalue()


def crosstable_csv(standings: Mapping[str, Any]) -> str:
    """The crosstable as CSV (``CROSSTABLE_COLUMNS``): a row per ordered pair of bots that
    shared a table, the row bot and then the column bot in rank order, each summing every
    match of the pair as the API's cell does."""
    out = io.StringIO()
    writer = _writer(out)
    writer.writerow(CROSSTABLE_COLUMNS)
    rows = standings.get("rows", [])
    ranked = {row["bot"]["id"]: row for row in rows}
    table = standings.get("crosstable") or {}
    order = [bot for bot in (table.get("bots") or list(ranked)) if bot in ranked]
    cells = table.get("cells") or {}
    for bot in order:
        for opponent in order:
            cell = cells.get(f"{bot}-{opponent}") if bot != opponent else None
            if cell is None:
                continue
            mine, theirs = ranked[bot], ranked[opponent]
            low, high = cell.get("interval") or (None, None)
            points = cell.get("match_points") or (None, None)
            writer.writerow(
                _cell(value)
                for value in (
                    mine["rank"],
                    bot,
                    mine["bot"]["name"],
                    theirs["rank"],
                    opponent,
                    theirs["bot"]["name"],
                    len(cell["matches"]),
                    cell["ahead"] + cell["level"] + cell["behind"],
                    cell["open"],
                    cell["failed"],
                    cell["ahead"],
                    cell["level"],
                    cell["behind"],
                    cell["score"],
                    cell.get("share"),
                    low,
                    high,
                    points[0],
                    points[1],
                    cell.get("result"),
                    " ".join(str(match) for match in cell["matches"]),
                )
            )
    return out.getvalue()


def csv_notes(tournament: Tournament, *, how_to_read: str) -> str:
    """What the tournament's CSVs hold and how to read them, as plain text."""
    lines = [
        f"{tournament.name}: tournament {tournament.pk}, {tournament.game}, "
        f"{tournament.get_format_display()}, {tournament.matches_per_pairing} "
        f"match{'es' if tournament.matches_per_pairing != 1 else ''} per pairing",
        "",
        "How to read the standings: " + how_to_read,
        "How to read the crosstable: " + CROSSTABLE_HOW_TO_READ,
        "",
        f"tournament-{tournament.pk}-standings.csv: one row per bot, in rank order.",
        *(f"  {name}: {meaning}" for name, meaning in STANDINGS_COLUMNS.items()),
        "  ... then the tournament's options, the same on every row:",
        *(f"  {name}: {meaning}" for name, meaning in OPTION_COLUMNS.items()),
        "",
        f"tournament-{tournament.pk}-crosstable.csv: one row per ordered pair of bots that "
        "shared a table, the bot's results against the opponent over all their matches.",
        *(f"  {name}: {meaning}" for name, meaning in CROSSTABLE_COLUMNS.items()),
        "",
        "Both files: UTF-8, comma-separated, a header line first; an empty cell is no value. "
        "A name starting with = + - or @ is written with a leading ' so that a spreadsheet "
        "shows it rather than running it as a formula.",
    ]
    return "\n".join(lines) + "\n"
