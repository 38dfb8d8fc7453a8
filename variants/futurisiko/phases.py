"""A FutuRisiKo! round (seed 004): the order of play is drawn (no seat acts), then three
phases, each played by every seat in the round's order before the next begins: the cards
(not in the first round), production, and operations (movement, then combat)."""

from domain.flow import Phase, RoundPlan

CARDS = Phase.declare("cards")  # discard one card or none, then receive the hand's due
PRODUCTION = Phase.declare("production")  # spend production points; production cards
MOVEMENT = Phase.declare("movement")  # operations, first part: every unit may move once
COMBAT = Phase.declare("combat")  # operations, second part: naval attacks and battles

ROUND = RoundPlan((CARDS, PRODUCTION, MOVEMENT))  # COMBAT follows MOVEMENT in the same turn
