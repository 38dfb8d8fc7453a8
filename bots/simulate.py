"""Play whole games in-process, for `risiko simulate`, benchmarks and tests."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bots.policies import POLICIES
from domain.errors import RuleViolation
from domain.kernel import Kernel
from variants import get_variant


@dataclass(frozen=True, slots=True)
class SimulationReport:
    variant: str
    players: int
    policy: str
    games: int
    seconds: float
    actions: int
    rounds: int
    winners: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else float("inf")

    def to_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "players": self.players,
            "policy": self.policy,
            "games": self.games,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 2),
            "actions_per_second": round(self.actions_per_second, 1),
            "average_actions": round(self.actions / self.games, 2) if self.games else 0,
            "average_rounds": round(self.rounds / self.games, 2) if self.games else 0,
            "games_with_winner": self.winners,
        }


def game_seed(seed: int, index: int) -> bytes:
    return hashlib.sha256(f"risiko-simulate:{seed}:{index}".encode()).digest()


def play(game: Kernel, policy_name: str, rnd: random.Random, max_actions: int = 1_000_000) -> int:
    """Play `game` to its end with one policy for every seat; returns the actions applied."""
    policy = POLICIES[policy_name]
    apply = game.apply
    applied = 0
    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        progressed = False
        for action in policy(game, seat, rnd):
            try:
                apply(seat, action)
            except RuleViolation as violation:
                if not progressed:  # even its first proposal is refused: a bug in the policy
                    raise RuntimeError(f"{policy_name} proposed {action}: {violation}") from None
                break  # the batch went stale; ask the policy again
            progressed = True
            applied += 1
            if applied >= max_actions:
                raise RuntimeError(f"no end after {max_actions} actions")
            if game.is_over or game.seat_to_act != seat:
                break
    return applied


def simulate(
    variant: str = "classic",
    players: int = 4,
    games: int = 10,
    seed: int = 0,
    policy: str = "aggressive",
    round_limit: int = 200,
    options: Mapping[str, object] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> SimulationReport:
    """`options` (plain values, by name) replace the variant's defaults, after `round_limit`;
    `on_game(n)` is told after each game (n games played)."""
    if policy not in POLICIES:
        raise KeyError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    chosen = get_variant(variant)
    names = [f"Player {i + 1}" for i in range(players)]
    overrides: dict[str, object] = {"round_limit": round_limit, **(options or {})}
    chosen_options = chosen.options(overrides)  # else the variant's defaults
    actions = rounds = winners = 0
    started = time.perf_counter()
    for index in range(games):
        game = chosen.new_game(names, chosen_options, seed=game_seed(seed, index))
        actions += play(game, policy, random.Random(f"{seed}:{index}"))
        rounds += game.round
        winners += game.winner is not None
        if on_game is not None:
            on_game(index + 1)
    elapsed = time.perf_counter() - started
    return SimulationReport(variant, players, policy, games, elapsed, actions, rounds, winners)
