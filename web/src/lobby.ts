// The lobby: the games on this server, live, and a form to create one with bots at the table:
// as a guest (a name, and the seat's token kept for the game), or, logged in, as the account;
// and the server's tournaments (tournament/list.ts).

import { session } from "./account";
import { checked, request, subscribe, tokens } from "./api";
import { ADD_BOT, CREATE, GAMES, JOIN, LOBBY, START } from "./documents";
import type { AddBotMutation, CreateGameMutation, GamesQuery, JoinGameMutation, StartGameMutation } from "./generated/graphql";
import type { Variant } from "./map/draw";
import { escape, html, on } from "./dom";
import { errorText } from "./errors";
import { randomHex, sentSeeds } from "./seeds";
import { list, t, tOr } from "./i18n";
import { gameLink } from "./routes";
import { tournamentList } from "./tournament/list";
import { ratedField, wireRated } from "./ratings/create";
import { leaderboardLinks } from "./ratings/leaderboard";

function createForm(variants: Variant[]): string {
  const games = variants.map((v) => `<option value="${escape(v.name)}">${escape(v.title)}</option>`).join("");
  return `<form id="create">
    <label>${t("lobby.variant")} <select name="variant">${games}</select></label>
    ${nameField()}
    <label>${t("lobby.bots")} <input name="bots" type="number" min="0" max="5" value="2" inputmode="numeric"></label>
    <label>${t("lobby.policy")} <select name="policy"><option value="ODDS">${t("lobby.policy.ODDS")}</option><option value="RANDOM">${t("lobby.policy.RANDOM")}</option></select></label>
    <label>${t("lobby.roundLimit")} <input name="roundLimit" type="number" min="1" placeholder="${t("lobby.none")}" inputmode="numeric"></label>
    <label>${t("lobby.turnSeconds")} <input name="turnSeconds" type="number" min="1" placeholder="${t("lobby.noClock")}" inputmode="numeric"></label>
    <label>${t("lobby.seed")} <input name="seed" maxlength="200" placeholder="${t("lobby.fairDice")}" aria-describedby="seed-help"></label>
    <small id="seed-help" class="quiet">${t("lobby.seedHelp")}</small>
    <label class="check"><input name="start" type="checkbox" checked> ${t("lobby.startNow")}</label>
    <button type="submit">${t("lobby.create")}</button>
    <p class="error" role="alert"></p>
  </form>`;
}

/** A guest's name; logged in, the seat takes the account's. */
function nameField(): string {
  const account = session.get();
  if (account) {
    return `<p class="as-account">${t("lobby.asAccount", { name: escape(account.name) })}</p>
      <label class="check"><input name="accountsOnly" type="checkbox"> ${t("lobby.accountsOnly")}</label>${ratedField()}`;
  }
  return `<label>${t("lobby.name")} <input name="name" required maxlength="40" value="${escape(t("lobby.defaultName"))}" autocomplete="nickname"></label>`;
}

export function showLobby(root: HTMLElement, variants: Variant[]): () => void {
  const page = html(`
    <main class="lobby" id="main">
      <section class="create" aria-labelledby="create-title"><h1 id="create-title">${t("lobby.newGame")}</h1>${createForm(variants)}</section>
      <section class="games" aria-labelledby="games-title">
        <h2 id="games-title">${t("lobby.games")}</h2>
        <div class="table-scroll" tabindex="0" role="region" aria-label="${t("lobby.games")}"><table><thead><tr><th scope="col">${t("lobby.game")}</th><th scope="col">${t("lobby.status")}</th><th scope="col">${t("lobby.players")}</th><th scope="col"><span class="visually-hidden">${t("lobby.open")}</span></th></tr></thead><tbody id="games"></tbody></table></div>
      </section>
    </main>`);
  root.replaceChildren(page);
  const rows = page.querySelector<HTMLTableSectionElement>("#games")!;
  const titles = new Map(variants.map((v) => [v.name, v.title]));
  page.append(leaderboardLinks(variants), tournamentList(titles));

  const account = session.get();
  async function refresh(): Promise<void> {
    const data = await request<GamesQuery>(GAMES);
    rows.replaceChildren();
    for (const { node } of data.games.edges) {
      const mine = tokens.get(node.id) !== null || node.players.some((p) => p.account !== null && p.account.name === account?.name);
      const players = list(node.players.map((p) => `${p.name}${p.bot ? ` (${t("seats.bot")})` : ""}`));
      const chosen = node.seedChosen ? ` <span class="badge warn" title="${escape(t("lobby.chosenSeedHelp"))}">${t("lobby.chosenSeed")}</span>` : "";
      const action = mine ? t("lobby.play") : node.status === "LOBBY" ? t("lobby.join") : t("lobby.watch");
      rows.append(
        html(`<tr data-game="${escape(node.id)}">
        <td>${escape(titles.get(node.variant) ?? node.variant)}${chosen}</td>
        <td>${tOr(`gameStatus.${node.status}`, "")}</td>
        <td>${escape(players) || "—"}</td>
        <td><a href="${gameLink(node.id)}">${action}</a></td>
      </tr>`),
      );
    }
    if (!data.games.edges.length) rows.append(html(`<tr><td colspan="4" class="quiet">${t("lobby.empty")}</td></tr>`));
  }

  const form = page.querySelector<HTMLFormElement>("#create")!;
  wireRated(form);
  on(form, "submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector<HTMLParagraphElement>(".error")!;
    error.textContent = "";
    try {
      location.hash = gameLink(await create(new FormData(form)));
    } catch (failure) {
      error.textContent = errorText(failure);
    }
  });

  void refresh();
  return subscribe(LOBBY, {}, null, () => void refresh());
}

/** Create the game of the form, take its first seat (the account's when logged in), seat its
 * bots, start it if asked. */
async function create(fields: FormData): Promise<string> {
  const account = session.token();
  const options: Record<string, unknown> = {};
  const roundLimit = Number(fields.get("roundLimit"));
  if (roundLimit > 0) options.roundLimit = roundLimit;
  const input: Record<string, unknown> = { variant: fields.get("variant"), options };
  const seed = String(fields.get("seed") ?? "").trim();
  if (seed) input.seed = seed; // a reproducible game, its dice known to whoever chose it
  const turnSeconds = Number(fields.get("turnSeconds"));
  if (turnSeconds > 0) input.timeControl = { turnSeconds };
  if (fields.get("accountsOnly")) input.admission = { accountsRequired: true };
  if (fields.get("rated")) input.rated = true; // accounts only, dice nobody chose
  const created = checked((await request<CreateGameMutation>(CREATE, { input }, account)).createGame);
  const gameId = created.game!.id;
  const clientSeed = randomHex(); // ignored when the seed was chosen
  const seat = account ? { gameId, clientSeed } : { gameId, name: String(fields.get("name")), clientSeed };
  const joined = checked((await request<JoinGameMutation>(JOIN, { input: seat }, account)).joinGame);
  if (joined.token) tokens.set(gameId, joined.token); // a guest's seat: its own token
  const token = joined.token ?? account;
  if (joined.clientSeedAccepted) sentSeeds.keep(gameId, clientSeed);
  for (let n = 0; n < Number(fields.get("bots")); n++) {
    checked((await request<AddBotMutation>(ADD_BOT, { input: { gameId, policy: fields.get("policy") } }, token)).addBot);
  }
  if (fields.get("start")) {
    // A fresh contribution at the start, the last one fixed (see game/seating.ts).
    const atStart = randomHex();
    const started = checked((await request<StartGameMutation>(START, { input: { gameId, clientSeed: atStart } }, token)).startGame);
    if (started.clientSeedAccepted) sentSeeds.keep(gameId, atStart);
  }
  return gameId;
}
