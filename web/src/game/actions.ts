// What the viewer can do now, one panel for the phase it is in: a heading and a sentence in the
// player's words (with what is left to place, or the points to spend), the forms of what needs
// no place, the forms of what the chosen space offers, and the places where it may act, as
// buttons (a keyboard's way to them besides the map).

import { html } from "../dom";
import { origins, startsHere, targets, type Family } from "../families";
import { t, tOr } from "../i18n";
import type { GameContext } from "./context";
import { familyForm, type Chosen } from "./forms";

export interface Offer {
  /** Spaces where the viewer may start something: filled and outlined on the map. */
  act: Set<string>;
  /** Spaces the chosen one reaches (an attack's targets): outlined. */
  targets: Set<string>;
}

/** Families that start from one space, by that space; the others (placing on one of many
 * spaces, or on none) are always shown. A decision that is the only thing to do is too. */
function split(families: Family[], board: ReadonlySet<string>): { general: Family[]; here: Map<string, Family[]> } {
  const members = new Set(families.map((f) => f.member));
  const starts = new Set(families.flatMap((f) => (startsHere(f, board) ? origins(f, board) : [])));
  const forced = members.size === 1 && starts.size <= 1;
  const general: Family[] = [];
  const here = new Map<string, Family[]>();
  for (const f of families) {
    if (forced || !startsHere(f, board)) general.push(f);
    else for (const space of origins(f, board)) here.set(space, [...(here.get(space) ?? []), f]);
  }
  return { general, here };
}

export function offer(ctx: GameContext, families: Family[], chosen: Chosen): Offer {
  const act = new Set<string>();
  const reach = new Set<string>();
  for (const f of families) {
    const from = origins(f, ctx.board);
    for (const space of from) act.add(space);
    if (chosen.selected && from.includes(chosen.selected)) for (const space of targets(f, ctx.board)) reach.add(space);
  }
  return { act, targets: reach };
}

// Offered with the rest but never what the turn is about: shown last.
const LAST = ["setStandingOrders", "endTurn"];

/** Families grouped into forms: one per kind of action and all it names but its target (an
 * attack from one place to any of its targets is one form with a choice of target). */
function groups(families: Family[]): Family[][] {
  families = [...families].sort((a, b) => LAST.indexOf(a.member) - LAST.indexOf(b.member));
  const byKey = new Map<string, Family[]>();
  for (const f of families) {
    const rest = Object.entries(f.values).filter(([field]) => field !== "target" && field !== "input" && !/^(min|max)[A-Z]/.test(field));
    const key = JSON.stringify([f.member, rest]);
    byKey.set(key, [...(byKey.get(key) ?? []), f]);
  }
  return [...byKey.values()];
}

/** The phase's heading and what it asks, from the game as it stands. */
function intro(ctx: GameContext): { heading: string; text: string } {
  const { state } = ctx;
  const phase = shownPhase(state.phase, state.armiesToPlace, state.piecesToPlace);
  const values = {
    armies: state.armiesToPlace,
    pieces: state.piecesToPlace.map((p) => ctx.names.units(p.kind, p.count)).join(", "),
    points: state.state?.__typename === "FutuRisiKoState" ? state.state.pointsLeft : 0,
    costs: costs(ctx),
  };
  return {
    heading: tOr(`phase.${phase}`, t("phase.other")),
    text: tOr(`panel.${phase}`, "", values),
  };
}

/** "a tank 1 point, an aircraft 2, a submarine 5" (FutuRisiKo!'s production). */
function costs(ctx: GameContext): string {
  const game = ctx.state.state;
  if (game?.__typename !== "FutuRisiKoState") return "";
  return ctx.variant.unitKinds.map((kind, i) => t("panel.cost", { unit: tOr(`unit.${kind}`, t("name.unit")), points: game.unitCosts[i] })).join(", ");
}

/** The phase as the player lives it: reinforcements with nothing left to place are over. */
export function shownPhase(phase: string | null, armiesToPlace: number, pieces: { count: number }[]): string {
  if (phase === "REINFORCE" && armiesToPlace === 0 && pieces.every((p) => p.count === 0)) return "REINFORCE_DONE";
  return phase ?? "LOBBY";
}

export function renderActions(box: HTMLElement, ctx: GameContext, families: Family[], chosen: Chosen, choose: (space: string) => void): void {
  box.replaceChildren();
  if (!families.length) return;
  const { general, here } = split(families, ctx.board);
  const { heading, text } = intro(ctx);
  box.append(html(`<h2>${heading}</h2>`));
  if (text) box.append(html(`<p class="counter"></p>`));
  box.querySelector(".counter")?.replaceChildren(text);
  for (const group of groups(general)) box.append(familyForm(ctx, group, chosen));
  const fromHere = chosen.selected ? here.get(chosen.selected) : undefined;
  if (fromHere) {
    const title = html(`<h3 class="space-title"></h3>`);
    title.textContent = t("panel.from", { space: ctx.words.spaceDetail(chosen.selected!) });
    box.append(title);
    for (const group of groups(fromHere)) box.append(familyForm(ctx, group, chosen));
  }
  if (here.size && !fromHere) {
    box.append(html(`<p class="hint">${t("panel.choose")}</p>`));
    const places = html(`<ul class="places" aria-label="${t("panel.places")}"></ul>`);
    for (const space of here.keys()) {
      const button = html(`<li><button type="button" class="place" data-space="${space}"></button></li>`);
      button.querySelector("button")!.textContent = ctx.names.space(space);
      button.querySelector("button")!.addEventListener("click", () => choose(space));
      places.append(button);
    }
    box.append(places);
  }
}
