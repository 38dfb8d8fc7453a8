// The sentences of the events of S.P.Q.RisiKo!, RisiKo! Più and FutuRisiKo!.

import { list, t, tOr } from "../i18n";
import type { Names } from "../names";
import { roll, type DiceRow, type Renderers } from "./sentence";
import type { DetailOf } from "./types";

export const SPQR = {
  SpqrProvinceClaimed: (d, n) => ({ text: t("event.SpqrProvinceClaimed", { player: n.player(d.seat), province: n.space(d.province), armies: d.armies }) }),
  SpqrNeutralPlaced: (d, n) => ({
    text: t(d.seat < 0 ? "event.SpqrNeutralPlaced.setup" : "event.SpqrNeutralPlaced", {
      player: n.player(d.seat),
      province: n.space(d.province),
      colour: n.colour(d.colour),
      armies: d.armies,
    }),
  }),
  SpqrVictoryPointsScored: (d, n) => ({
    text: t("event.SpqrVictoryPointsScored", { player: n.player(d.seat), empire: d.empire, provinces: d.provinces, seas: d.seas, centres: d.powerCentres, total: d.total }),
    tone: "turn",
  }),
  SpqrSetRewards: (d, n) => ({ text: t("event.SpqrSetRewards", { player: n.player(d.seat), triremes: d.triremes, centres: d.powerCentres }) }),
  SpqrRewardsForfeited: (d, n) => ({ text: t("event.SpqrRewardsForfeited", { player: n.player(d.seat), triremes: d.triremes, centres: d.powerCentres }) }),
  SpqrPowerCentrePlaced: (d, n) => ({ text: t("event.SpqrPowerCentrePlaced", { player: n.player(d.seat), province: n.space(d.province) }) }),
  SpqrTriremesPlaced: (d, n) =>
    d.fromProvince === null
      ? { text: t("event.SpqrTriremesPlaced.won", { player: n.player(d.seat), triremes: d.triremes, sea: n.space(d.sea) }) }
      : {
          text: t("event.SpqrTriremesPlaced", { player: n.player(d.seat), triremes: d.triremes, sea: n.space(d.sea), province: n.space(d.fromProvince), legionaries: d.legionaries }),
        },
  SpqrTriremeDisbanded: (d, n) => ({ text: t("event.SpqrTriremeDisbanded", { player: n.player(d.seat), sea: n.space(d.sea), province: n.space(d.province), legionaries: d.legionaries }) }),
  SpqrFleetMoved: (d, n) => ({ text: t("event.SpqrFleetMoved", { player: n.player(d.seat), triremes: d.triremes, source: n.space(d.source), target: n.space(d.target) }) }),
  SpqrNavalDiceRolled: (d, n) => ({
    text: t(d.over ? "event.SpqrNavalDiceRolled.over" : "event.SpqrNavalDiceRolled", {
      player: n.player(d.seat),
      sea: n.space(d.sea),
      opponent: n.player(d.opponent),
      lost: d.attackerLosses,
      sunk: d.defenderLosses,
    }),
    dice: roll(d),
    tone: "combat",
  }),
  SpqrSeaAttackLaunched: (d, n) => ({
    text: t("event.SpqrSeaAttackLaunched", { player: n.player(d.seat), legionaries: d.legionaries, source: n.space(d.source), sea: n.space(d.sea), target: n.space(d.target), defender: n.player(d.defender) }),
    tone: "combat",
  }),
  SpqrTriremesSunk: (d, n) => ({ text: t("event.SpqrTriremesSunk", { player: n.player(d.seat), triremes: d.triremes }) }),
} satisfies Partial<Renderers>;

const empires = (d: DetailOf<"PiuEmpiresDrawn">, n: Names): string => list(d.empires.map((empire, seat) => t("event.PiuEmpiresDrawn.one", { player: n.player(seat), empire: n.region(empire) })));

export const PIU = {
  PiuEmpiresDrawn: (d, n) => ({ text: t("event.PiuEmpiresDrawn", { list: empires(d, n), armies: d.startingArmies }) }),
  PiuFortressPlaced: (d, n) => ({ text: t("event.PiuFortressPlaced", { player: n.player(d.seat), territory: n.space(d.territory) }) }),
  PiuTerritoryClaimed: (d, n) => ({ text: t("event.PiuTerritoryClaimed", { player: n.player(d.seat), territory: n.space(d.territory) }) }),
  PiuHiddenTerritoryWritten: (d, n) => ({ text: t("event.PiuHiddenTerritoryWritten", { player: n.player(d.player) }) }),
  PiuHiddenTerritoryChosen: (d, n) => ({ text: t("event.PiuHiddenTerritoryChosen", { territory: n.space(d.territory) }), tone: "private" }),
  PiuHiddenArmiesRevealed: (d, n) => ({ text: t("event.PiuHiddenArmiesRevealed", { player: n.player(d.seat), armies: d.armies, territory: n.space(d.territory) }) }),
  PiuRinforziPlayed: (d, n) => ({ text: t("event.PiuRinforziPlayed", { player: n.player(d.seat), card: n.card(d.card), armies: d.armies, step: d.step }) }),
  PiuSpyPlayed: (d, n) => ({ text: t("event.PiuSpyPlayed", { player: n.player(d.seat), card: n.card(d.card), target: n.player(d.player) }) }),
  PiuSpyBlocked: (d, n) => ({ text: t("event.PiuSpyBlocked", { player: n.player(d.seat), spy: n.player(d.spy) }) }),
  PiuSpyReport: (d, n) => ({ text: t("event.PiuSpyReport", { target: n.player(d.player), cards: n.cards(d.cards), count: d.cards.length }), tone: "private" }),
  PiuSpiedCardDiscarded: (d, n) => ({ text: t("event.PiuSpiedCardDiscarded", { player: n.player(d.seat), target: n.player(d.player) }) }),
  PiuCardLost: (d, n) => ({ text: t("event.PiuCardLost", { card: n.card(d.card), by: n.player(d.by) }), tone: "private" }),
  PiuTruceImposed: (d, n) => ({ text: t("event.PiuTruceImposed", { player: n.player(d.seat), target: n.player(d.player) }) }),
  PiuTrucesEnded: (d, n) => ({ text: t("event.PiuTrucesEnded", { player: n.player(d.seat), others: n.players(d.players) }) }),
  PiuGeneralPlayed: (d, n) => ({ text: t("event.PiuGeneralPlayed", { player: n.player(d.seat), source: n.space(d.source), target: n.space(d.target) }), tone: "combat" }),
  PiuMarshalPlayed: (d, n) => ({ text: t("event.PiuMarshalPlayed", { player: n.player(d.seat), territory: n.space(d.territory) }), tone: "combat" }),
  PiuFlagshipSailed: (d, n) => ({
    text: t("event.PiuFlagshipSailed", { player: n.player(d.seat), armies: d.armies, source: n.space(d.source), target: n.space(d.target) }),
    tone: "combat",
  }),
  PiuFlagshipUnloaded: (d, n) => ({ text: t("event.PiuFlagshipUnloaded", { player: n.player(d.seat), armies: d.armies, territory: n.space(d.territory) }) }),
  PiuFortressFallen: (d, n) => ({
    text: t("event.PiuFortressFallen", { player: n.player(d.seat), by: n.player(d.by), territory: n.space(d.territory), banners: n.players(d.banners), count: d.banners.length }),
    tone: "outcome",
  }),
  PiuStandingOrdersSet: (d) => ({
    text: t("event.PiuStandingOrdersSet", { marshal: tOr(`orders.marshal.${d.marshal}`, d.marshal), spy: tOr(`orders.spy.${d.spyOrder}`, d.spyOrder) }),
    tone: "private",
  }),
} satisfies Partial<Renderers>;

/** The cards turned for the order of play: each card shows two colours. */
function cardsTurned(colours: string[], n: Names): string {
  const cards: string[] = [];
  for (let i = 0; i + 1 < colours.length; i += 2) cards.push(t("event.FuturisikoOrderDrawn.card", { a: n.colour(colours[i]), b: n.colour(colours[i + 1]) }));
  return list(cards);
}

/** A battle's volleys as dice, the sides in turn, the faster side first. */
function volleys(d: DetailOf<"FuturisikoBattleFought">): DiceRow[] {
  return d.volleys.map((faces, i) => ({ side: (i % 2 === 0) === d.attackerFirst ? "attacker" : "defender", faces, lost: -1 }));
}

function losses(tanks: number, aircraft: number, n: Names): string {
  const lost = [tanks ? n.units("tank", tanks) : "", aircraft ? n.units("aircraft", aircraft) : ""].filter(Boolean);
  return lost.length ? list(lost) : t("event.nothingLost");
}

export const FUTURISIKO = {
  FuturisikoOrderDrawn: (d, n) => ({ text: t("event.FuturisikoOrderDrawn", { round: d.round, cards: cardsTurned(d.colours, n), order: n.players(d.order) }), tone: "turn" }),
  FuturisikoFlagPlaced: (d, n) => ({ text: tOr(`event.FuturisikoFlagPlaced.${d.reason}`, { key: "event.FuturisikoFlagPlaced" }, { player: n.player(d.seat), territory: n.space(d.territory) }) }),
  FuturisikoPhaseTurnStarted: (d, n) => ({
    text: t(d.productionPoints ? "event.FuturisikoPhaseTurnStarted.production" : "event.FuturisikoPhaseTurnStarted", {
      player: n.player(d.seat),
      round: d.round,
      phase: tOr(`phase.${d.phase}`, t("phase.other")),
      points: d.productionPoints,
    }),
    tone: "turn",
  }),
  FuturisikoCardDiscarded: (d, n) => ({ text: t("event.FuturisikoCardDiscarded", { card: n.card(d.card) }), tone: "private" }),
  FuturisikoCardsDealt: (d, n) => ({ text: t("event.FuturisikoCardsDealt", { player: n.player(d.seat), discarded: d.discarded, received: d.received, cards: d.handSize }) }),
  FuturisikoCardPlayed: (d, n) => ({
    text: t(d.target ? "event.FuturisikoCardPlayed.target" : d.against >= 0 ? "event.FuturisikoCardPlayed.against" : "event.FuturisikoCardPlayed", {
      player: n.player(d.seat),
      card: n.cardKind(d.cardType),
      target: d.target ? n.space(d.target) : "",
      against: n.player(d.against),
    }),
  }),
  FuturisikoUnitsProduced: (d, n) => ({ text: t("event.FuturisikoUnitsProduced", { player: n.player(d.seat), units: n.units(d.unit, d.count), space: n.space(d.space), points: d.pointsLeft }) }),
  FuturisikoUnitsMoved: (d, n) => ({
    text: t(d.sea ? "event.FuturisikoUnitsMoved.sea" : "event.FuturisikoUnitsMoved", {
      player: n.player(d.seat),
      units: n.units(d.unit, d.count),
      source: n.space(d.source),
      target: n.space(d.target),
      sea: d.sea ? n.space(d.sea) : "",
    }),
  }),
  FuturisikoUnitsHit: (d, n) => ({
    text: tOr(`event.FuturisikoUnitsHit.${d.weapon}`, { key: "event.FuturisikoUnitsHit" }, {
      player: n.player(d.seat),
      target: n.space(d.target),
      defender: n.player(d.defender),
      lost: losses(d.tanksLost, d.aircraftLost, n),
      stopped: d.faces.length === 0 ? "yes" : "no",
    }),
    dice: d.faces.length ? [{ side: "attacker", faces: d.faces, lost: -1 }] : undefined,
    tone: "combat",
  }),
  FuturisikoSubmarineSunk: (d, n) => ({ text: t("event.FuturisikoSubmarineSunk", { player: n.player(d.seat), sea: n.space(d.sea), owner: n.player(d.owner) }), tone: "combat" }),
  FuturisikoBattleDeclared: (d, n) => ({
    text: t(d.cards.length ? "event.FuturisikoBattleDeclared.cards" : "event.FuturisikoBattleDeclared", {
      player: n.player(d.seat),
      territory: n.space(d.territory),
      defender: n.player(d.defender),
      cards: n.cards(d.cards),
    }),
    tone: "combat",
  }),
  FuturisikoBattleFought: (d, n) => ({
    text: t(d.attackerWon ? (d.flagTaken ? "event.FuturisikoBattleFought.flag" : "event.FuturisikoBattleFought.won") : "event.FuturisikoBattleFought.lost", {
      player: n.player(d.seat),
      territory: n.space(d.territory),
      defender: n.player(d.defender),
      lost: losses(d.attackerTanksLost, d.attackerAircraftLost, n),
      killed: losses(d.defenderTanksLost, d.defenderAircraftLost, n),
    }),
    dice: volleys(d),
    tone: "combat",
  }),
  FuturisikoUnitsRemoved: (d, n) => {
    const units = [d.tanks ? n.units("tank", d.tanks) : "", d.aircraft ? n.units("aircraft", d.aircraft) : "", d.submarines ? n.units("submarine", d.submarines) : ""];
    return { text: t("event.FuturisikoUnitsRemoved", { player: n.player(d.seat), units: list(units.filter(Boolean)), space: n.space(d.space) }) };
  },
} satisfies Partial<Renderers>;
