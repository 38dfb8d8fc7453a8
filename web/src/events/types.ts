// The events of every game, by type, with their fields as the typed GameEvent union names them
// (camelCase; seats as numbers, -1 for neutral or nobody, spaces and cards as ids). Today they
// come as `type` + `data` (snake_case JSON) and `fromLegacy` makes them these; once the API
// serves the union, the query asks for its fragments and `fromLegacy` goes.

export interface EventFields {
  // Lobby and clock (the server's own)
  GameCreated: { variant: string; seedChosen?: boolean };
  PlayerJoined: { seat: number; name: string; colour: string };
  BotJoined: { seat: number; name: string; colour: string; policy: string };
  PlayerLeft: { seat: number };
  GameAbandoned: { reason: string };
  ClockChanged: { seat: number | null; kind: string | null; deadline: number | null };
  PlayedByProxy: { seat: number; reason: string; absences: number };
  // Stored by another version of the server (a rolling deploy): shown, never guessed at
  UnknownEvent: Record<string, unknown>;
  // Every game
  GameStarted: { players: string[]; colours: string[]; firstPlayer: number; turnOrder: number[] };
  ObjectiveAssigned: { seat: number; card: string; objective: string };
  ObjectiveChanged: { seat: number; objective: string; reason: string };
  TerritoriesDealt: { owners: number[]; startingArmies: number };
  ArmiesPlaced: { seat: number; territory: string; armies: number };
  DeckShuffled: { cards: number; reshuffle: boolean };
  TurnStarted: { seat: number; round: number; reinforcements: number; fromTerritories: number; fromRegions: [string, number][] };
  CardsTraded: { seat: number; cards: string[]; armies: number; territoryBonus: number };
  AttackDeclared: { seat: number; source: string; target: string; dice: number; defender: number };
  DiceRolled: {
    seat: number;
    source: string;
    target: string;
    attackerDice: number[];
    defenderDice: number[];
    attackerLosses: number;
    defenderLosses: number;
  };
  TerritoryConquered: { seat: number; source: string; target: string; defender: number; minArmies: number; maxArmies: number };
  ArmiesMoved: { seat: number; source: string; target: string; armies: number; strategic: boolean };
  PlayerEliminated: { seat: number; by: number; cardsTaken: number };
  PlayerResigned: { seat: number };
  CardDrawn: { seat: number; handSize: number };
  CardsReceived: { seat: number; cards: string[] };
  TurnEnded: { seat: number };
  TimeExpired: { round: number };
  GameEnded: { winner: number | null; reason: string; ranking: [number, number, number][]; objectives: string[] };
  // S.P.Q.RisiKo!
  ProvinceClaimed: { seat: number; province: string; armies: number };
  NeutralPlaced: { seat: number; province: string; colour: string; armies: number };
  VictoryPointsScored: { seat: number; empire: number; provinces: number; seas: number; powerCentres: number; total: number };
  SetRewards: { seat: number; triremes: number; powerCentres: number };
  RewardsForfeited: { seat: number; triremes: number; powerCentres: number };
  PowerCentrePlaced: { seat: number; province: string };
  TriremesPlaced: { seat: number; sea: string; triremes: number; province: string | null; legionaries: number };
  TriremeDisbanded: { seat: number; sea: string; province: string; legionaries: number };
  FleetMoved: { seat: number; source: string; target: string; triremes: number };
  NavalDiceRolled: {
    seat: number;
    sea: string;
    opponent: number;
    attackerDice: number[];
    defenderDice: number[];
    attackerLosses: number;
    defenderLosses: number;
    over: boolean;
  };
  SeaAttackLaunched: { seat: number; source: string; target: string; sea: string; legionaries: number; defender: number };
  TriremesSunk: { seat: number; triremes: number };
  // RisiKo! Più
  EmpiresDrawn: { empires: string[]; owners: number[]; startingArmies: number };
  FortressPlaced: { seat: number; territory: string };
  TerritoryClaimed: { seat: number; territory: string };
  HiddenTerritoryWritten: { player: number };
  HiddenTerritoryChosen: { seat: number; territory: string };
  HiddenArmiesRevealed: { seat: number; territory: string; armies: number };
  RinforziPlayed: { seat: number; card: string; step: number; armies: number };
  SpyPlayed: { seat: number; card: string; player: number };
  SpyBlocked: { seat: number; card: string; spy: number };
  SpyReport: { seat: number; player: number; cards: string[] };
  SpiedCardDiscarded: { seat: number; player: number };
  CardLost: { seat: number; card: string; by: number };
  TruceImposed: { seat: number; card: string; player: number };
  TrucesEnded: { seat: number; players: number[] };
  GeneralPlayed: { seat: number; card: string; source: string; target: string };
  MarshalPlayed: { seat: number; card: string; territory: string };
  FlagshipSailed: { seat: number; card: string; source: string; target: string; armies: number };
  FlagshipUnloaded: { seat: number; territory: string; armies: number };
  FortressFallen: { seat: number; by: number; territory: string; banners: number[] };
  StandingOrdersSet: { seat: number; marshal: string; spy: string };
  // FutuRisiKo!
  OrderDrawn: { round: number; colours: string[]; order: number[] };
  FlagPlaced: { seat: number; territory: string; reason: string };
  PhaseTurnStarted: { seat: number; round: number; phase: string; productionPoints: number };
  CardDiscarded: { seat: number; card: string };
  CardsDealt: { seat: number; discarded: number; received: number; handSize: number };
  CardPlayed: { seat: number; card: string; cardType: string; target: string; against: number };
  UnitsProduced: { seat: number; space: string; unit: string; count: number; pointsLeft: number };
  UnitsMoved: { seat: number; source: string; target: string; unit: string; count: number; sea: string };
  UnitsHit: { seat: number; by: string; target: string; defender: number; dice: number[]; tanksLost: number; aircraftLost: number };
  SubmarineSunk: { seat: number; sea: string; owner: number };
  BattleDeclared: { seat: number; territory: string; defender: number; cards: string[] };
  BattleFought: {
    seat: number;
    territory: string;
    defender: number;
    defenderCards: string[];
    attackerFirst: boolean;
    volleys: number[][];
    attackerTanksLost: number;
    attackerAircraftLost: number;
    defenderTanksLost: number;
    defenderAircraftLost: number;
    flagTaken: boolean;
    attackerWon: boolean;
  };
  UnitsRemoved: { seat: number; space: string; tanks: number; aircraft: number; submarines: number };
}

export type EventType = keyof EventFields;

/** An event as the client reads it: its type, what it says, and where it is in the game. */
export type GameEvent = {
  [T in EventType]: { seq: number; version: number; private: boolean; type: T; data: EventFields[T] };
}[EventType];

/** An event of a type this client does not know yet (a game added to the server later). */
export interface UnknownEvent {
  seq: number;
  version: number;
  private: boolean;
  type: string;
  data: Record<string, unknown>;
}

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [camel(key), camelKeys(item)]));
  }
  return value;
}

/** Today's `type` + `data` (snake_case JSON) as the typed event. */
export function fromLegacy(raw: { seq: number; version: number; private: boolean; type: string; data: unknown }): GameEvent | UnknownEvent {
  const data = camelKeys(raw.data) as Record<string, unknown>;
  delete data.type;
  return { seq: raw.seq, version: raw.version, private: raw.private, type: raw.type, data } as GameEvent | UnknownEvent;
}

export function isKnown(event: GameEvent | UnknownEvent, types: ReadonlySet<string>): event is GameEvent {
  return types.has(event.type);
}
