"""Leaving a game (the API's leaveGame): the armies stay, the turns are skipped."""

from __future__ import annotations

import pytest

from domain import actions as a
from domain import events as e
from domain.errors import RuleViolation
from domain.flow import Phase
from domain.risiko.defence import DefenderDice
from tests.support import arrange, finish_setup, new_game
from variants.classic.options import ClassicOptions


def test_a_resigned_player_keeps_the_board_and_loses_the_turns() -> None:
    game = arrange(new_game(4), {"alaska": 0, "kamchatka": 1, "siam": 2}, others=3, current=0)
    events = game.apply(1, a.Resign())
    assert events == [e.PlayerResigned(1)]
    assert game.owner[game.board.index["kamchatka"]] == 1
    game.apply(0, a.EndTurn())
    assert game.current == 2  # seat 1 is skipped
    assert game.legal_actions(1) == []


def test_the_current_player_resigning_ends_the_turn_without_a_card() -> None:
    game = arrange(new_game(3), {"alaska": 0, "kamchatka": 1}, others=2, current=0)
    game.conquered_this_turn = True
    events = game.apply(0, a.Resign())
    assert not any(isinstance(event, e.CardDrawn) for event in events)
    assert isinstance(events[-1], e.TurnStarted)
    assert game.current == 1


def test_a_pending_occupation_gets_the_mandatory_armies() -> None:
    game = arrange(new_game(3), {"alaska": 0, "kamchatka": 1}, {"alaska": 5}, others=2)
    alaska, kamchatka = game.board.index["alaska"], game.board.index["kamchatka"]
    game.owner[kamchatka] = 0
    game.armies[kamchatka] = 0
    game.territory_count = [game.owner.count(s) for s in range(3)]
    game.pending_conquest = (alaska, kamchatka, 2, 4)
    game.phase = Phase.OCCUPY
    game.apply(0, a.Resign())
    assert game.armies[kamchatka] == 2
    assert game.armies[alaska] == 3


def test_a_resigned_defender_rolls_the_maximum_at_once() -> None:
    options = ClassicOptions(defender_dice=DefenderDice.DECLARE)
    game = arrange(
        new_game(3, options), {"alaska": 0, "kamchatka": 1}, {"alaska": 5, "kamchatka": 3}
    )
    game.apply(0, a.Attack("alaska", "kamchatka", 3))
    assert game.phase is Phase.DEFEND
    events = game.apply(1, a.Resign())
    rolled = [event for event in events if isinstance(event, e.DiceRolled)]
    assert len(rolled) == 1
    assert len(rolled[0].defender_dice) == 3
    assert game.phase in {Phase.ATTACK, Phase.OCCUPY}


def test_attacks_on_a_resigned_player_do_not_wait_for_an_answer() -> None:
    options = ClassicOptions(defender_dice=DefenderDice.DECLARE)
    game = arrange(
        new_game(3, options), {"alaska": 0, "kamchatka": 1}, {"alaska": 9, "kamchatka": 9}
    )
    game.apply(1, a.Resign())
    events = game.apply(0, a.Attack("alaska", "kamchatka", 3))
    assert not any(isinstance(event, e.AttackDeclared) for event in events)
    assert any(isinstance(event, e.DiceRolled) for event in events)


def test_the_last_active_player_wins() -> None:
    game = arrange(new_game(3), {"alaska": 0, "kamchatka": 1}, others=2, current=0)
    game.apply(1, a.Resign())
    events = game.apply(2, a.Resign())
    assert game.is_over
    assert (game.winner, game.end_reason) == (0, "last_player")
    ended = events[-1]
    assert isinstance(ended, e.GameEnded)
    assert ended.ranking[0][1] == 0
    assert {seat for _, seat, _ in ended.ranking[1:]} == {1, 2}


def test_resigned_players_rank_last() -> None:
    options = ClassicOptions(round_limit=5)
    owners = {"alaska": 0, "siam": 2, "peru": 3}
    game = arrange(new_game(4, options), owners, others=1, current=3)  # seat 1 holds the most
    game.apply(1, a.Resign())
    game.apply(3, a.EndTurn())  # the last of the round: the round limit ends the game
    assert game.is_over
    assert game.end_reason == "round_limit"
    assert [seat for _, seat, _ in game.ranking][-1] == 1
    assert game.ranking[-1][2] == game.territory_count[1] > game.ranking[0][2]


def test_resigning_in_the_setup_forfeits_the_armies_left() -> None:
    game = new_game(3)
    seat = game.current
    game.apply(seat, a.Resign())
    assert game.setup_remaining[seat] == 0
    assert game.current != seat
    finish_setup(game)
    assert game.phase is Phase.REINFORCE
    assert game.current != seat


@pytest.mark.parametrize("twice", [True, False])
def test_only_players_still_in_the_game_can_resign(twice: bool) -> None:
    game = arrange(new_game(3), {"alaska": 0, "kamchatka": 1}, others=2, current=0)
    if twice:
        game.apply(1, a.Resign())
    with pytest.raises(RuleViolation) as raised:
        game.apply(1 if twice else None, a.Resign())
    assert raised.value.code == ("WRONG_PHASE" if twice else "NOT_YOUR_TURN")
