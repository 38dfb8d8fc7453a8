"""What changed in a tournament between two reads of it, as news: a round started, a table's
game ended (and counted), the standings changed, the tournament finished. The records say it
all (each round, each result, the status), so any instance tells the same news from the store,
whichever instance made the change."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from api.tournaments.records import TournamentRecord, TournamentStatus


class NewsKind(enum.StrEnum):
    ROUND_STARTED = "round_started"
    GAME_ENDED = "game_ended"
    STANDINGS_CHANGED = "standings_changed"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class News:
    kind: NewsKind
    round: int | None = None
    game: str | None = None


def news_between(before: TournamentRecord | None, after: TournamentRecord) -> list[News]:
    """The news from `before` (None: nothing seen yet, so nothing to tell) to `after`, in the
    order they happened: rounds and their games' ends, then the standings, then the end."""
    if before is None or before.version == after.version:
        return []
    told: list[News] = []
    counted_before = {r.game for r in before.results()}
    for round_ in after.played:
        if round_.number > len(before.played):
            told.append(News(NewsKind.ROUND_STARTED, round_.number))
        for table in round_.tables:
            if table.result is not None and table.game not in counted_before:
                told.append(News(NewsKind.GAME_ENDED, round_.number, table.game))
    if any(news.kind is NewsKind.GAME_ENDED for news in told):
        told.append(News(NewsKind.STANDINGS_CHANGED))
    finished = TournamentStatus.FINISHED
    if after.status is finished and before.status is not finished:
        told.append(News(NewsKind.FINISHED))
    return told
