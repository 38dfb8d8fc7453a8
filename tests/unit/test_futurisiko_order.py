"""FutuRisiKo!'s order of play (seed 004): "il colore estratto" decides who plays first, the
others clockwise. From rules revision 2 a drawn card showing two playing colours gives one of
them by lot, so every seated colour is as likely to play first, for 3 to 6 players; revision 1
(the games created before) took the first corner, which the card data makes the earlier colour
of the table. docs/futurisiko.md, "The order of play"."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from domain.rng import DerivedRandom
from variants.futurisiko import FUTURISIKO as VARIANT
from variants.futurisiko.game import FutuGame
from variants.futurisiko.ruleset import FutuRuleset


def futurisiko_rules() -> FutuRuleset:
    rules = VARIANT.ruleset
    assert isinstance(rules, FutuRuleset)
    return rules


RULES = futurisiko_rules()
COLOURS = [colour.id for colour in RULES.colours]
TABLES = range(RULES.min_players, RULES.max_players + 1)


def game(players: int, seed: bytes, revision: int) -> FutuGame:
    created = VARIANT.new_game(
        [f"P{n}" for n in range(players)], seed=seed, rules_revision=revision
    )
    assert isinstance(created, FutuGame)
    return created


def chance_to_open(seated: set[str], revision: int) -> dict[str, Fraction]:
    """Each seated colour's exact chance to be drawn from the whole deck: of a shuffled deck,
    the first card showing a seated colour is any of those cards alike; it gives its one seated
    colour, or of two, the first corner's (revision 1) or either by lot (revision 2)."""
    showing = [c.colours for c in RULES.deck if set(c.colours) & seated]
    chance = dict.fromkeys(sorted(seated), Fraction(0))
    for colours in showing:
        playing = [colour for colour in colours if colour in seated]
        if revision == 1:
            playing = playing[:1]
        for colour in playing:
            chance[colour] += Fraction(1, len(showing) * len(playing))
    return chance


def test_each_pair_of_colours_is_on_as_many_cards() -> None:
    """What the fair draw rests on: no pair of colours is printed more often than another."""
    pairs = Counter(frozenset(card.colours) for card in RULES.deck)
    assert len(pairs) == 15
    assert set(pairs.values()) == {4}


@pytest.mark.parametrize("players", TABLES)
def test_from_a_whole_deck_every_seated_colour_is_exactly_as_likely_to_open(players: int) -> None:
    for seated in map(set, combinations(COLOURS, players)):
        assert set(chance_to_open(seated, 2).values()) == {Fraction(1, players)}
        assert len(set(chance_to_open(seated, 1).values())) > 1  # the first corner was not
    assert chance_to_open(set(COLOURS), 1)["nero"] == 0


@pytest.mark.parametrize("revision", [1, 2])
def test_a_card_showing_two_playing_colours_gives_its_first_corner_or_either_by_lot(
    revision: int,
) -> None:
    table = game(3, b"order", revision)  # rosso, verde, giallo
    opened: Counter[int] = Counter()
    for seq in range(64):
        table.draw_pile = ["arma_segreta_01"]  # rosso and verde: the only card to turn
        turned, order = table._draw_order(DerivedRandom(b"lot", seq), [0, 1, 2])
        assert turned == ("rosso", "verde")
        assert order == [order[0], *((order[0] + step) % 3 for step in (1, 2))]  # clockwise
        opened[order[0]] += 1
    assert set(opened) == ({0} if revision == 1 else {0, 1})
    for seq in range(16):
        table.draw_pile = ["arma_segreta_05"]  # rosso and nero: nero does not play
        assert table._draw_order(DerivedRandom(b"lot", seq), [0, 1, 2])[1][0] == 0


def test_a_new_game_draws_by_lot_and_a_saved_one_by_the_revision_it_recorded() -> None:
    assert VARIANT.rules_revision == 2
    assert VARIANT.new_game(["A", "B", "C"], seed=b"s").rules_revision == 2
    firsts = {
        revision: [game(6, b"seat-%d" % n, revision).current for n in range(200)]
        for revision in (1, 2)
    }
    assert 5 not in firsts[1]  # nero, at six, never opened by the first corner
    assert 5 in firsts[2]
    again = [game(6, b"seat-%d" % n, 1).current for n in range(200)]
    assert again == firsts[1]


def chi_square_tail(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X ~ chi-square with `dof` degrees of freedom (the regularized
    upper incomplete gamma Q(dof/2, statistic/2) in closed form, for whole and half shapes)."""
    half = statistic / 2
    if dof % 2 == 0:
        terms = (half**j / math.factorial(j) for j in range(dof // 2))
        return math.exp(-half) * math.fsum(terms)
    terms = (half ** (j - 0.5) / math.gamma(j + 0.5) for j in range(1, (dof - 1) // 2 + 1))
    return math.erfc(math.sqrt(half)) + math.exp(-half) * math.fsum(terms)


def test_the_chi_square_tail_matches_known_critical_values() -> None:
    # chi-square critical values at p = 0.05 and p = 1e-6 (tables, e.g. NIST/SEMATECH)
    for statistic, dof, tail in (
        (5.991, 2, 0.05),
        (7.815, 3, 0.05),
        (9.488, 4, 0.05),
        (11.070, 5, 0.05),
        (27.631, 2, 1e-6),
        (35.888, 5, 1e-6),
    ):
        assert chi_square_tail(statistic, dof) == pytest.approx(tail, rel=1e-3)


GAMES_PER_TABLE = 4000  # with the biased half: about 3 s a table size here
FALSE_ALARM = 1e-6  # a fair draw fails this test once in a million seed sets


def chi_square(firsts: list[int], players: int) -> float:
    expected = len(firsts) / players
    counts = Counter(firsts)
    return sum((counts[seat] - expected) ** 2 / expected for seat in range(players))


@pytest.mark.slow
@pytest.mark.parametrize("players", TABLES)
def test_every_seated_colour_is_as_likely_to_open_over_many_seeds(players: int) -> None:
    """Through the engine: the first player of GAMES_PER_TABLE games of `players`, one seed
    each. A fair draw gives a chi-square beyond the p = 1e-6 point with probability 1e-6, so a
    false failure is that unlikely. The first corner's draw (revision 1) fails it on half as
    many games: the test can fail."""
    firsts = [game(players, b"order-%d" % n, 2).current for n in range(GAMES_PER_TABLE)]
    assert chi_square_tail(chi_square(firsts, players), players - 1) > FALSE_ALARM
    biased = [game(players, b"order-%d" % n, 1).current for n in range(GAMES_PER_TABLE // 2)]
    assert chi_square_tail(chi_square(biased, players), players - 1) < FALSE_ALARM
