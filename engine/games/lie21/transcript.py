"""A replay as a readable, hand-by-hand transcript (``python -m engine replay FILE``)."""

from __future__ import annotations

from typing import Any

from engine.game import winner_of

__all__ = ["transcript"]

_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RULES = {
    "forfeit": "The Judge forfeited",
    "bust": "the other side went over 21",
    "closer": "closer to 21",
    "more_trumps": "more trumps",
    "higher_trump": "higher trump",
    "liar_wins_tie": "tie without trumps goes to The Liar",
}


def transcript(replay: dict[str, Any]) -> str:
    names = [seat["name"] for seat in replay["seats"]]
    lines = [
        f"{replay['game']} match, seed {replay['seed']}: "
        + " vs ".join(f"{name} (seat {seat})" for seat, name in enumerate(names))
    ]
    for game in replay["games"]:
        lines.extend(_game_lines(game, names))
    lines.append(_result_line(replay, names))
    return "\n".join(lines) + "\n"


def _game_lines(game: dict[str, Any], names: list[str]) -> list[str]:
    record = game["record"]
    trump = record["trump_suit"]
    trump_text = f"trump {_SUITS[trump]}" if trump else "no trump (a Joker is turned up)"
    lines = [
        "",
        f"Game {game['number']}: {names[game['dealer']]} deals; "
        f"turned up {record['trump_card']}, {trump_text}",
    ]
    for seat, cards in enumerate(record["deal"]):
        lines.append(f"  {names[seat]} is dealt {' '.join(cards)}")
    for hand in record["hands"]:
        liar, judge = names[hand["liar"]], names[hand["judge"]]
        shown = hand["liar_cards"][hand["face_up"]]
        hidden = [c for i, c in enumerate(hand["liar_cards"]) if i != hand["face_up"]]
        answer = "challenges with" if hand["challenge"] else "forfeits"
        lines.append(
            f"  Hand {hand['number']}: {liar} lies {shown} + [{' '.join(hidden)}]; "
            f"{judge} {answer} {' '.join(hand['judge_cards'])}"
        )
        lines.append(
            f"    {hand['liar_sum']} vs {hand['judge_sum']}: {names[hand['winner']]} wins "
            f"({_RULES.get(hand['rule'], hand['rule'])}); points "
            + "-".join(map(str, hand["points"]))
        )
        for draw in hand["draws"]:
            lines.append(f"    {names[draw['seat']]} draws {' '.join(draw['cards'])}")
    if game["end"] != "complete":
        lines.append("  (game stopped: a bot failed)")
        return lines
    scores = "-".join(map(str, game["scores"]))
    winner = winner_of(game["placings"])
    if winner is None:
        lines.append(f"  Scores {scores}: a tied game, no match points")
    else:
        awarded = max(game["awarded"])
        label = " - a sweep" if game["result"] == "sweep" else ""
        lines.append(
            f"  Scores {scores}: {names[winner]} wins the game "
            f"(+{awarded} match point{'s' if awarded != 1 else ''}{label})"
        )
    return lines


def _result_line(replay: dict[str, Any], names: list[str]) -> str:
    points = "-".join(map(str, replay["scores"]))
    for fault in replay["faults"]:
        return (
            f"\nResult: {names[fault['seat']]} loses by {fault['kind']} in game {fault['game']}"
            f" ({fault['detail']}); match points {points}"
        )
    winner = winner_of(replay["placings"])
    if winner is None:
        return f"\nResult: a drawn match ({replay['reason']}); match points {points}"
    how = {"sweep": "by a sweep", "game_cap": "on match points at the game cap"}.get(
        replay["reason"], "on match points"
    )
    return f"\nResult: {names[winner]} wins {how}; match points {points}"
