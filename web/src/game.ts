// A game: its map, live, and what the viewer may do now. A seat's token (kept in the browser
// for this game) makes the page that seat's; without one, the page is a spectator's.

import { ApiError, checked, request, subscribe, tokens, type Json } from "./api";
import { ADD_BOT, EVENTS, GAME_STATE, JOIN, LEAVE, ODDS, START, SUBMIT, legalQuery } from "./documents";
import { escape, html, on } from "./dom";
import { actionInput, family, familyTypes, fragments, params, spacesOf, title, type Family } from "./families";
import type {
  AddBotMutation,
  GameEventsSubscription,
  GameStateQuery,
  JoinGameMutation,
  LeaveGameMutation,
  OddsQuery,
  StartGameMutation,
  SubmitActionMutation,
} from "./generated/graphql";
import { checkChain, randomHex, sentSeeds } from "./fairness";
import { colourOf, drawMap, type Variant } from "./map";
import { describe } from "./words";

type State = NonNullable<GameStateQuery["game"]>;

export function showGame(root: HTMLElement, variants: Variant[], gameId: string): () => void {
  root.innerHTML = "";
  let token = tokens.get(gameId);
  let state: State | null = null;
  let families: Family[] = [];
  let selected: string | null = null;
  let lastSeq = 0;
  let stopped = false;
  let variant: Variant | undefined;
  let map: ReturnType<typeof drawMap> | null = null;
  const log: string[] = [];

  const page = html(`
    <main class="game">
      <header><a href="#/" class="quiet">← Lobby</a><h1 id="title">…</h1><p id="status" aria-live="polite"></p><p id="chosen" class="warn" hidden>Chosen seed: whoever created this game chose its seed, and knows every roll and card to come.</p></header>
      <div class="board"><div id="map"></div>
        <aside>
          <section id="clock" hidden></section>
          <section id="seats"></section>
          <section id="actions"></section>
          <section id="space"></section>
          <section id="mine"></section>
          <section id="outcome" hidden></section>
          <details id="log" open><summary>Events, newest first</summary><ul></ul></details>
        </aside>
      </div>
    </main>`);
  root.append(page);
  const $ = <T extends HTMLElement>(selector: string): T => page.querySelector<T>(selector)!;

  const names = {
    player: (seat: number) => state?.players.find((p) => p.seat === seat)?.name ?? `seat ${seat}`,
    space: (id: string) => variant?.board.territories.find((t) => t.id === id)?.name ?? null,
  };
  const colourOfSeat = (seat: number | null): string =>
    seat === null ? colourOf(null) : colourOf(state?.players.find((p) => p.seat === seat)?.colour);
  const spaceIds = (): Set<string> => new Set(variant?.board.territories.map((t) => t.id) ?? []);

  // Loads overlap when events come fast; only the latest one started may show what it
  // read, or an older answer arriving last would leave the page behind the game.
  let loads = 0;

  async function load(): Promise<void> {
    const mine = ++loads;
    try {
      const data = await request<GameStateQuery>(GAME_STATE, { id: gameId }, token);
      if (mine !== loads) return;
      if (!data.game) {
        $("#status").textContent = "There is no such game.";
        return;
      }
      const read = data.game;
      let offered: Family[] = [];
      if (token && read.status === "ACTIVE" && read.seatToAct === read.viewerSeat) {
        const known = await familyTypes();
        const legal = await request<{ game: { version: number; legalActions: Json[] } }>(
          legalQuery(await fragments()),
          { id: gameId },
          token,
        );
        if (mine !== loads) return;
        if (legal.game.version !== read.version) return void schedule();
        offered = legal.game.legalActions.map((raw) => family(raw, known));
      }
      state = read;
      families = offered;
      render();
    } catch (failure) {
      if (mine !== loads) return;
      if (failure instanceof ApiError && failure.code === "UNAUTHENTICATED") {
        tokens.forget(gameId); // a token of a database that is gone: watch instead
        token = null;
        return load();
      }
      $("#status").textContent = failure instanceof Error ? failure.message : String(failure);
    }
  }

  let pending: number | undefined;
  function schedule(): void {
    window.clearTimeout(pending);
    pending = window.setTimeout(() => void load(), 120);
  }

  function render(): void {
    if (!state) return;
    variant = variants.find((v) => v.name === state!.variant);
    if (variant && !map) {
      map = drawMap(variant, (space) => {
        selected = selected === space ? null : space;
        render();
      });
      $("#map").append(map.svg);
    }
    $("#title").textContent = `${variant?.title ?? state.variant}`;
    page.dataset.version = String(state.version); // what this page shows (tests wait on it)
    const me = state.viewerSeat;
    const turn = state.seatToAct;
    let status = `${state.status.toLowerCase()}`;
    if (state.status === "ACTIVE") {
      status = `Round ${state.round}, ${String(state.phase ?? "").toLowerCase().replace(/_/g, " ")} — `;
      status += turn === null ? "" : turn === me ? "your move" : `${names.player(turn)} to play`;
      if (turn === me && state.armiesToPlace) status += ` (${state.armiesToPlace} armies to place)`;
    }
    $("#status").textContent = status;
    $("#chosen").hidden = !state.seedChosen;
    const highlight = new Set<string>();
    for (const f of families) for (const s of spacesOf(f, spaceIds())) highlight.add(s);
    map?.update(state.territories, colourOfSeat, highlight, selected);
    renderSeats();
    renderChoices();
    renderMine();
    renderOutcome();
    renderClock();
  }

  function renderSeats(): void {
    const s = state!;
    // Victory points, in the games that score them (an option says so).
    const scored = variant?.options.some((option) => option.name === "victory_points") ?? false;
    const rows = s.players
      .map((p) => {
        const flags = [p.bot ? "<span class=badge>bot</span>" : "", p.eliminated ? "out" : "", p.resigned ? "resigned" : "", p.absences ? `absent ×${p.absences}` : ""]
          .filter(Boolean)
          .join(" ");
        const current = p.seat === s.seatToAct ? " class=\"to-act\"" : "";
        return `<tr${current} data-seat="${p.seat}"><td><span class="swatch" style="background:${colourOf(p.colour)}"></span>${escape(p.name)}${
          p.seat === s.viewerSeat ? " (you)" : ""
        }</td><td>${p.territories}</td><td>${p.armies}</td><td>${p.cards}</td>${
          scored ? `<td>${p.victoryPoints}</td>` : ""
        }<td>${flags}</td></tr>`;
      })
      .join("");
    const points = scored ? "<th>VP</th>" : "";
    $("#seats").innerHTML = `<table class="players"><thead><tr><th>Player</th><th title="territories">Terr.</th><th>Armies</th><th>Cards</th>${points}<th></th></tr></thead><tbody>${rows}</tbody></table>`;
    if (s.status === "LOBBY") renderLobby();
  }

  function renderLobby(): void {
    const s = state!;
    const box = html(`<div class="seating"></div>`);
    if (!token) {
      // A game whose seed was chosen: told before sitting down, and asked to confirm.
      const warning = s.seedChosen
        ? `<p class="warn" role="alert">Whoever created this game chose its seed: they know every roll and card to come.</p><label class="confirm"><input type="checkbox" name="acceptChosenSeed" required> I accept playing with dice known in advance</label>`
        : "";
      const join = html(`<form class="join">${warning}<input name="name" required maxlength="40" placeholder="Your name"><button>${s.seedChosen ? "Take a seat anyway" : "Take a seat"}</button><p class="error" role="alert"></p></form>`);
      on(join as HTMLFormElement, "submit", async (event) => {
        event.preventDefault();
        const name = String(new FormData(join as HTMLFormElement).get("name"));
        const clientSeed = randomHex(); // this seat's contribution to the dice's seed
        try {
          const joined = checked((await request<JoinGameMutation>(JOIN, { input: { gameId, name, clientSeed } })).joinGame);
          tokens.set(gameId, joined.token!);
          if (joined.clientSeedAccepted) sentSeeds.keep(gameId, clientSeed);
          token = joined.token;
          await load();
        } catch (failure) {
          join.querySelector(".error")!.textContent = String((failure as Error).message);
        }
      });
      box.append(join);
    } else {
      const buttons = html(`<div class="buttons"><button data-do="bot">Add a bot</button><button data-do="start">Start</button><button data-do="leave">Leave</button><p class="error" role="alert"></p></div>`);
      for (const button of buttons.querySelectorAll<HTMLButtonElement>("button")) {
        on(button, "click", async () => {
          try {
            const input = { input: { gameId } };
            if (button.dataset.do === "bot") checked((await request<AddBotMutation>(ADD_BOT, input, token)).addBot);
            if (button.dataset.do === "start") {
              // A fresh contribution, given now that every other is fixed: the last one, so
              // nobody could have chosen theirs knowing it.
              const clientSeed = randomHex();
              const started = checked((await request<StartGameMutation>(START, { input: { gameId, clientSeed } }, token)).startGame);
              if (started.clientSeedAccepted) sentSeeds.keep(gameId, clientSeed);
            }
            if (button.dataset.do === "leave") {
              checked((await request<LeaveGameMutation>(LEAVE, input, token)).leaveGame);
              tokens.forget(gameId);
              token = null;
            }
            await load();
          } catch (failure) {
            buttons.querySelector(".error")!.textContent = String((failure as Error).message);
          }
        });
      }
      box.append(buttons);
    }
    box.append(html(`<p class="quiet">${s.players.length} seated; the game starts when a seated player starts it.</p>`));
    $("#seats").append(box);
  }

  function familyForm(f: Family, focus: string | null): HTMLElement {
    const form = html(`<form class="family" data-family="${f.type}" data-member="${f.member}"><strong>${title(f.member)}</strong> <span class="about">${escape(f.about)}</span><div class="params"></div><button type="submit">${title(f.member)}</button><span class="odds"></span></form>`) as HTMLFormElement;
    const box = form.querySelector(".params")!;
    for (const p of params(f)) {
      if (p.kind === "range") {
        box.append(html(`<label>${p.name} <input type="number" name="${p.name}" min="${p.min}" max="${p.max}" value="${p.value}"> <small>${p.min}–${p.max}</small></label>`));
      } else if (p.kind === "choice") {
        const chosen = focus && p.options.includes(focus) ? focus : p.value;
        const options = p.options.map((o) => `<option value="${o}"${o === chosen ? " selected" : ""}>${escape(names.space(o) ?? o)}</option>`).join("");
        box.append(html(`<label>${p.name} <select name="${p.name}">${options}</select></label>`));
      } else if (typeof p.value === "string") {
        box.append(html(`<span class="fixed">${p.name}: ${escape(names.space(p.value) ?? p.value)}</span>`));
      } else if (Array.isArray(p.value)) {
        box.append(html(`<span class="fixed">${p.name}: ${escape(p.value.map((v) => names.space(String(v)) ?? String(v)).join(", "))}</span>`));
      }
    }
    const source = f.values.source;
    const target = f.values.target;
    if (typeof source === "string" && typeof target === "string" && state) {
      const armies = (id: string) => state!.territories.find((t) => t.id === id)?.units.filter((u) => u.kind === "army").reduce((n, u) => n + u.count, 0) ?? 0;
      const attackers = armies(source) - 1;
      const defenders = armies(target);
      const owner = state.territories.find((t) => t.id === target)?.owner;
      if (attackers > 0 && defenders > 0 && owner !== state.viewerSeat) {
        void request<OddsQuery>(ODDS, { attackers, defenders }).then((odds) => {
          const p = odds.battleOdds.conquestProbability;
          form.querySelector(".odds")!.textContent = ` conquest ${(100 * p).toFixed(1)} % (${attackers} v ${defenders})`;
        });
      }
    }
    on(form, "submit", async (event) => {
      event.preventDefault();
      const chosen: Record<string, unknown> = {};
      for (const p of params(f)) {
        const field = form.elements.namedItem(p.name) as HTMLInputElement | HTMLSelectElement | null;
        if (!field) continue;
        chosen[p.name] = p.kind === "range" ? Number(field.value) : field.value;
      }
      await submit(actionInput(f, chosen));
    });
    return form;
  }

  async function submit(action: Json): Promise<void> {
    if (!state) return;
    try {
      const answer = await request<SubmitActionMutation>(
        SUBMIT,
        { input: { gameId, action, expectedVersion: state.version, clientMutationId: randomHex() } },
        token,
      );
      checked(answer.submitAction);
      selected = null;
      await load();
    } catch (failure) {
      shownKey = "";
      schedule();
      window.setTimeout(() => $("#actions").prepend(html(`<p class="error" role="alert">${escape(String((failure as Error).message))}</p>`)), 200);
    }
  }

  // The forms are made again only when what they offer changes: events that change nothing
  // of the viewer's choices (another seat's, the clock's) leave a half-filled form alone.
  let shownKey = "";

  function renderChoices(): void {
    const key = JSON.stringify([selected, families.map((f) => f.values)]);
    if (key === shownKey) return;
    shownKey = key;
    renderActions();
    renderSpace();
  }

  function renderActions(): void {
    const box = $("#actions");
    box.innerHTML = "";
    if (!families.length) return;
    const ids = spaceIds();
    // Families with no place on the map (end the turn, trade a set) are listed here; so is
    // a decision that is the only thing to do (move in after a conquest, answer an attack).
    const kinds = new Set(families.map((f) => f.member));
    const general = kinds.size === 1 && families.length <= 3 ? families : families.filter((f) => spacesOf(f, ids).length === 0);
    box.append(html(`<h2>Your move</h2>`));
    if (!selected) box.append(html(`<p class="quiet">Click a highlighted space for what you may do there.</p>`));
    for (const f of general) box.append(familyForm(f, null));
  }

  function renderSpace(): void {
    const box = $("#space");
    box.innerHTML = "";
    if (!selected || !state) return;
    const here = state.territories.find((t) => t.id === selected);
    const owner = here?.owner ?? null;
    const units = here?.units.map((u) => `${u.count} ${u.kind}${u.neutral ? ` (${u.neutral})` : ""}`).join(", ") || "empty";
    box.append(html(`<h2>${escape(names.space(selected) ?? selected)}</h2>`));
    box.append(html(`<p>${owner === null ? "nobody's" : escape(names.player(owner))} — ${units}${here?.markers.length ? ` — ${here.markers.join(", ")}` : ""}</p>`));
    const ids = spaceIds();
    for (const f of families.filter((f) => spacesOf(f, ids).includes(selected!))) box.append(familyForm(f, selected));
  }

  function renderMine(): void {
    const box = $("#mine");
    box.innerHTML = "";
    if (!state || state.viewerSeat === null) return;
    if (state.objective) box.append(html(`<p class="objective"><strong>Your objective:</strong> ${escape(state.objective.text)}</p>`));
    if (state.hand) {
      const cards = state.hand.map((c) => `<li class="card" data-card="${c.id}">${escape(c.symbol)}${c.territory ? ` · ${escape(names.space(c.territory) ?? c.territory)}` : ""}</li>`).join("");
      box.append(html(`<div class="hand"><strong>Your cards</strong><ul>${cards || "<li class=quiet>none</li>"}</ul></div>`));
    }
  }

  let shownOutcome = "";

  function renderOutcome(): void {
    const box = $("#outcome");
    if (!state?.outcome) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const o = state.outcome;
    // A finished game is drawn once: later loads (the history replayed) keep what the
    // viewer did with it, such as a verification.
    const key = JSON.stringify([o, state.randomness.secret, state.players.map((p) => p.name)]);
    if (key === shownOutcome) return;
    shownOutcome = key;
    const ranking = o.ranking.map((r) => `<li>${r.rank}. ${escape(names.player(r.seat))} (${r.points})</li>`).join("");
    box.innerHTML = `<h2>${o.winner === null ? "No winner" : `${escape(names.player(o.winner))} wins`}</h2><p>${o.reason.replace(/_/g, " ")}</p><ol class="ranking">${ranking}</ol>`;
    const randomness = state.randomness;
    if (randomness.secret) {
      const seed = html(`<div class="seed"><p>Secret <code>${randomness.secret}</code> <button>Verify</button> <span></span></p><ul class="checks"></ul></div>`);
      on(seed.querySelector("button")!, "click", () => {
        const me = state!.viewerSeat;
        const checks = checkChain(randomness, me === null ? null : { seat: me, sent: sentSeeds.get(gameId) });
        const holds = checks.every((c) => c.ok);
        seed.querySelector("span")!.textContent = holds ? "✓ the chain holds" : "✗ the chain does not hold";
        seed.querySelector(".checks")!.innerHTML = checks.map((c) => `<li class="${c.ok ? "ok" : "bad"}">${c.ok ? "✓" : "✗"} ${escape(c.text)}</li>`).join("");
        seed.querySelector(".checks")!.append(html(`<li class="quiet">Every die and card: <code>risiko verify ${escape(location.origin)} ${escape(gameId)}</code> replays the game on its own engine.</li>`));
      });
      box.append(seed);
    }
  }

  function renderClock(): void {
    const box = $("#clock");
    const deadline = state?.clock?.deadline;
    if (!state || state.status !== "ACTIVE" || !deadline) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const left = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
    const who = state.clock?.seat === null || state.clock?.seat === undefined ? "" : names.player(state.clock.seat);
    box.textContent = `⏱ ${who}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}${state.clock?.kind === "answer" ? " to answer" : ""}`;
  }

  function addEvent(event: GameEventsSubscription["gameEvents"]): void {
    lastSeq = Math.max(lastSeq, event.seq);
    log.push(describe(event.type, event.data as Record<string, unknown>, names));
    const list = $("#log").querySelector("ul")!;
    const item = html(`<li>${escape(log[log.length - 1])}</li>`);
    list.prepend(item);
    while (list.children.length > 200) list.lastElementChild!.remove();
  }

  const ticking = window.setInterval(renderClock, 1000);
  let unsubscribe = (): void => {};
  const follow = (): void => {
    unsubscribe = subscribe<GameEventsSubscription>(
      EVENTS,
      { id: gameId, after: lastSeq },
      token,
      (data) => {
        addEvent(data.gameEvents);
        schedule();
      },
      () => {
        // The server ended the stream (the game is over, or this page fell behind): resume
        // after the last event seen, unless the game is over.
        if (!stopped && state?.status !== "FINISHED") window.setTimeout(follow, 1000);
      },
    );
  };
  void load().then(follow);
  return () => {
    stopped = true;
    window.clearInterval(ticking);
    window.clearTimeout(pending);
    unsubscribe();
  };
}
