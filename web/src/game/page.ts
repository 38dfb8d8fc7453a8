// A game: its map, live, what the viewer may do now, the players, the events in words; or, as
// a replay, the board at any move of it. A seat's token (kept in the browser for this game), or
// else the session of the account logged in (which acts for the account's seat in any game),
// makes the page that seat's; without either, or with a session that has no seat here, the
// page is a spectator's.

import { session } from "../account";
import { ApiError, request, tokens, type Json } from "../api";
import { GAME_STATE, LEGAL_ACTIONS, SUBMIT } from "../documents";
import { html } from "../dom";
import { errorText } from "../errors";
import { family, type Family } from "../families";
import { randomHex } from "../seeds";
import type { GameStateQuery, SubmitActionMutation } from "../generated/graphql";
import { t } from "../i18n";
import { colourOf, drawMap, type MapView, type Marks, type SpaceState, type Variant } from "../map/draw";
import { namesOf, type Names } from "../names";
import { standingsChart } from "../replay/chart";
import { history as replayHistory } from "../replay/fold";
import { replayControls, type Replay } from "../replay/view";
import { replayLink } from "../routes";
import { offer, renderActions } from "./actions";
import type { GameContext, State } from "./context";
import { eventLog, type Log } from "./log";
import { renderOutcome } from "./outcome";
import { renderSeating } from "./seating";
import { renderRegions, renderSeats } from "./seats";
import { renderExpected, renderRated } from "../ratings/game";
import type { GameEvent } from "../events";
import { EventStream } from "./stream";
import { extraMarks, renderClock, renderMine, spaceLabel, statusText } from "./view";

const SKELETON = `
  <main class="game" id="main">
    <div class="game-head"><h1 id="title">…</h1><p id="status" role="status"></p><p id="chosen" class="warn" hidden></p><p id="rated" class="rated" hidden></p><a id="to-replay" class="quiet" hidden></a></div>
    <div class="board"><div class="map-column"><div id="map"></div><div id="replay"></div></div>
      <aside>
        <section id="clock" hidden></section>
        <section id="outcome" hidden></section>
        <section id="actions" aria-label=""></section>
        <section id="space"></section>
        <section id="seating"></section>
        <section id="seats"></section>
        <section id="expected"></section>
        <section id="regions"></section>
        <section id="mine"></section>
        <div id="standings"></div>
        <div id="log"></div>
      </aside>
    </div>
    <div id="announce" class="visually-hidden" aria-live="polite"></div>
  </main>`;

/** `replayAt`: undefined for the live game; a version (or null: the last) for a replay. */
export function showGame(root: HTMLElement, variants: Promise<Variant[]>, gameId: string, replayAt?: number | null): () => void {
  const page = new GamePage(root, variants, gameId, replayAt);
  return () => page.stop();
}

class GamePage {
  private readonly page: HTMLElement;
  private token: string | null;
  private ctx: GameContext | null = null;
  private families: Family[] = [];
  private readonly chosen: { selected: string | null; target: string | null } = { selected: null, target: null };
  private map: MapView | null = null;
  private readonly replay: Replay | null = null;
  private variant: Variant | undefined;
  private readonly seatNames = new Map<number, string>();
  private currentNames: Names;
  // The names of the page's game, known once its variant is: every part asks them through here.
  private readonly names: Names;
  private readonly log: Log;
  private readonly stream: EventStream;
  private past = replayHistory([], [], [], 0);
  // Loads overlap when events come fast; only the latest one started may show what it read.
  private loads = 0;
  private pending: number | undefined;
  private readonly ticking: number;
  // The forms are made again only when what they offer changes: events that change nothing
  // of the viewer's choices (another seat's, the clock's) leave a half-filled form alone.
  private shownKey = "";
  private shownSeating = "";

  constructor(
    root: HTMLElement,
    private readonly variants: Promise<Variant[]>,
    private readonly gameId: string,
    private readonly replayAt: number | null | undefined,
  ) {
    root.replaceChildren(html(SKELETON));
    this.page = root.querySelector<HTMLElement>("main.game")!;
    this.token = tokens.get(gameId) ?? session.token();
    this.currentNames = namesOf(undefined, () => this.seatNames);
    this.names = new Proxy(this.currentNames, { get: (_, key: keyof Names) => this.currentNames[key] });
    const viewer = (): number | null => this.ctx?.state.viewerSeat ?? null;
    this.log = eventLog(gameId, () => this.stream.events, this.names, viewer, this.$("#announce"));
    this.$("#log").append(this.log.element);
    this.stream = new EventStream(gameId, () => this.token, () => this.ctx?.state.status === "FINISHED", (batch, live) => this.arrived(batch, live), () => this.tokenRefused());
    if (replayAt !== undefined) {
      this.replay = replayControls(gameId, this.names, viewer, replayAt, () => this.render());
      this.$("#replay").append(this.replay.element);
    }
    this.ticking = window.setInterval(() => renderClock(this.$("#clock"), this.ctx), 1000);
    void this.load().then(() => this.stream.follow());
    void this.stream.read.then(() => this.replay?.read());
  }

  stop(): void {
    window.clearInterval(this.ticking);
    window.clearTimeout(this.pending);
    this.replay?.stop();
    this.stream.stop();
  }

  private $<T extends HTMLElement>(selector: string): T {
    return this.page.querySelector<T>(selector)!;
  }

  private board(): ReadonlySet<string> {
    return new Set(this.variant?.board.territories.map((s) => s.id) ?? []);
  }

  private context(state: State): GameContext {
    const names = this.currentNames;
    const spaceDetail = (id: string): string => {
      const here = state.territories.find((s) => s.id === id);
      const holder = here?.owner === null || here?.owner === undefined ? null : names.player(here.owner);
      const units = here?.units.map((u) => names.units(u.kind, u.count)).join(", ");
      return [names.space(id), [holder, units].filter(Boolean).join(", ")].filter(Boolean).join(" — ");
    };
    const board = this.board();
    return {
      gameId: this.gameId,
      variant: this.variant!,
      state,
      token: this.token,
      names,
      words: { names, isSpace: (id) => board.has(id), spaceDetail },
      board,
      colour: (seat, neutral = null) => colourOf(neutral ?? (seat === null ? null : state.players.find((p) => p.seat === seat)?.colour)),
      submit: (action) => this.submit(action),
    };
  }

  private async load(): Promise<void> {
    const mine = ++this.loads;
    try {
      const data = await request<GameStateQuery>(GAME_STATE, { id: this.gameId }, this.token);
      if (mine !== this.loads) return;
      if (!data.game) return void (this.$("#status").textContent = t("game.missing"));
      const read = data.game;
      const offered = await this.legalActions(read);
      if (offered === null || mine !== this.loads) return;
      if ((!this.map && !(await this.drawn(read))) || mine !== this.loads) return;
      this.families = offered;
      this.arrive(read);
    } catch (failure) {
      if (mine !== this.loads) return;
      if (failure instanceof ApiError && failure.code === "UNAUTHENTICATED") return this.tokenRefused();
      if (!(failure instanceof ApiError)) console.error(failure); // a fault of this page's, for its tests
      this.$("#status").textContent = errorText(failure);
    }
  }

  /** The server refused this page's token (a database that is gone, a session ended or a seat
   * left elsewhere): forgotten, and the game watched instead. */
  private tokenRefused(): Promise<void> {
    if (this.token === null) return Promise.resolve();
    if (this.token === session.token()) session.forget();
    else tokens.forget(this.gameId);
    this.token = null;
    return this.load();
  }

  /** What the viewer may do in the game as read, if it is its move; null if the game moved
   * meanwhile (another load follows). */
  private async legalActions(read: State): Promise<Family[] | null> {
    if (!this.token || this.replayAt !== undefined || read.status !== "ACTIVE" || read.seatToAct !== read.viewerSeat) return [];
    const legal = await request<{ game: { version: number; legalActions: Json[] } }>(LEGAL_ACTIONS, { id: this.gameId }, this.token);
    if (legal.game.version === read.version) return legal.game.legalActions.map(family);
    this.schedule();
    return null;
  }

  /** The map of the game's board, drawn once its variant is known; false if it is not. */
  private async drawn(state: State): Promise<boolean> {
    const found = (await this.variants).find((v) => v.name === state.variant);
    if (!found) {
      this.$("#status").textContent = t("game.unknownVariant");
      return false;
    }
    if (this.map) return true; // another load drew it meanwhile
    this.variant = found;
    this.currentNames = namesOf(found, () => this.seatNames);
    this.map = drawMap(
      found,
      {
        choose: (space, byKeyboard) => this.choose(space, byKeyboard),
        colour: (seat, neutral) => this.ctx!.colour(seat, neutral),
        label: (space: SpaceState, marks: Marks) => spaceLabel(this.ctx!, space, marks),
      },
      this.$("#map"),
    );
    this.log.redraw();
    return true;
  }

  private arrive(state: State): void {
    for (const p of state.players) this.seatNames.set(p.seat, p.name);
    const first = this.ctx === null;
    this.ctx = this.context(state);
    if (first) this.fold(); // events that came before the game was read
    this.render();
  }

  private schedule(): void {
    window.clearTimeout(this.pending);
    this.pending = window.setTimeout(() => void this.load(), 120);
  }

  /** Events came: told in the log, the replay's history rebuilt, and the game read again. */
  private arrived(batch: GameEvent[], live: boolean): void {
    this.log.add(batch, live);
    this.fold();
    this.schedule();
  }

  /** The replay's history, rebuilt from every event seen (once the game's board is known). */
  private fold(): void {
    if (!this.variant || !this.ctx || !this.stream.events.length) return;
    const order = this.variant.board.territories.map((s) => s.id);
    this.past = replayHistory(this.stream.events, order, this.variant.unitKinds, this.ctx.state.players.length);
    this.replay?.update(this.past, this.stream.events);
  }

  private choose(space: string, byKeyboard = false): void {
    if (!this.ctx || this.replayAt !== undefined) return;
    const chosen = this.chosen;
    if (chosen.selected && offer(this.ctx, this.families, chosen).targets.has(space)) chosen.target = chosen.target === space ? null : space;
    else {
      chosen.selected = chosen.selected === space ? null : space;
      chosen.target = null;
    }
    this.shownKey = "";
    this.render();
    if (byKeyboard) this.focusForm(space);
  }

  /** After a space is chosen by keyboard, on to what it offers: the form that now names it
   * (its button), else the first field of what it starts. */
  private focusForm(space: string): void {
    const forms = [...this.page.querySelectorAll<HTMLFormElement>("#actions form.family")];
    const naming = forms.find((form) => [...form.querySelectorAll("select")].some((select) => select.value === space));
    const next = naming?.querySelector<HTMLElement>("button[type=submit]") ?? this.page.querySelector<HTMLElement>("#actions .space-title ~ form :is(select, input, button)");
    next?.focus();
  }

  private async submit(action: Json): Promise<void> {
    if (!this.ctx) return;
    try {
      const input = { gameId: this.gameId, action, expectedVersion: this.ctx.state.version, clientMutationId: randomHex() };
      const answer = await request<SubmitActionMutation>(SUBMIT, { input }, this.token);
      const refused = answer.submitAction.userErrors[0];
      if (refused) throw new ApiError(refused.code, refused.message);
      this.chosen.selected = this.chosen.target = null;
      await this.load();
    } catch (failure) {
      this.shownKey = "";
      await this.load();
      this.$("#actions").prepend(Object.assign(html(`<p class="error" role="alert"></p>`), { textContent: errorText(failure) }));
    }
  }

  private render(): void {
    const ctx = this.ctx;
    if (!ctx || !this.map) return;
    this.renderHead(ctx);
    this.renderBoard(ctx);
    renderSeats(this.$("#seats"), ctx);
    renderExpected(this.$("#expected"), ctx);
    renderRegions(this.$("#regions"), ctx);
    this.renderSeating(ctx);
    this.renderActions(ctx);
    this.renderSpace(ctx);
    renderMine(this.$("#mine"), ctx);
    renderOutcome(this.$("#outcome"), ctx);
    renderClock(this.$("#clock"), ctx);
    this.renderStandings(ctx);
  }

  private renderHead(ctx: GameContext): void {
    const { state } = ctx;
    this.$("#title").textContent = ctx.variant.title;
    this.page.dataset.version = String(state.version); // what this page shows (tests wait on it)
    this.$("#status").textContent = this.replayAt === undefined ? statusText(ctx) : t("replay.status");
    this.$("#chosen").hidden = !state.seedChosen;
    this.$("#chosen").textContent = t("game.chosenSeed");
    renderRated(this.$("#rated"), state);
    const toReplay = this.$<HTMLAnchorElement>("#to-replay");
    toReplay.hidden = this.replayAt !== undefined || state.status === "LOBBY";
    toReplay.href = replayLink(this.gameId);
    toReplay.textContent = t("replay.open");
  }

  private renderBoard(ctx: GameContext): void {
    const reach = offer(ctx, this.families, this.chosen);
    const marks: Marks = { act: reach.act, targets: reach.targets, ...this.chosen, ...extraMarks(ctx) };
    if (this.replay) this.map!.update(this.replayBoard(), { ...marks, act: new Set(), targets: new Set() });
    else this.map!.update(ctx.state.territories, marks);
    // The first board drawn: what benchmarks/web.py times.
    if (!performance.getEntriesByName("risiko:board").length) performance.mark("risiko:board");
  }

  /** The seating, drawn again only when it changes: a name being typed stays. */
  private renderSeating(ctx: GameContext): void {
    const { state } = ctx;
    const key = JSON.stringify([state.status, this.token, state.players.length, state.seedChosen, document.documentElement.lang]);
    if (key === this.shownSeating) return;
    this.shownSeating = key;
    const box = this.$("#seating");
    if (state.status !== "LOBBY") return box.replaceChildren();
    const seated = async (next: string | null): Promise<void> => {
      this.token = next;
      await this.load();
    };
    renderSeating(box, { gameId: this.gameId, state, token: this.token, seated });
  }

  private renderActions(ctx: GameContext): void {
    const key = JSON.stringify([this.chosen, this.families.map((f) => f.values), document.documentElement.lang, ctx.state.version]);
    if (key === this.shownKey || this.replayAt !== undefined) return;
    this.shownKey = key;
    renderActions(this.$("#actions"), ctx, this.families, this.chosen, (space) => this.choose(space, true));
    this.$("#actions").setAttribute("aria-label", t("panel.label"));
  }

  /** The space chosen, in words, when it offers nothing to do. */
  private renderSpace(ctx: GameContext): void {
    const box = this.$("#space");
    box.replaceChildren();
    const space = ctx.state.territories.find((s) => s.id === this.chosen.selected);
    if (!space || this.page.querySelector("#actions .space-title")) return;
    const line = html(`<p class="space-info"></p>`);
    line.textContent = spaceLabel(ctx, space, { act: new Set(), targets: new Set(), selected: null, target: null, ...extraMarks(ctx) });
    box.append(line);
  }

  private replayBoard(): State["territories"] {
    const board = this.past.boards[this.replay!.position()] ?? [];
    return board.map((s) => ({ ...s, __typename: "TerritoryState" as const, units: s.units.map((u) => ({ ...u, __typename: "UnitStack" as const })) }));
  }

  private renderStandings(ctx: GameContext): void {
    const box = this.$("#standings");
    if ((this.replayAt === undefined && ctx.state.status !== "FINISHED") || !this.past.standings.length) return box.replaceChildren();
    const players = ctx.state.players.map((p) => ({ name: p.name, colour: ctx.colour(p.seat) }));
    box.replaceChildren(standingsChart(this.past.standings, players, ctx.variant.unitKinds.includes("army")));
  }
}
