// The lobby: the games on this server, live, and a form to create one with bots at the table.

import { checked, request, subscribe, tokens } from "./api";
import { ADD_BOT, CREATE, GAMES, JOIN, LOBBY, START } from "./documents";
import type {
  AddBotMutation,
  CreateGameMutation,
  GamesQuery,
  JoinGameMutation,
  StartGameMutation,
} from "./generated/graphql";
import type { Variant } from "./map";
import { escape, html, on } from "./dom";
import { randomHex, sentSeeds } from "./fairness";

export function showLobby(root: HTMLElement, variants: Variant[]): () => void {
  root.innerHTML = "";
  const page = html(`
    <main class="lobby">
      <header><h1>RisiKo! <small>game server</small></h1><a href="/graphql" class="quiet">GraphQL API</a></header>
      <section class="create">
        <h2>New game</h2>
        <form id="create">
          <label>Game <select name="variant">${variants
            .map((v) => `<option value="${v.name}">${v.title}</option>`)
            .join("")}</select></label>
          <label>Your name <input name="name" required maxlength="40" value="Player"></label>
          <label>Bots <input name="bots" type="number" min="0" max="5" value="2"></label>
          <label>Bot play <select name="policy"><option value="ODDS">odds</option><option value="RANDOM">random</option></select></label>
          <label>Round limit <input name="roundLimit" type="number" min="1" placeholder="none"></label>
          <label>Seconds a turn <input name="turnSeconds" type="number" min="1" placeholder="no clock"></label>
          <label title="A chosen seed makes the game reproducible, and tells every player that you know every roll and card to come">Seed <input name="seed" maxlength="200" placeholder="none: fair dice"></label>
          <label><input name="start" type="checkbox" checked> start at once</label>
          <button type="submit">Create and sit down</button>
          <p class="error" role="alert"></p>
        </form>
      </section>
      <section class="games">
        <h2>Games</h2>
        <table><thead><tr><th>Game</th><th>Status</th><th>Players</th><th></th></tr></thead><tbody id="games"></tbody></table>
      </section>
    </main>`);
  root.append(page);
  const list = page.querySelector<HTMLTableSectionElement>("#games")!;
  const titles = new Map(variants.map((v) => [v.name, v.title]));

  async function refresh(): Promise<void> {
    const data = await request<GamesQuery>(GAMES);
    list.innerHTML = "";
    for (const { node } of data.games.edges) {
      const mine = tokens.get(node.id) !== null;
      const players = node.players.map((p) => `${escape(p.name)}${p.bot ? " <span class=badge>bot</span>" : ""}`).join(", ");
      const row = html(`<tr data-game="${node.id}">
        <td>${titles.get(node.variant) ?? node.variant}${node.seedChosen ? ' <span class="badge warn" title="Its creator chose its seed, and knows every roll and card to come">chosen seed</span>' : ""}</td>
        <td>${node.status.toLowerCase()}</td>
        <td>${players || "—"}</td>
        <td><a href="#/game/${encodeURIComponent(node.id)}">${mine ? "Play" : node.status === "LOBBY" ? "Join or watch" : "Watch"}</a></td>
      </tr>`);
      list.append(row);
    }
  }

  const form = page.querySelector<HTMLFormElement>("#create")!;
  const error = form.querySelector<HTMLParagraphElement>(".error")!;
  on(form, "submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const fields = new FormData(form);
    const options: Record<string, unknown> = {};
    const roundLimit = Number(fields.get("roundLimit"));
    if (roundLimit > 0) options.roundLimit = roundLimit;
    const input: Record<string, unknown> = { variant: fields.get("variant"), options };
    const seed = String(fields.get("seed") ?? "").trim();
    if (seed) input.seed = seed; // a reproducible game, its dice known to whoever chose it
    const turnSeconds = Number(fields.get("turnSeconds"));
    if (turnSeconds > 0) input.timeControl = { turnSeconds };
    try {
      const created = checked((await request<CreateGameMutation>(CREATE, { input })).createGame);
      const gameId = created.game!.id;
      const clientSeed = randomHex(); // ignored when the seed was chosen
      const joined = checked(
        (await request<JoinGameMutation>(JOIN, { input: { gameId, name: String(fields.get("name")), clientSeed } })).joinGame,
      );
      tokens.set(gameId, joined.token!);
      if (joined.clientSeedAccepted) sentSeeds.keep(gameId, clientSeed);
      for (let n = 0; n < Number(fields.get("bots")); n++) {
        checked(
          (await request<AddBotMutation>(ADD_BOT, { input: { gameId, policy: fields.get("policy") } }, joined.token))
            .addBot,
        );
      }
      if (fields.get("start")) {
        // A fresh contribution at the start, the last one fixed (see game.ts).
        const atStart = randomHex();
        const started = checked((await request<StartGameMutation>(START, { input: { gameId, clientSeed: atStart } }, joined.token)).startGame);
        if (started.clientSeedAccepted) sentSeeds.keep(gameId, atStart);
      }
      location.hash = `#/game/${encodeURIComponent(gameId)}`;
    } catch (failure) {
      error.textContent = failure instanceof Error ? failure.message : String(failure);
    }
  });

  void refresh();
  return subscribe(LOBBY, {}, null, () => void refresh());
}
