"""The arena's results: one game's (GameResult), and the report of them all, by bot and by
game (`report`), as data and as a table for people (`format_report`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from risiko_client.bots import PlayStats


@dataclass(frozen=True)
class GameResult:
    """One arena game: which bot sat where, how it ended, what each seat did."""

    number: int
    seed: str
    seats: list[str]  # bot names, by seat
    winner: int | None
    reason: str
    firsts: list[int]  # seats ranked first (the winner, or the best at the round limit)
    points: list[int]  # victory points by seat at the end (Player.victoryPoints; else zeros)
    round: int
    stats: list[PlayStats]
    seconds: float

    @property
    def actions(self) -> int:
        return sum(s.actions for s in self.stats)


def report(results: list[GameResult], seconds: float) -> dict[str, Any]:
    """Per bot: seats played, wins (objective, victory points or last player), first places
    (the winner, or the best ranked at the round limit, ties shared), victory points scored
    (S.P.Q.RisiKo!; `average_points` a game), refused moves by code. Per game: the
    seed, the seats, how it ended. Overall: average rounds and actions, and actions and games per
    second of the `seconds` the games took (the server's start excluded)."""
    per_bot: dict[str, dict[str, Any]] = {}
    for result in results:
        for seat, name in enumerate(result.seats):
            entry = per_bot.setdefault(
                name,
                {
                    "seats": 0,
                    "wins": 0,
                    "firsts": 0,
                    "points": 0,
                    "actions": 0,
                    "refused": Counter(),
                },
            )
            entry["seats"] += 1
            entry["wins"] += result.winner == seat
            entry["firsts"] += seat in result.firsts
            entry["points"] += result.points[seat]
            entry["actions"] += result.stats[seat].actions
            entry["refused"].update(error.code for error in result.stats[seat].refused)
    for entry in per_bot.values():
        entry["win_rate"] = round(entry["wins"] / entry["seats"], 3)
        entry["average_points"] = round(entry["points"] / entry["seats"], 2)
        entry["refused"] = dict(entry["refused"])
    actions = sum(r.actions for r in results)
    return {
        "games": len(results),
        "per_bot": per_bot,
        "reasons": dict(Counter(r.reason for r in results)),
        "average_rounds": round(sum(r.round for r in results) / len(results), 2),
        "average_actions": round(actions / len(results), 1),
        "actions_per_second": round(actions / seconds, 1) if seconds else 0.0,
        "games_per_second": round(len(results) / seconds, 3) if seconds else 0.0,
        "seconds": round(seconds, 2),
        "results": [
            {
                "game": r.number,
                "seed": r.seed,
                "seats": r.seats,
                "winner": r.winner,
                "winner_bot": None if r.winner is None else r.seats[r.winner],
                "firsts": r.firsts,
                "points": r.points,
                "reason": r.reason,
                "round": r.round,
                "actions": r.actions,
                "seconds": round(r.seconds, 2),
            }
            for r in results
        ],
    }


def format_report(data: dict[str, Any]) -> str:
    """The report as a table for people; with victory points (S.P.Q.RisiKo!), a column of
    the points each bot scored on average."""
    bots = ",".join(data["bots"])
    mode = ", duplicate" if data["duplicate"] else ""
    chosen = data.get("options") or {}
    goal = "".join(f", {name} {value}" for name, value in chosen.items())
    scored = any(e.get("points") for e in data["per_bot"].values())
    points = f" {'VP/game':>8}" if scored else ""
    lines = [
        f"{data['games']} games of {data['variant']}, bots {bots}, seed {data['seed']}{mode}, "
        f"round limit {data['round_limit']}{goal}",
        "",
        f"{'bot':<10} {'seats':>6} {'wins':>6} {'win %':>6} {'firsts':>7}{points} {'actions':>8}"
        "  refused",
    ]
    for name, entry in data["per_bot"].items():
        refused = ", ".join(f"{code} {n}" for code, n in entry["refused"].items()) or "-"
        average = f" {entry['average_points']:>8.2f}" if scored else ""
        lines.append(
            f"{name:<10} {entry['seats']:>6} {entry['wins']:>6} {100 * entry['win_rate']:>6.1f}"
            f" {entry['firsts']:>7}{average} {entry['actions']:>8}  {refused}"
        )
    reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(data["reasons"].items()))
    at_once = f" ({data['parallel']} games at a time)" if data["parallel"] > 1 else ""
    lines += [
        "",
        f"ended by: {reasons}",
        f"average {data['average_rounds']} rounds, {data['average_actions']} actions a game; "
        f"{data['actions_per_second']} actions/s{at_once}; {data['games_per_second']} games/s; "
        f"{data['seconds']} s",
    ]
    return "\n".join(lines)
