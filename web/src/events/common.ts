// The sentences of the events every game shares, and of the lobby's and the clock's.

import { currentLocale, list, t, tOr } from "../i18n";
import { roll, type Renderer, type Renderers } from "./sentence";

const clockTime = (seconds: number): string =>
  new Date(seconds * 1000).toLocaleTimeString(currentLocale(), { hour: "2-digit", minute: "2-digit" });

const ranking: Renderer<"GameEnded"> = (data, names) => {
  const places = data.ranking.map(({ rank, seat, points }) => t("event.GameEnded.place", { rank, player: names.player(seat), points }));
  const reason = tOr(`outcome.${data.reason}`, t("outcome.other"));
  const winner = data.winner === null ? t("event.GameEnded.noWinner", { reason }) : t("event.GameEnded.winner", { player: names.player(data.winner), reason });
  const objectives = data.objectives.length
    ? " " + t("event.GameEnded.objectives", { list: list(data.objectives.map((id, seat) => `${names.player(seat)}: ${names.objective(id)}`)) })
    : "";
  return { text: `${winner} ${t("event.GameEnded.ranking", { list: list(places) })}${objectives}`, tone: "outcome" };
};

export const COMMON = {
  GameCreated: (data) => ({ text: t(data.seedChosen ? "event.GameCreated.chosenSeed" : "event.GameCreated") }),
  PlayerJoined: (data, names) => ({ text: t("event.PlayerJoined", { player: data.name, colour: names.colour(data.colour) }) }),
  BotJoined: (data, names) => ({ text: t("event.BotJoined", { player: data.name, colour: names.colour(data.colour) }) }),
  PlayerLeft: (data, names) => ({ text: t("event.PlayerLeft", { player: names.player(data.seat) }) }),
  GameAbandoned: () => ({ text: t("event.GameAbandoned"), tone: "outcome" }),
  ClockChanged: (data, names) =>
    data.runningSeat === null || data.deadline === null
      ? null
      : { text: t(data.kind === "answer" ? "event.ClockChanged.answer" : "event.ClockChanged", { player: names.player(data.runningSeat), time: clockTime(data.deadline) }) },
  PlayedByProxy: (data, names) => ({ text: tOr(`event.PlayedByProxy.${data.reason}`, { key: "event.PlayedByProxy" }, { player: names.player(data.seat), absences: data.absences }) }),
  UnknownEvent: () => ({ text: t("event.UnknownEvent") }),
  GameStarted: (data, names) => ({ text: t("event.GameStarted", { order: names.players(data.turnOrder), first: names.player(data.firstPlayer) }), tone: "turn" }),
  ObjectiveAssigned: (data, names) => ({ text: t("event.ObjectiveAssigned", { objective: names.objective(data.objective) }), tone: "private" }),
  ObjectiveChanged: (data, names) => ({ text: t("event.ObjectiveChanged", { objective: names.objective(data.objective) }), tone: "private" }),
  TerritoriesDealt: (data) => ({ text: t("event.TerritoriesDealt", { armies: data.startingArmies }) }),
  ArmiesPlaced: (data, names) => ({ text: t("event.ArmiesPlaced", { player: names.player(data.seat), armies: data.armies, territory: names.space(data.territory) }) }),
  DeckShuffled: (data) => ({ text: t(data.reshuffle ? "event.DeckShuffled.again" : "event.DeckShuffled", { cards: data.shuffled }) }),
  TurnStarted: (data, names) => {
    const regions = data.fromRegions.map(({ region, armies }) => t("event.TurnStarted.region", { region: names.region(region), armies }));
    const text = t("event.TurnStarted", { player: names.player(data.seat), round: data.round, armies: data.reinforcements });
    return { text: regions.length ? `${text} ${t("event.TurnStarted.regions", { list: list(regions) })}` : text, tone: "turn" };
  },
  CardsTraded: (data, names) => ({
    text: t("event.CardsTraded", { player: names.player(data.seat), cards: names.cards(data.cards), armies: data.armies, bonus: data.territoryBonus }),
  }),
  AttackDeclared: (data, names) => ({
    text: t("event.AttackDeclared", { player: names.player(data.seat), source: names.space(data.source), target: names.space(data.target), dice: data.dice, defender: names.player(data.defender) }),
    tone: "combat",
  }),
  DiceRolled: (data, names) => ({
    text: t("event.DiceRolled", {
      player: names.player(data.seat),
      source: names.space(data.source),
      target: names.space(data.target),
      lost: data.attackerLosses,
      killed: data.defenderLosses,
    }),
    dice: roll(data),
    tone: "combat",
  }),
  TerritoryConquered: (data, names) => ({
    text: t("event.TerritoryConquered", { player: names.player(data.seat), target: names.space(data.target), defender: names.player(data.defender) }),
    tone: "combat",
  }),
  ArmiesMoved: (data, names) => ({
    text: t(data.strategic ? "event.ArmiesMoved.strategic" : "event.ArmiesMoved", {
      player: names.player(data.seat),
      armies: data.armies,
      source: names.space(data.source),
      target: names.space(data.target),
    }),
  }),
  PlayerEliminated: (data, names) => ({
    text: t("event.PlayerEliminated", { player: names.player(data.seat), by: names.player(data.by), cards: data.cardsTaken }),
    tone: "outcome",
  }),
  PlayerResigned: (data, names) => ({ text: t("event.PlayerResigned", { player: names.player(data.seat) }) }),
  CardDrawn: (data, names) => ({ text: t("event.CardDrawn", { player: names.player(data.seat), cards: data.handSize }) }),
  CardsReceived: (data, names) => ({ text: t("event.CardsReceived", { cards: names.cards(data.cards), count: data.cards.length }), tone: "private" }),
  TurnEnded: (data, names) => ({ text: t("event.TurnEnded", { player: names.player(data.seat) }) }),
  TimeExpired: (data) => ({ text: t("event.TimeExpired", { round: data.round }), tone: "outcome" }),
  GameEnded: ranking,
} satisfies Partial<Renderers>;
