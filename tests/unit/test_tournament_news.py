"""A tournament's news between two reads of its record: nothing before the first read or
without a change; a round seated, each game counted, the standings then, the end last."""

from __future__ import annotations

import random
from dataclasses import replace

from api.tournaments.news import News, NewsKind, news_between
from api.tournaments.records import RoundRecord, TableRecord, TournamentRecord, TournamentStatus
from competition.tables import CLASSIC_TOURNAMENT
from tests.competition_support import ranked_result

PLAYERS = ("a", "b", "c", "d", "e", "f")


def tournament() -> TournamentRecord:
    return TournamentRecord(
        "t",
        "Coppa",
        "classic",
        1,
        CLASSIC_TOURNAMENT,
        60,
        None,
        0.0,
        "anyone",
        "org",
        b"seed",
        "commitment",
        0.0,
        entrants=PLAYERS,
    )


def seated(record: TournamentRecord) -> TournamentRecord:
    tables = (TableRecord("g1", PLAYERS[:3]), TableRecord("g2", PLAYERS[3:]))
    return record.next_version(
        status=TournamentStatus.PLAYING, played=(RoundRecord(1, tables, 0.0),)
    )


def counted(record: TournamentRecord, game: int, status: TournamentStatus) -> TournamentRecord:
    round_ = record.played[0]
    tables = list(round_.tables)
    table = tables[game]
    tables[game] = replace(
        table, result=ranked_result(table.game, table.players, random.Random(game))
    )
    return record.next_version(played=(replace(round_, tables=tuple(tables)),), status=status)


def test_nothing_is_news_before_the_first_read_or_without_a_change() -> None:
    record = tournament()
    assert news_between(None, seated(record)) == []
    assert news_between(record, record) == []
    assert news_between(record, record.next_version(entrants=PLAYERS[:5])) == []


def test_a_round_its_games_the_standings_and_the_end_in_order() -> None:
    start = tournament()
    first = seated(start)
    assert news_between(start, first) == [News(NewsKind.ROUND_STARTED, 1)]
    one = counted(first, 0, TournamentStatus.PLAYING)
    assert news_between(first, one) == [
        News(NewsKind.GAME_ENDED, 1, "g1"),
        News(NewsKind.STANDINGS_CHANGED),
    ]
    both = counted(one, 1, TournamentStatus.FINISHED)
    assert news_between(start, both) == [
        News(NewsKind.ROUND_STARTED, 1),
        News(NewsKind.GAME_ENDED, 1, "g1"),
        News(NewsKind.GAME_ENDED, 1, "g2"),
        News(NewsKind.STANDINGS_CHANGED),
        News(NewsKind.FINISHED),
    ]
