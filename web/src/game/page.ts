// A game: its map, live, what the viewer may do now, the players, the events in words; or, as
// a replay, the board at any move of it. A seat's token (kept in the browser for this game)
// makes the page that seat's; without one, the page is a spectator's.

import { ApiError, request, subscribe, tokens, type Json } from "../api";
import { EVENTS, GAME_STATE, SUBMIT, legalQuery } from "../documents";
import { html } from "../dom";
import { errorText } from "../errors";
import { fromLegacy, type GameEvent, type UnknownEvent } from "../events";
import { family, fragments, type Family } from "../families";
import { randomHex } from "../seeds";
import type { GameEventsSubscription, GameStateQuery, SubmitActionMutation } from "../generated/graphql";
import { t } from "../i18n";
import { colourOf, drawMap, type MapView, type Marks, type SpaceState, type Variant } from "../map/draw";
import { namesOf, type Names } from "../names";
import { standingsChart } from "../replay/chart";
import { history as replayHistory } from "../replay/fold";
import { replayControls, type Replay } from "../replay/view";
import { replayLink } from "../routes";
import { offer, renderActions } from "./actions";
import type { GameContext, State } from "./context";
import { eventLog } from "./log";
import { renderOutcome } from "./outcome";
import { renderSeating } from "./seating";
import { renderRegions, renderSeats } from "./seats";
import { extraMarks, renderClock, renderMine, spaceLabel, statusText } from "./view";

const SKELETON = `
  <main class="game" id="main">
    <div class="game-head"><h1 id="title">…</h1><p id="status" role="status"></p><p id="chosen" class="warn" hidden></p><a id="to-replay" class="quiet" hidden></a></div>
    <div class="board"><div class="map-column"><div id="map"></div><div id="replay"></div></div>
      <aside>
        <section id="clock" hidden></section>
        <section id="outcome" hidden></section>
        <section id="actions" aria-label=""></section>
        <section id="space"></section>
        <section id="seating"></section>
        <section id="seats"></section>
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
  root.replaceChildren(html(SKELETON));
  const page = root.querySelector<HTMLElement>("main.game")!;
  const $ = <T extends HTMLElement>(selector: string): T => page.querySelector<T>(selector)!;
  let token = tokens.get(gameId);
  let ctx: GameContext | null = null;
  let families: Family[] = [];
  const chosen: { selected: string | null; target: string | null } = { selected: null, target: null };
  const events: (GameEvent | UnknownEvent)[] = [];
  let lastSeq = 0;
  let stopped = false;
  let map: MapView | null = null;
  let replay: Replay | null = null;
  let variant: Variant | undefined;
  const seatNames = new Map<number, string>();
  let currentNames = namesOf(undefined, () => seatNames);
  // The names of the page's game, known once its variant is: every part asks them through here.
  const names: Names = new Proxy(currentNames, { get: (_, key: keyof Names) => currentNames[key] });
  const log = eventLog(gameId, () => events, names, () => ctx?.state.viewerSeat ?? null, $("#announce"));
  $("#log").append(log.element);

  const board = (): ReadonlySet<string> => new Set(variant?.board.territories.map((s) => s.id) ?? []);

  function context(state: State): GameContext {
    const spaceDetail = (id: string): string => {
      const here = state.territories.find((s) => s.id === id);
      const holder = here?.owner === null || here?.owner === undefined ? null : currentNames.player(here.owner);
      const units = here?.units.map((u) => currentNames.units(u.kind, u.count)).join(", ");
      return [currentNames.space(id), [holder, units].filter(Boolean).join(", ")].filter(Boolean).join(" — ");
    };
    return {
      gameId,
      variant: variant!,
      state,
      token,
      names: currentNames,
      words: { names: currentNames, isSpace: (id) => board().has(id), spaceDetail },
      board: board(),
      colour: (seat, neutral = null) => colourOf(neutral ?? (seat === null ? null : state.players.find((p) => p.seat === seat)?.colour)),
      submit,
    };
  }

  // Loads overlap when events come fast; only the latest one started may show what it read.
  let loads = 0;
  async function load(): Promise<void> {
    const mine = ++loads;
    try {
      const data = await request<GameStateQuery>(GAME_STATE, { id: gameId }, token);
      if (mine !== loads) return;
      if (!data.game) return void ($("#status").textContent = t("game.missing"));
      const read = data.game;
      let offered: Family[] = [];
      if (token && replayAt === undefined && read.status === "ACTIVE" && read.seatToAct === read.viewerSeat) {
        const legal = await request<{ game: { version: number; legalActions: Json[] } }>(legalQuery(await fragments()), { id: gameId }, token);
        if (mine !== loads) return;
        if (legal.game.version !== read.version) return void schedule();
        offered = legal.game.legalActions.map(family);
      }
      if ((!map && !(await drawn(read))) || mine !== loads) return;
      families = offered;
      arrive(read);
    } catch (failure) {
      if (mine !== loads) return;
      if (failure instanceof ApiError && failure.code === "UNAUTHENTICATED") {
        tokens.forget(gameId); // a token of a database that is gone: watch instead
        token = null;
        return load();
      }
      if (!(failure instanceof ApiError)) console.error(failure); // a fault of this page's, for its tests
      $("#status").textContent = errorText(failure);
    }
  }

  /** The map of the game's board, drawn once its variant is known; false if it is not. */
  async function drawn(state: State): Promise<boolean> {
    const found = (await variants).find((v) => v.name === state.variant);
    if (!found) {
      $("#status").textContent = t("game.unknownVariant");
      return false;
    }
    if (map) return true; // another load drew it meanwhile
    variant = found;
    currentNames = namesOf(variant, () => seatNames);
    const hooks = { choose, colour: (seat: number | null, neutral: string | null) => ctx!.colour(seat, neutral), label: (space: SpaceState, marks: Marks) => spaceLabel(ctx!, space, marks) };
    map = drawMap(variant, hooks, $("#map"));
    log.redraw();
    return true;
  }

  function arrive(state: State): void {
    for (const p of state.players) seatNames.set(p.seat, p.name);
    ctx = context(state);
    render();
  }

  let pending: number | undefined;
  function schedule(): void {
    window.clearTimeout(pending);
    pending = window.setTimeout(() => void load(), 120);
  }

  function choose(space: string, byKeyboard = false): void {
    if (!ctx || replayAt !== undefined) return;
    const reach = offer(ctx, families, chosen);
    if (chosen.selected && reach.targets.has(space)) chosen.target = chosen.target === space ? null : space;
    else {
      chosen.selected = chosen.selected === space ? null : space;
      chosen.target = null;
    }
    shownKey = "";
    render();
    if (byKeyboard) focusForm(space);
  }

  /** After a space is chosen by keyboard, on to what it offers: the form that now names it
   * (its button), else the first field of what it starts. */
  function focusForm(space: string): void {
    const forms = [...page.querySelectorAll<HTMLFormElement>("#actions form.family")];
    const naming = forms.find((form) => [...form.querySelectorAll("select")].some((select) => select.value === space));
    const next = naming?.querySelector<HTMLElement>("button[type=submit]") ?? page.querySelector<HTMLElement>("#actions .space-title ~ form :is(select, input, button)");
    next?.focus();
  }

  async function submit(action: Json): Promise<void> {
    if (!ctx) return;
    try {
      const answer = await request<SubmitActionMutation>(SUBMIT, { input: { gameId, action, expectedVersion: ctx.state.version, clientMutationId: randomHex() } }, token);
      const refused = answer.submitAction.userErrors[0];
      if (refused) throw new ApiError(refused.code, refused.message);
      chosen.selected = chosen.target = null;
      await load();
    } catch (failure) {
      shownKey = "";
      await load();
      $("#actions").prepend(Object.assign(html(`<p class="error" role="alert"></p>`), { textContent: errorText(failure) }));
    }
  }

  // The forms are made again only when what they offer changes: events that change nothing
  // of the viewer's choices (another seat's, the clock's) leave a half-filled form alone.
  let shownKey = "";
  let shownSeating = "";

  function render(): void {
    if (!ctx || !map) return;
    const { state } = ctx;
    $("#title").textContent = ctx.variant.title;
    page.dataset.version = String(state.version); // what this page shows (tests wait on it)
    $("#status").textContent = replayAt === undefined ? statusText(ctx) : t("replay.status");
    $("#chosen").hidden = !state.seedChosen;
    $("#chosen").textContent = t("game.chosenSeed");
    const toReplay = $<HTMLAnchorElement>("#to-replay");
    toReplay.hidden = replayAt !== undefined || state.status === "LOBBY";
    toReplay.href = replayLink(gameId);
    toReplay.textContent = t("replay.open");
    const reach = offer(ctx, families, chosen);
    const marks: Marks = { act: reach.act, targets: reach.targets, selected: chosen.selected, target: chosen.target, ...extraMarks(ctx) };
    map.update(replay ? replayBoard() : state.territories, replay ? { ...marks, act: new Set(), targets: new Set() } : marks);
    // The first board drawn: what benchmarks/web.py times.
    if (!performance.getEntriesByName("risiko:board").length) performance.mark("risiko:board");
    renderSeats($("#seats"), ctx);
    renderRegions($("#regions"), ctx);
    // The seating is drawn again only when it changes: a name being typed stays.
    const seatingKey = JSON.stringify([state.status, token, state.players.length, state.seedChosen, document.documentElement.lang]);
    if (seatingKey !== shownSeating) {
      shownSeating = seatingKey;
      if (state.status === "LOBBY") renderSeating($("#seating"), { gameId, state, token, seated: async (next) => ((token = next), await load()) });
      else $("#seating").replaceChildren();
    }
    const key = JSON.stringify([chosen, families.map((f) => f.values), document.documentElement.lang, state.version]);
    if (key !== shownKey && replayAt === undefined) {
      shownKey = key;
      renderActions($("#actions"), ctx, families, chosen, (space) => choose(space, true));
      $("#actions").setAttribute("aria-label", t("panel.label"));
    }
    renderSpace();
    renderMine($("#mine"), ctx);
    renderOutcome($("#outcome"), ctx);
    renderClock($("#clock"), ctx);
    renderStandings();
  }

  function renderSpace(): void {
    const box = $("#space");
    box.replaceChildren();
    if (!ctx || !chosen.selected || page.querySelector("#actions .space-title")) return;
    const space = ctx.state.territories.find((s) => s.id === chosen.selected);
    if (!space) return;
    const line = html(`<p class="space-info"></p>`);
    line.textContent = spaceLabel(ctx, space, { act: new Set(), targets: new Set(), selected: null, target: null, ...extraMarks(ctx) });
    box.append(line);
  }

  let past = replayHistory([], [], [], 0);
  function replayBoard(): State["territories"] {
    const board = past.boards[replay!.position()] ?? [];
    return board.map((s) => ({ ...s, __typename: "TerritoryState" as const, units: s.units.map((u) => ({ ...u, __typename: "UnitStack" as const })) }));
  }

  function renderStandings(): void {
    const box = $("#standings");
    if (!ctx || (replayAt === undefined && ctx.state.status !== "FINISHED") || !past.standings.length) return box.replaceChildren();
    const players = ctx.state.players.map((p) => ({ name: p.name, colour: ctx!.colour(p.seat) }));
    box.replaceChildren(standingsChart(past.standings, players, ctx.variant.unitKinds.includes("army")));
  }

  // Events: the history first (told quietly), then live ones (announced).
  let batch: (GameEvent | UnknownEvent)[] = [];
  let flushing: number | undefined;
  function flush(): void {
    const live = events.length > 0 && batch.length < 3;
    events.push(...batch);
    log.add(batch, live);
    batch = [];
    if (variant && ctx) {
      const order = variant.board.territories.map((s) => s.id);
      past = replayHistory(events, order, variant.unitKinds, ctx.state.players.length);
      replay?.update(past, events);
    }
    schedule();
  }
  function received(data: GameEventsSubscription): void {
    const event = fromLegacy(data.gameEvents);
    lastSeq = Math.max(lastSeq, event.seq);
    batch.push(event);
    window.clearTimeout(flushing);
    flushing = window.setTimeout(flush, 60);
  }

  if (replayAt !== undefined) {
    replay = replayControls(gameId, names, () => ctx?.state.viewerSeat ?? null, replayAt, () => render());
    $("#replay").append(replay.element);
  }
  const ticking = window.setInterval(() => renderClock($("#clock"), ctx), 1000);
  let unsubscribe = (): void => {};
  const follow = (): void => {
    unsubscribe = subscribe<GameEventsSubscription>(EVENTS, { id: gameId, after: lastSeq }, token, received, () => {
      // The server ended the stream (the game is over, or this page fell behind): resume
      // after the last event seen, unless the game is over.
      if (!stopped && ctx?.state.status !== "FINISHED") window.setTimeout(follow, 1000);
    });
  };
  void load().then(follow);
  return () => {
    stopped = true;
    window.clearInterval(ticking);
    window.clearTimeout(pending);
    window.clearTimeout(flushing);
    replay?.stop();
    unsubscribe();
  };
}
