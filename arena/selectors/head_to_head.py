"""A bot's head-to-head record: how it placed against each opponent it shared a table with.

Counted by the database in one query over a capped number of the bot's newest finished
matches (:data:`HEAD_TO_HEAD_MATCHES`), so the bot's page costs the same after a year of
ladder play; never counted in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from arena.models import Bot, MatchSeat

__all__ = [
    "HEAD_TO_HEAD_MATCHES",
    "HeadToHead",
    "HeadToHeadTable",
    "Opponent",
    "bot_head_to_head",
    "bot_head_to_head_table",
]


@dataclass(frozen=True, slots=True)
class Opponent:
    """A bot as a head-to-head row names it: its id, name and owner's name."""

    pk: int
    name: str
    owner_name: str


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: Opponent
    played: int
    wins: int  # matches the bot placed ahead of the opponent
    draws: int  # level with it
    losses: int  # behind it
    match_points_for: int
    match_points_against: int


def bot_head_to_head(*, bot: Bot) -> list[HeadToHead]:
    """The bot's record against each opponent it shared a table with, most played first."""
    return bot_head_to_head_table(bot=bot).rows


@dataclass(frozen=True)
class HeadToHeadTable:
    rows: list[HeadToHead]  # the opponents shown, most played first
    opponents: int  # every opponent it met in the matches read
    matches: int  # the finished matches read (with an opponent): at most the cap
    capped: bool  # it has finished more than HEAD_TO_HEAD_MATCHES: the newest are read


#: The head-to-head table is counted over at most this many of the bot's newest finished
#: matches: a ladder bot plays thousands, and its page must cost the same after a year.
HEAD_TO_HEAD_MATCHES = 1000

#: One row per opponent shown (the most played first), with its name and its owner's, how
#: many opponents there were in all and how many finished matches were read: the bot's seat
#: in each of its newest finished matches (its first seat there, should it hold two),
#: against every other placed seat of that match. Plain SQL, one round trip: the bot's
#: seats are read by the ``seat_bot_recent`` index (newest first, up to the cap; it holds
#: their seat, placing and score, so no table row is read for them), each joined to its
#: match's other seats by the ``seat_opponents`` index (match id, with bot, placing and
#: score). A placed seat is a finished match's: placings are written only as a match is
#: recorded done, in the same transaction (``arena.services.matches.recording.record``),
#: so the matches themselves are not read.
_HEAD_TO_HEAD_SQL = """
WITH newest AS (
    SELECT s.match_id, s.placing, s.score
    FROM {seat} s
    WHERE s.bot_id = %(bot)s AND s.placing IS NOT NULL
        AND NOT EXISTS (
            SELECT 1 FROM {seat} t
            WHERE t.match_id = s.match_id AND t.bot_id = s.bot_id AND t.seat < s.seat
        )
    ORDER BY s.match_id DESC
    LIMIT %(limit)s + 1
), mine AS (
    SELECT * FROM newest ORDER BY match_id DESC LIMIT %(limit)s
), records AS (
    SELECT o.bot_id, count(*) AS played,
        sum(CASE WHEN mine.placing < o.placing THEN 1 ELSE 0 END) AS wins,
        sum(CASE WHEN mine.placing = o.placing THEN 1 ELSE 0 END) AS draws,
        sum(CASE WHEN mine.placing > o.placing THEN 1 ELSE 0 END) AS losses,
        coalesce(sum(mine.score), 0) AS points_for,
        coalesce(sum(o.score), 0) AS points_against
    FROM mine JOIN {seat} o ON o.match_id = mine.match_id
    WHERE o.bot_id <> %(bot)s AND o.placing IS NOT NULL
    GROUP BY o.bot_id
), shown AS (
    SELECT records.*, count(*) OVER () AS met
    FROM records
    ORDER BY played DESC, bot_id
    LIMIT %(shown)s
)
SELECT shown.bot_id, shown.played, shown.wins, shown.draws, shown.losses,
    shown.points_for, shown.points_against, shown.met,
    (SELECT count(*) FROM newest) AS finished, b.name, u.username
FROM shown
    JOIN {bot} b ON b.id = shown.bot_id
    JOIN {user} u ON u.id = b.owner_id
ORDER BY shown.played DESC, shown.bot_id
"""

#: "Every opponent" (a LIMIT every database takes).
_ALL = 2**31 - 1


def bot_head_to_head_table(*, bot: Bot, limit: int | None = None) -> HeadToHeadTable:
    """The bot's head-to-head record, against its ``limit`` most played opponents (all by
    default), and how many opponents it met in all, over its newest
    :data:`HEAD_TO_HEAD_MATCHES` finished matches.

    In a match of any size, the bot "won" against an opponent it placed ahead of. One
    query: the records grouped by opponent, with the shown opponents' names.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"show at least one opponent, not {limit}")
    quote = connection.ops.quote_name
    query = _HEAD_TO_HEAD_SQL.format(
        seat=quote(MatchSeat._meta.db_table),
        bot=quote(Bot._meta.db_table),
        user=quote(Bot._meta.get_field("owner").related_model._meta.db_table),
    )
    params = {
        "bot": bot.pk,
        "limit": HEAD_TO_HEAD_MATCHES,
        "shown": _ALL if limit is None else limit,
    }
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        records = cursor.fetchall()
    # The newest finished matches, one past the cap (to know whether there are more).
    met, finished = (records[0][7], records[0][8]) if records else (0, 0)
    rows = [
        HeadToHead(
            opponent=Opponent(pk=record[0], name=record[9], owner_name=record[10]),
            played=record[1],
            wins=record[2],
            draws=record[3],
            losses=record[4],
            match_points_for=record[5],
            match_points_against=record[6],
        )
        for record in records
    ]
    return HeadToHeadTable(
        rows=rows,
        opponents=met,
        matches=min(finished, HEAD_TO_HEAD_MATCHES),
        capped=finished > HEAD_TO_HEAD_MATCHES,
    )
