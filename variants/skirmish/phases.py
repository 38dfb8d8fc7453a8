"""A skirmish's round: every seat musters, in the round's order; then every seat fights its
battle turn, in the same order."""

from domain.flow import Phase, RoundPlan

MUSTER = Phase.declare("muster")  # spend recruit points on armies and artillery
BATTLE = Phase.declare("battle")  # assaults and marches, then the end of the turn

ROUND = RoundPlan((MUSTER, BATTLE))
