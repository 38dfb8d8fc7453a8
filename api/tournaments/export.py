"""A tournament's export for an organiser's sheet or a federation's ranking: the standings and
every game's result, as JSON or as CSV (one file for each). Players are shown by their account
names; each game by its id, whose whole history the API serves (`game(id) { actionLog }`).
The seed stays secret while the tournament plays: the export holds its commitment, and the
seed itself once the tournament is finished (to check the rounds)."""

from __future__ import annotations

import csv
import enum
import io
import json
from collections.abc import Mapping
from typing import Any

from api.tournaments.records import TournamentRecord

STANDING_COLUMNS = (
    "place",
    "player",
    "games",
    "points",
    "objectives",
    "opponents_points",
    "best_game",
    "lot",
)
GAME_COLUMNS = (
    "round",
    "table",
    "game",
    "seat",
    "player",
    "points",
    "rank",
    "objective",
    "presence",
    "score",
)


class ExportFormat(enum.Enum):
    JSON = "json"
    STANDINGS_CSV = "standings_csv"
    GAMES_CSV = "games_csv"


def export(record: TournamentRecord, names: Mapping[str, str], shape: ExportFormat) -> str:
    """The export of `record` in `shape`, players named by `names` (account id to name)."""
    standings = _standings(record, names)
    games = _games(record, names)
    if shape is ExportFormat.STANDINGS_CSV:
        return _csv(STANDING_COLUMNS, standings)
    if shape is ExportFormat.GAMES_CSV:
        return _csv(GAME_COLUMNS, games)
    summary = {
        "id": record.id,
        "name": record.name,
        "variant": record.variant,
        "rounds": record.rounds,
        "status": record.status.value,
        "commitment": record.commitment,
        **({} if record.revealed_seed is None else {"seed": record.revealed_seed}),
        "standings": standings,
        "games": games,
    }
    return json.dumps(summary, ensure_ascii=False, indent=1)


def _standings(record: TournamentRecord, names: Mapping[str, str]) -> list[dict[str, Any]]:
    return [
        {
            "place": row.place,
            "player": names.get(row.player, row.player),
            "games": row.games,
            "points": row.points,
            "objectives": row.objectives,
            "opponents_points": row.opponents_points,
            "best_game": row.best_game,
            "lot": row.lot,
        }
        for row in record.standings().rows()
    ]


def _games(record: TournamentRecord, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """One line per player and game counted, in round, table and seat order."""
    lines = []
    for round_ in record.played:
        for number, table in enumerate(round_.tables, start=1):
            if table.result is None:
                continue
            by_player = {line.player: line for line in table.result.players}
            for seat, player in enumerate(table.players):
                line = by_player[player]
                lines.append(
                    {
                        "round": round_.number,
                        "table": number,
                        "game": table.game,
                        "seat": seat,
                        "player": names.get(player, player),
                        "points": line.points,
                        "rank": line.rank,
                        "objective": line.objective,
                        "presence": line.presence.value,
                        "score": line.score,
                    }
                )
    return lines


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
