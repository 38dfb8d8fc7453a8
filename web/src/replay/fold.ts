// The board at any point of a game, rebuilt from its public events alone: what each event does
// to the spaces (owners, stacks of units by kind and owner, markers), as the server's
// TerritoryState shows them. Pure: no page, no request (scripts/check-replay.mjs holds it to
// the engines' own boards, move by move, in every game).

import type { Detail, DetailOf, GameEvent, Kind } from "../events/types";

export interface Stack {
  kind: string;
  count: number;
  seat: number | null;
  neutral: string | null;
}

export interface Space {
  id: string;
  owner: number | null;
  units: Stack[];
  markers: string[];
}

const ARMY = "army";
const TRIREME = "trireme";
const FORTRESS = "fortress";
const FLAG = "flag";
const POWER_CENTRE = "power_centre";

type Effects = { [K in Kind]?: (detail: DetailOf<K>) => void };

/** A board being rebuilt: `apply` each event in order, `spaces()` at any point. */
export class BoardFold {
  private readonly spacesById = new Map<string, Space>();
  // Armies away from every space for the length of one attack: RisiKo! Più's flagship, and
  // an S.P.Q.RisiKo! force sent across a sea. Their losses are theirs, not the source's.
  private afloat: { source: string; target: string; armies: number; sea: boolean } | null = null;
  private readonly fortresses = new Map<number, string>();

  constructor(
    private readonly order: readonly string[],
    private readonly unitKinds: readonly string[],
  ) {
    for (const id of order) this.spacesById.set(id, { id, owner: null, units: [], markers: [] });
  }

  apply(event: GameEvent): void {
    const kind = event.detail.__typename;
    if (!Object.hasOwn(this.effects, kind)) return; // a kind that leaves the board as it was
    (this.effects[kind] as (detail: Detail) => void)(event.detail);
  }

  /** Every space now, in the board's order (a copy). */
  spaces(): Space[] {
    return this.order.map((id) => {
      const space = this.spacesById.get(id)!;
      return { ...space, units: space.units.map((stack) => ({ ...stack })), markers: [...space.markers] };
    });
  }

  private space(id: string): Space {
    const found = this.spacesById.get(id);
    if (!found) throw new Error(`no space ${id} on this board`);
    return found;
  }

  /** Add `delta` units of `kind` of `seat` (or of a neutral colour) on `id`. */
  private add(id: string, kind: string, seat: number | null, delta: number, neutral: string | null = null): void {
    const space = this.space(id);
    let stack = space.units.find((s) => s.kind === kind && s.seat === seat && s.neutral === neutral);
    if (!stack) {
      stack = { kind, count: 0, seat, neutral };
      space.units.push(stack);
      space.units.sort((a, b) => (a.seat ?? -1) - (b.seat ?? -1) || this.unitKinds.indexOf(a.kind) - this.unitKinds.indexOf(b.kind));
    }
    stack.count += delta;
    space.units = space.units.filter((s) => s.count > 0);
  }

  /** The armies of a space (one stack, whoever's they are) change by `delta`. */
  private armies(id: string, delta: number, seat: number | null = null): void {
    const stack = this.space(id).units.find((s) => s.kind === ARMY);
    if (stack) this.add(id, ARMY, stack.seat, delta, stack.neutral);
    else this.add(id, ARMY, seat ?? this.space(id).owner, delta);
  }

  private hold(id: string, seat: number | null, armies: number, neutral: string | null = null): void {
    const space = this.space(id);
    space.owner = seat;
    space.units = space.units.filter((s) => s.kind !== ARMY);
    if (armies) this.add(id, ARMY, seat, armies, neutral);
  }

  private marker(id: string, kind: string, on: boolean): void {
    const space = this.space(id);
    space.markers = space.markers.filter((m) => m !== kind);
    if (on) space.markers.push(kind);
  }

  private deal(owners: number[], armies: number): void {
    owners.forEach((owner, index) => this.hold(this.order[index], owner >= 0 ? owner : null, owner >= 0 ? armies : 0));
  }

  private afloatLoses(source: string, target: string, lost: number): boolean {
    const force = this.afloat;
    if (!force || force.source !== source || force.target !== target) return false;
    force.armies -= lost;
    if (force.armies <= 0) this.afloat = null; // all lost at sea: nobody lands
    return true;
  }

  private readonly effects: Effects = {
    TerritoriesDealt: (d) => this.deal(d.owners, 1),
    PiuEmpiresDrawn: (d) => this.deal(d.owners, 1),
    ArmiesPlaced: (d) => this.armies(d.territory, d.armies, d.seat),
    DiceRolled: (d) => {
      if (!this.afloatLoses(d.source, d.target, d.attackerLosses)) this.armies(d.source, -d.attackerLosses);
      this.armies(d.target, -d.defenderLosses);
    },
    TerritoryConquered: (d) => this.hold(d.target, d.seat, 0),
    ArmiesMoved: (d) => {
      const force = this.afloat;
      if (force?.sea && force.source === d.source && force.target === d.target) this.afloat = null;
      else this.armies(d.source, -d.armies);
      this.armies(d.target, d.armies, d.seat);
    },
    PlayerEliminated: (d) => {
      const fortress = this.fortresses.get(d.seat);
      if (fortress !== undefined) this.marker(fortress, FORTRESS, false);
    },
    // S.P.Q.RisiKo!
    SpqrProvinceClaimed: (d) => this.hold(d.province, d.seat, d.armies),
    SpqrNeutralPlaced: (d) => this.hold(d.province, null, d.armies, d.colour),
    SpqrPowerCentrePlaced: (d) => this.marker(d.province, POWER_CENTRE, true),
    SpqrTriremesPlaced: (d) => {
      this.add(d.sea, TRIREME, d.seat, d.triremes);
      if (d.fromProvince !== null) this.armies(d.fromProvince, -d.legionaries);
    },
    SpqrTriremeDisbanded: (d) => {
      this.add(d.sea, TRIREME, d.seat, -1);
      this.armies(d.province, d.legionaries, d.seat);
    },
    SpqrFleetMoved: (d) => {
      this.add(d.source, TRIREME, d.seat, -d.triremes);
      this.add(d.target, TRIREME, d.seat, d.triremes);
    },
    SpqrNavalDiceRolled: (d) => {
      this.add(d.sea, TRIREME, d.seat, -d.attackerLosses);
      this.add(d.sea, TRIREME, d.opponent, -d.defenderLosses);
    },
    SpqrSeaAttackLaunched: (d) => {
      this.armies(d.source, -d.legionaries);
      this.afloat = { source: d.source, target: d.target, armies: d.legionaries, sea: true };
    },
    SpqrTriremesSunk: (d) => {
      for (const id of this.order) this.space(id).units = this.space(id).units.filter((s) => !(s.kind === TRIREME && s.seat === d.seat));
    },
    // RisiKo! Più
    PiuFortressPlaced: (d) => {
      this.fortresses.set(d.seat, d.territory);
      this.marker(d.territory, FORTRESS, true);
    },
    PiuFortressFallen: (d) => this.marker(d.territory, FORTRESS, false),
    PiuTerritoryClaimed: (d) => this.hold(d.territory, d.seat, 1),
    PiuHiddenArmiesRevealed: (d) => this.armies(d.territory, d.armies, d.seat),
    PiuFlagshipSailed: (d) => {
      this.armies(d.source, -d.armies);
      this.afloat = { source: d.source, target: d.target, armies: d.armies, sea: false };
    },
    PiuFlagshipUnloaded: (d) => {
      this.afloat = null;
      this.armies(d.territory, d.armies, d.seat);
    },
    // FutuRisiKo!
    FuturisikoFlagPlaced: (d) => {
      this.space(d.territory).owner = d.seat;
      this.space(d.territory).markers = [FLAG];
    },
    FuturisikoUnitsProduced: (d) => this.add(d.space, d.unit, d.seat, d.count),
    FuturisikoUnitsMoved: (d) => {
      this.add(d.source, d.unit, d.seat, -d.count);
      this.add(d.target, d.unit, d.seat, d.count);
    },
    FuturisikoUnitsHit: (d) => {
      this.add(d.target, "tank", d.defender, -d.tanksLost);
      this.add(d.target, "aircraft", d.defender, -d.aircraftLost);
    },
    FuturisikoSubmarineSunk: (d) => this.add(d.sea, "submarine", d.owner, -1),
    FuturisikoBattleFought: (d) => {
      this.add(d.territory, "tank", d.seat, -d.attackerTanksLost);
      this.add(d.territory, "aircraft", d.seat, -d.attackerAircraftLost);
      this.add(d.territory, "tank", d.defender, -d.defenderTanksLost);
      this.add(d.territory, "aircraft", d.defender, -d.defenderAircraftLost);
      if (d.flagTaken) {
        this.space(d.territory).owner = null;
        this.space(d.territory).markers = [];
      }
    },
    FuturisikoUnitsRemoved: (d) => {
      this.add(d.space, "tank", d.seat, -d.tanks);
      this.add(d.space, "aircraft", d.seat, -d.aircraft);
      this.add(d.space, "submarine", d.seat, -d.submarines);
    },
  };
}

/** A player's share of the board at one point: spaces held and units on them. */
export interface Standing {
  round: number;
  territories: number[];
  armies: number[];
}

/** The board after each version of the game (the first: before any move), and each player's
 * territories and armies at the start of every round and at the end. */
export interface History {
  versions: number[];
  boards: Space[][];
  standings: Standing[];
}

export function history(
  events: readonly GameEvent[],
  order: readonly string[],
  unitKinds: readonly string[],
  seats: number,
): History {
  const fold = new BoardFold(order, unitKinds);
  const counted = unitKinds.includes(ARMY) ? [ARMY] : unitKinds;
  const standing = (round: number): Standing => {
    const spaces = fold.spaces();
    const territories = Array.from({ length: seats }, (_, seat) => spaces.filter((s) => s.owner === seat).length);
    const armies = Array.from({ length: seats }, (_, seat) =>
      spaces.reduce((n, s) => n + s.units.filter((u) => u.seat === seat && counted.includes(u.kind)).reduce((m, u) => m + u.count, 0), 0),
    );
    return { round, territories, armies };
  };
  const found: History = { versions: [0], boards: [fold.spaces()], standings: [] };
  let round = 0;
  events.forEach((event, index) => {
    const started = roundStarted(event);
    if (started !== null && started > round) {
      found.standings.push(standing(round));
      round = started;
    }
    fold.apply(event);
    const next = events[index + 1];
    if (!next || next.version !== event.version) {
      found.versions.push(event.version);
      found.boards.push(fold.spaces());
    }
  });
  found.standings.push(standing(round));
  return found;
}

function roundStarted({ detail }: GameEvent): number | null {
  return detail.__typename === "TurnStarted" || detail.__typename === "FuturisikoPhaseTurnStarted" ? detail.round : null;
}
