// The sentences of the events of S.P.Q.RisiKo!, RisiKo! Più and FutuRisiKo!.

import { list, t, tOr } from "../i18n";
import type { Names } from "../names";
import { roll, type DiceRow, type Renderers } from "./sentence";
import type { EventFields } from "./types";

type Spqr =
  | "ProvinceClaimed"
  | "NeutralPlaced"
  | "VictoryPointsScored"
  | "SetRewards"
  | "RewardsForfeited"
  | "PowerCentrePlaced"
  | "TriremesPlaced"
  | "TriremeDisbanded"
  | "FleetMoved"
  | "NavalDiceRolled"
  | "SeaAttackLaunched"
  | "TriremesSunk";

export const SPQR: Pick<Renderers, Spqr> = {
  ProvinceClaimed: (d, n) => ({ text: t("event.ProvinceClaimed", { player: n.player(d.seat), province: n.space(d.province), armies: d.armies }) }),
  NeutralPlaced: (d, n) => ({
    text: t(d.seat < 0 ? "event.NeutralPlaced.setup" : "event.NeutralPlaced", {
      player: n.player(d.seat),
      province: n.space(d.province),
      colour: n.colour(d.colour),
      armies: d.armies,
    }),
  }),
  VictoryPointsScored: (d, n) => ({
    text: t("event.VictoryPointsScored", { player: n.player(d.seat), empire: d.empire, provinces: d.provinces, seas: d.seas, centres: d.powerCentres, total: d.total }),
    tone: "turn",
  }),
  SetRewards: (d, n) => ({ text: t("event.SetRewards", { player: n.player(d.seat), triremes: d.triremes, centres: d.powerCentres }) }),
  RewardsForfeited: (d, n) => ({ text: t("event.RewardsForfeited", { player: n.player(d.seat), triremes: d.triremes, centres: d.powerCentres }) }),
  PowerCentrePlaced: (d, n) => ({ text: t("event.PowerCentrePlaced", { player: n.player(d.seat), province: n.space(d.province) }) }),
  TriremesPlaced: (d, n) =>
    d.province === null
      ? { text: t("event.TriremesPlaced.won", { player: n.player(d.seat), triremes: d.triremes, sea: n.space(d.sea) }) }
      : {
          text: t("event.TriremesPlaced", { player: n.player(d.seat), triremes: d.triremes, sea: n.space(d.sea), province: n.space(d.province), legionaries: d.legionaries }),
        },
  TriremeDisbanded: (d, n) => ({ text: t("event.TriremeDisbanded", { player: n.player(d.seat), sea: n.space(d.sea), province: n.space(d.province), legionaries: d.legionaries }) }),
  FleetMoved: (d, n) => ({ text: t("event.FleetMoved", { player: n.player(d.seat), triremes: d.triremes, source: n.space(d.source), target: n.space(d.target) }) }),
  NavalDiceRolled: (d, n) => ({
    text: t(d.over ? "event.NavalDiceRolled.over" : "event.NavalDiceRolled", {
      player: n.player(d.seat),
      sea: n.space(d.sea),
      opponent: n.player(d.opponent),
      lost: d.attackerLosses,
      sunk: d.defenderLosses,
    }),
    dice: roll(d),
    tone: "combat",
  }),
  SeaAttackLaunched: (d, n) => ({
    text: t("event.SeaAttackLaunched", { player: n.player(d.seat), legionaries: d.legionaries, source: n.space(d.source), sea: n.space(d.sea), target: n.space(d.target), defender: n.player(d.defender) }),
    tone: "combat",
  }),
  TriremesSunk: (d, n) => ({ text: t("event.TriremesSunk", { player: n.player(d.seat), triremes: d.triremes }) }),
};

type Piu =
  | "EmpiresDrawn"
  | "FortressPlaced"
  | "TerritoryClaimed"
  | "HiddenTerritoryWritten"
  | "HiddenTerritoryChosen"
  | "HiddenArmiesRevealed"
  | "RinforziPlayed"
  | "SpyPlayed"
  | "SpyBlocked"
  | "SpyReport"
  | "SpiedCardDiscarded"
  | "CardLost"
  | "TruceImposed"
  | "TrucesEnded"
  | "GeneralPlayed"
  | "MarshalPlayed"
  | "FlagshipSailed"
  | "FlagshipUnloaded"
  | "FortressFallen"
  | "StandingOrdersSet";

const empires = (d: EventFields["EmpiresDrawn"], n: Names): string => list(d.empires.map((empire, seat) => t("event.EmpiresDrawn.one", { player: n.player(seat), empire: n.region(empire) })));

export const PIU: Pick<Renderers, Piu> = {
  EmpiresDrawn: (d, n) => ({ text: t("event.EmpiresDrawn", { list: empires(d, n), armies: d.startingArmies }) }),
  FortressPlaced: (d, n) => ({ text: t("event.FortressPlaced", { player: n.player(d.seat), territory: n.space(d.territory) }) }),
  TerritoryClaimed: (d, n) => ({ text: t("event.TerritoryClaimed", { player: n.player(d.seat), territory: n.space(d.territory) }) }),
  HiddenTerritoryWritten: (d, n) => ({ text: t("event.HiddenTerritoryWritten", { player: n.player(d.player) }) }),
  HiddenTerritoryChosen: (d, n) => ({ text: t("event.HiddenTerritoryChosen", { territory: n.space(d.territory) }), tone: "private" }),
  HiddenArmiesRevealed: (d, n) => ({ text: t("event.HiddenArmiesRevealed", { player: n.player(d.seat), armies: d.armies, territory: n.space(d.territory) }) }),
  RinforziPlayed: (d, n) => ({ text: t("event.RinforziPlayed", { player: n.player(d.seat), card: n.card(d.card), armies: d.armies, step: d.step }) }),
  SpyPlayed: (d, n) => ({ text: t("event.SpyPlayed", { player: n.player(d.seat), card: n.card(d.card), target: n.player(d.player) }) }),
  SpyBlocked: (d, n) => ({ text: t("event.SpyBlocked", { player: n.player(d.seat), spy: n.player(d.spy) }) }),
  SpyReport: (d, n) => ({ text: t("event.SpyReport", { target: n.player(d.player), cards: n.cards(d.cards), count: d.cards.length }), tone: "private" }),
  SpiedCardDiscarded: (d, n) => ({ text: t("event.SpiedCardDiscarded", { player: n.player(d.seat), target: n.player(d.player) }) }),
  CardLost: (d, n) => ({ text: t("event.CardLost", { card: n.card(d.card), by: n.player(d.by) }), tone: "private" }),
  TruceImposed: (d, n) => ({ text: t("event.TruceImposed", { player: n.player(d.seat), target: n.player(d.player) }) }),
  TrucesEnded: (d, n) => ({ text: t("event.TrucesEnded", { player: n.player(d.seat), others: n.players(d.players) }) }),
  GeneralPlayed: (d, n) => ({ text: t("event.GeneralPlayed", { player: n.player(d.seat), source: n.space(d.source), target: n.space(d.target) }), tone: "combat" }),
  MarshalPlayed: (d, n) => ({ text: t("event.MarshalPlayed", { player: n.player(d.seat), territory: n.space(d.territory) }), tone: "combat" }),
  FlagshipSailed: (d, n) => ({
    text: t("event.FlagshipSailed", { player: n.player(d.seat), armies: d.armies, source: n.space(d.source), target: n.space(d.target) }),
    tone: "combat",
  }),
  FlagshipUnloaded: (d, n) => ({ text: t("event.FlagshipUnloaded", { player: n.player(d.seat), armies: d.armies, territory: n.space(d.territory) }) }),
  FortressFallen: (d, n) => ({
    text: t("event.FortressFallen", { player: n.player(d.seat), by: n.player(d.by), territory: n.space(d.territory), banners: n.players(d.banners), count: d.banners.length }),
    tone: "outcome",
  }),
  StandingOrdersSet: (d) => ({
    text: t("event.StandingOrdersSet", { marshal: tOr(`orders.marshal.${d.marshal}`, d.marshal), spy: tOr(`orders.spy.${d.spy}`, d.spy) }),
    tone: "private",
  }),
};

type Futurisiko =
  | "OrderDrawn"
  | "FlagPlaced"
  | "PhaseTurnStarted"
  | "CardDiscarded"
  | "CardsDealt"
  | "CardPlayed"
  | "UnitsProduced"
  | "UnitsMoved"
  | "UnitsHit"
  | "SubmarineSunk"
  | "BattleDeclared"
  | "BattleFought"
  | "UnitsRemoved";

/** The cards turned for the order of play: each card shows two colours. */
function cardsTurned(colours: string[], n: Names): string {
  const cards: string[] = [];
  for (let i = 0; i + 1 < colours.length; i += 2) cards.push(t("event.OrderDrawn.card", { a: n.colour(colours[i]), b: n.colour(colours[i + 1]) }));
  return list(cards);
}

/** A battle's volleys as dice, the sides in turn, the faster side first. */
function volleys(d: EventFields["BattleFought"]): DiceRow[] {
  return d.volleys.map((faces, i) => ({ side: (i % 2 === 0) === d.attackerFirst ? "attacker" : "defender", faces, lost: -1 }));
}

function losses(tanks: number, aircraft: number, n: Names): string {
  const lost = [tanks ? n.units("tank", tanks) : "", aircraft ? n.units("aircraft", aircraft) : ""].filter(Boolean);
  return lost.length ? list(lost) : t("event.nothingLost");
}

export const FUTURISIKO: Pick<Renderers, Futurisiko> = {
  OrderDrawn: (d, n) => ({ text: t("event.OrderDrawn", { round: d.round, cards: cardsTurned(d.colours, n), order: n.players(d.order) }), tone: "turn" }),
  FlagPlaced: (d, n) => ({ text: tOr(`event.FlagPlaced.${d.reason}`, { key: "event.FlagPlaced" }, { player: n.player(d.seat), territory: n.space(d.territory) }) }),
  PhaseTurnStarted: (d, n) => ({
    text: t(d.productionPoints ? "event.PhaseTurnStarted.production" : "event.PhaseTurnStarted", {
      player: n.player(d.seat),
      round: d.round,
      phase: tOr(`phase.${d.phase.toUpperCase()}`, t("phase.other")),
      points: d.productionPoints,
    }),
    tone: "turn",
  }),
  CardDiscarded: (d, n) => ({ text: t("event.CardDiscarded", { card: n.card(d.card) }), tone: "private" }),
  CardsDealt: (d, n) => ({ text: t("event.CardsDealt", { player: n.player(d.seat), discarded: d.discarded, received: d.received, cards: d.handSize }) }),
  CardPlayed: (d, n) => ({
    text: t(d.target ? "event.CardPlayed.target" : d.against >= 0 ? "event.CardPlayed.against" : "event.CardPlayed", {
      player: n.player(d.seat),
      card: n.cardKind(d.cardType),
      target: d.target ? n.space(d.target) : "",
      against: n.player(d.against),
    }),
  }),
  UnitsProduced: (d, n) => ({ text: t("event.UnitsProduced", { player: n.player(d.seat), units: n.units(d.unit, d.count), space: n.space(d.space), points: d.pointsLeft }) }),
  UnitsMoved: (d, n) => ({
    text: t(d.sea ? "event.UnitsMoved.sea" : "event.UnitsMoved", {
      player: n.player(d.seat),
      units: n.units(d.unit, d.count),
      source: n.space(d.source),
      target: n.space(d.target),
      sea: d.sea ? n.space(d.sea) : "",
    }),
  }),
  UnitsHit: (d, n) => ({
    text: tOr(`event.UnitsHit.${d.by}`, { key: "event.UnitsHit" }, {
      player: n.player(d.seat),
      target: n.space(d.target),
      defender: n.player(d.defender),
      lost: losses(d.tanksLost, d.aircraftLost, n),
      stopped: d.dice.length === 0 ? "yes" : "no",
    }),
    dice: d.dice.length ? [{ side: "attacker", faces: d.dice, lost: -1 }] : undefined,
    tone: "combat",
  }),
  SubmarineSunk: (d, n) => ({ text: t("event.SubmarineSunk", { player: n.player(d.seat), sea: n.space(d.sea), owner: n.player(d.owner) }), tone: "combat" }),
  BattleDeclared: (d, n) => ({
    text: t(d.cards.length ? "event.BattleDeclared.cards" : "event.BattleDeclared", {
      player: n.player(d.seat),
      territory: n.space(d.territory),
      defender: n.player(d.defender),
      cards: n.cards(d.cards),
    }),
    tone: "combat",
  }),
  BattleFought: (d, n) => ({
    text: t(d.attackerWon ? (d.flagTaken ? "event.BattleFought.flag" : "event.BattleFought.won") : "event.BattleFought.lost", {
      player: n.player(d.seat),
      territory: n.space(d.territory),
      defender: n.player(d.defender),
      lost: losses(d.attackerTanksLost, d.attackerAircraftLost, n),
      killed: losses(d.defenderTanksLost, d.defenderAircraftLost, n),
    }),
    dice: volleys(d),
    tone: "combat",
  }),
  UnitsRemoved: (d, n) => {
    const units = [d.tanks ? n.units("tank", d.tanks) : "", d.aircraft ? n.units("aircraft", d.aircraft) : "", d.submarines ? n.units("submarine", d.submarines) : ""];
    return { text: t("event.UnitsRemoved", { player: n.player(d.seat), units: list(units.filter(Boolean)), space: n.space(d.space) }) };
  },
};
