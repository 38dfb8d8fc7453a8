// What the client asks of each event: the fields of each kind (a type of the GameEventDetail
// union) that its sentence (events/common.ts, events/games.ts) and the replay (replay/fold.ts)
// read, typed by GraphQL Code Generator as EventFieldsFragment. A kind not listed here comes
// with its `__typename` alone. The server's cost counts the dearest of a union's alternatives
// (inline or named fragments alike), a page of 100 events a few thousand points. Where two
// kinds have a field of one name and two types, the rarer is aliased (GraphQL would refuse to
// merge them): ClockChanged's nullable `seat`, DeckShuffled's count of `cards`,
// FuturisikoUnitsHit's `by` (a weapon) and `dice` (faces), SpqrTriremesPlaced's nullable
// `province`, PiuStandingOrdersSet's `spy` (an order).

export const EVENT_FIELDS = /* GraphQL */ `
fragment EventFields on GameEvent {
seq
version
private
detail {
__typename
... on GameCreated { seedChosen }
... on PlayerJoined { name colour }
... on BotJoined { name colour }
... on PlayerLeft { seat }
... on ClockChanged { runningSeat: seat kind deadline }
... on PlayedByProxy { seat reason absences }
... on GameStarted { firstPlayer turnOrder }
... on ObjectiveAssigned { objective }
... on ObjectiveChanged { objective }
... on TerritoriesDealt { owners startingArmies }
... on ArmiesPlaced { seat territory armies }
... on DeckShuffled { shuffled: cards reshuffle }
... on TurnStarted { seat round reinforcements fromRegions { region armies } }
... on CardsTraded { seat cards armies territoryBonus }
... on AttackDeclared { seat source target dice defender }
... on DiceRolled { seat source target attackerDice defenderDice attackerLosses defenderLosses }
... on TerritoryConquered { seat target defender }
... on ArmiesMoved { seat source target armies strategic }
... on PlayerEliminated { seat by cardsTaken }
... on PlayerResigned { seat }
... on CardDrawn { seat handSize }
... on CardsReceived { cards }
... on TurnEnded { seat }
... on TimeExpired { round }
... on GameEnded { winner reason ranking { rank seat points } objectives }
... on SpqrProvinceClaimed { seat province armies }
... on SpqrNeutralPlaced { seat province colour armies }
... on SpqrVictoryPointsScored { seat empire provinces seas powerCentres total }
... on SpqrSetRewards { seat triremes powerCentres }
... on SpqrRewardsForfeited { seat triremes powerCentres }
... on SpqrPowerCentrePlaced { seat province }
... on SpqrTriremesPlaced { seat sea triremes fromProvince: province legionaries }
... on SpqrTriremeDisbanded { seat sea province legionaries }
... on SpqrFleetMoved { seat source target triremes }
... on SpqrNavalDiceRolled { seat sea opponent attackerDice defenderDice attackerLosses defenderLosses over }
... on SpqrSeaAttackLaunched { seat source target sea legionaries defender }
... on SpqrTriremesSunk { seat triremes }
... on PiuEmpiresDrawn { empires owners startingArmies }
... on PiuFortressPlaced { seat territory }
... on PiuTerritoryClaimed { seat territory }
... on PiuHiddenTerritoryWritten { player }
... on PiuHiddenTerritoryChosen { territory }
... on PiuHiddenArmiesRevealed { seat territory armies }
... on PiuRinforziPlayed { seat card step armies }
... on PiuSpyPlayed { seat card player }
... on PiuSpyBlocked { seat spy }
... on PiuSpyReport { player cards }
... on PiuSpiedCardDiscarded { seat player }
... on PiuCardLost { card by }
... on PiuTruceImposed { seat player }
... on PiuTrucesEnded { seat players }
... on PiuGeneralPlayed { seat source target }
... on PiuMarshalPlayed { seat territory }
... on PiuFlagshipSailed { seat source target armies }
... on PiuFlagshipUnloaded { seat territory armies }
... on PiuFortressFallen { seat by territory banners }
... on PiuStandingOrdersSet { marshal spyOrder: spy }
... on FuturisikoOrderDrawn { round colours order }
... on FuturisikoFlagPlaced { seat territory reason }
... on FuturisikoPhaseTurnStarted { seat round phase productionPoints }
... on FuturisikoCardDiscarded { card }
... on FuturisikoCardsDealt { seat discarded received handSize }
... on FuturisikoCardPlayed { seat cardType target against }
... on FuturisikoUnitsProduced { seat space unit count pointsLeft }
... on FuturisikoUnitsMoved { seat source target unit count sea }
... on FuturisikoUnitsHit { seat weapon: by target defender faces: dice tanksLost aircraftLost }
... on FuturisikoSubmarineSunk { seat sea owner }
... on FuturisikoBattleDeclared { seat territory defender cards }
... on FuturisikoBattleFought { seat territory defender attackerFirst volleys attackerTanksLost attackerAircraftLost defenderTanksLost defenderAircraftLost flagTaken attackerWon }
... on FuturisikoUnitsRemoved { seat space tanks aircraft submarines }
}
}
`;
