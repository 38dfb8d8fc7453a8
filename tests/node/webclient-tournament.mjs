// The web client's tournament pages, watched in headless Chromium against a real server:
//   node webclient-tournament.mjs CHROMIUM SERVER_URL [SHOTS_DIR]
// (a) Dora, a person, finds a tournament in the lobby on a phone, opens it by keyboard,
// registers and withdraws from its page, and is refused a tournament for bots in words.
// (b) 16 bot accounts (made with their own sessions through the API) register for a tournament
// of 3 rounds of tables of 4; its organiser, in Italian, closes the registration and starts each
// round from the page (and is refused a round before the last one ended); a spectator opens one
// table's game from the page and sees its moves as the players make them; at each table three
// players resign, and the open page's standings change as games end, with no reload, until the
// tournament is over. Prints one JSON line of what it saw (tests/e2e/test_web_tournament.py
// asserts on it), with the API's final standings and every document the pages sent.
import { audit, guardedPage, launch, rawWords } from "./browser.mjs";

const [executablePath, serverUrl, shots] = process.argv.slice(2);
const origin = new URL(serverUrl).origin;
const browser = await launch(executablePath);
const out = { elsewhere: [], errors: [], raw: [], axe: {}, steps: {}, documents: {} };
const PASSWORD = "correct horse battery staple";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ENUMS = ["REGISTERING", "CLOSED", "PLAYING", "FINISHED", "ANYONE", "PEOPLE", "BOTS", "ACTIVE", "LOBBY"];
const PAYLOAD = "tournament { id status entrants { name } roundsPlayed { number ended tables { gameId players { name } } } } userErrors { code }";
const STANDINGS = "standings { place account { name } games points objectives opponentsPoints bestGame }";

/** GraphQL over HTTP as a client at `address` (the server trusts its loopback proxy's
 * X-Forwarded-For: each account signs up from an address of its own, as people do). */
async function api(query, variables = {}, token = null, address = "192.0.2.10") {
  const headers = { "Content-Type": "application/json", "X-Forwarded-For": address };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${serverUrl}/graphql`, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function account(name, number, bot = false) {
  const made = (await api(`mutation($i: RegisterInput!) { register(input: $i) { token userErrors { code } } }`, { i: { name, password: PASSWORD } }, null, `192.0.2.${number}`)).register;
  if (made.userErrors.length) throw new Error(`${name}: ${JSON.stringify(made.userErrors)}`);
  if (bot) await api(`mutation { becomeBot { userErrors { code } } }`, {}, made.token);
  return made.token;
}

async function tournament(organiser, name, admits, rounds) {
  const closes = new Date(Date.now() + 3600_000).toISOString();
  const input = { name, rounds, tableSize: 4, timeLimitMinutes: 30, registrationClosesAt: closes, admits };
  return (await api(`mutation($i: CreateTournamentInput!) { createTournament(input: $i) { ${PAYLOAD} } }`, { i: input }, organiser)).createTournament.tournament.id;
}

async function device(locale, viewport) {
  const context = await browser.newContext({ viewport, locale });
  return guardedPage(context, origin, out);
}

async function logIn(page, name) {
  await page.goto(`${serverUrl}/#/login`);
  await page.fill("form.auth input[name=name]", name);
  await page.fill("form.auth input[name=password]", PASSWORD);
  await page.click("form.auth button");
  await page.waitForURL(/#\/me\/games$/);
}

async function openTournament(page, id) {
  await page.goto(`${serverUrl}/#/tournament/${encodeURIComponent(id)}`);
  await page.waitForSelector(".tournament .facts");
}

async function check(page, where, people) {
  out.axe[where] = await audit(page);
  for (const found of await rawWords(page, [], ENUMS, people)) out.raw.push({ where, ...found });
}

/** The standings as the page shows them: place, name, games, points, objectives, opponents'
 * points, best game. */
function shownStandings(page) {
  return page.$$eval(".standings-table tbody tr[data-player]", (rows) =>
    rows.map((row) => [...row.children].slice(0, 7).map((cell, i) => (i === 1 ? row.dataset.player : Number(cell.textContent)))),
  );
}

// (a) A person registers and withdraws.
async function personRegisters(organiser, open, forBots) {
  await account("Dora", 11);
  const phone = await device("en-GB", PHONE);
  const socket = await cuttableSocket(phone);
  await logIn(phone, "Dora");
  await phone.goto(`${serverUrl}/#/`);
  await phone.waitForSelector(`#tournaments tr[data-tournament="${open}"]`);
  out.steps.lobby = await phone.$$eval("#tournaments tr[data-tournament]", (rows) => rows.map((row) => [...row.cells].map((cell) => cell.textContent.trim())));
  await check(phone, "lobby-en", ["Dora", "Coppa"]);
  // By keyboard: the tournament's link focused, then Enter.
  await phone.focus(`#tournaments tr[data-tournament="${open}"] a`);
  await phone.keyboard.press("Enter");
  await phone.waitForSelector(".controls button[data-command=register]");
  await phone.focus(".controls button[data-command=register]");
  await phone.keyboard.press("Enter");
  await phone.waitForSelector(".controls button[data-command=withdraw]");
  const entrants = async () => (await api(`query($t: ID!) { tournament(id: $t) { entrants { name } } }`, { t: open })).tournament.entrants.map((e) => e.name);
  const registered = { entrants: await entrants(), said: await phone.textContent(".controls .buttons .quiet"), focused: await phone.evaluate(() => document.activeElement?.dataset.command ?? null) };
  await check(phone, "tournament-en-phone", ["Dora", "Coppa", "Ottavia"]);
  out.steps.phoneWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
  if (shots) await phone.screenshot({ path: `${shots}/tournament-en.png`, fullPage: true });
  await phone.click(".controls button[data-command=withdraw]");
  await phone.waitForSelector(".controls button[data-command=register]");
  out.steps.person = { registered, withdrawn: await entrants() };
  out.steps.reconnected = await missedWhileCut(phone, socket, open);
  // A tournament for bots refuses her, in words.
  await openTournament(phone, forBots);
  await phone.click(".controls button[data-command=register]");
  await phone.waitForFunction(() => document.querySelector("#refusal")?.textContent);
  out.steps.refused = await phone.textContent("#refusal");
  await phone.context().close();
}

/** The page's WebSocket, through a route that can cut it and refuse it for a while. */
async function cuttableSocket(page) {
  const state = { blocked: false, open: [] };
  await page.routeWebSocket(/\/graphql$/, (ws) => {
    if (state.blocked) return void ws.close({ code: 1011, reason: "cut by the test" });
    ws.connectToServer();
    state.open.push(ws);
  });
  return state;
}

/** The socket cut (and refused for a while), someone registers meanwhile: news the page cannot
 * hear, and that a stream followed anew would not tell (it tells what changes after it
 * starts); the page reads the tournament again and shows the entrant, with no reload. */
async function missedWhileCut(page, socket, tid) {
  await page.evaluate(() => (window.__sameDocument = true));
  socket.blocked = true;
  for (const ws of socket.open.splice(0)) await ws.close({ code: 1011, reason: "cut by the test" });
  const ettore = await account("Ettore", 12);
  await api(`mutation($t: ID!) { registerForTournament(input: {tournamentId: $t}) { userErrors { code } } }`, { t: tid }, ettore);
  await page.waitForTimeout(1500); // the page's socket tries again meanwhile, refused
  socket.blocked = false;
  await page.waitForSelector('.standings-table tr[data-player="Ettore"]', { timeout: 60000 });
  return { shown: true, sameDocument: await page.evaluate(() => window.__sameDocument === true) };
}

/** The organiser starts round `number` from the page; its tables appear. */
async function startRound(page, number) {
  await page.click(".controls button[data-command=start]");
  await page.waitForSelector(`section.round[data-round="${number}"] tr[data-game]`);
  return page.$$eval(`section.round[data-round="${number}"] tr[data-game]`, (rows) =>
    rows.map((row) => ({ game: row.dataset.game, players: [...row.querySelectorAll(".seat-order li a")].map((a) => a.textContent) })),
  );
}

/** A few moves at `gameId`, each by the account whose turn it is. */
async function someMoves(gameId, tokens, count) {
  const STATE = `query($g: ID!) { game(id: $g) { version seatToAct players { seat account { name } }
    legalActions { __typename ... on LegalPlaceArmies { input } ... on LegalEndTurn { input } } } }`;
  for (let n = 0; n < count; n++) {
    const seen = (await api(STATE, { g: gameId })).game;
    const name = seen.players.find((p) => p.seat === seen.seatToAct).account.name;
    const state = (await api(STATE, { g: gameId }, tokens[name])).game;
    const family = state.legalActions.find((f) => f.__typename === "LegalPlaceArmies") ?? state.legalActions.find((f) => f.input);
    const input = { gameId, action: family.input, expectedVersion: state.version };
    const sent = (await api(`mutation($i: SubmitActionInput!) { submitAction(input: $i) { userErrors { code } } }`, { i: input }, tokens[name])).submitAction;
    if (sent.userErrors.length) throw new Error(JSON.stringify(sent.userErrors));
  }
}

/** At each table every player but the first in seat order resigns: the game ends. */
async function resignations(table, tokens) {
  for (const name of table.players.slice(1)) {
    const left = (await api(`mutation($g: ID!) { leaveGame(input: {gameId: $g}) { userErrors { code } } }`, { g: table.game }, tokens[name])).leaveGame;
    if (left.userErrors.length) throw new Error(JSON.stringify(left.userErrors));
  }
}

// (b) Sixteen bots, three rounds, watched.
async function botsTournament(tid) {
  const tokens = {};
  for (let n = 0; n < 16; n++) tokens[`Bot${String(n).padStart(2, "0")}`] = await account(`Bot${String(n).padStart(2, "0")}`, 30 + n, true);
  for (const token of Object.values(tokens)) await api(`mutation($t: ID!) { registerForTournament(input: {tournamentId: $t}) { userErrors { code } } }`, { t: tid }, token);
  const page = await device("it-IT", DESKTOP);
  await logIn(page, "Ottavia");
  await openTournament(page, tid);
  await page.evaluate(() => (window.__sameDocument = true)); // gone if the page reloads
  await page.click(".controls button[data-command=close]");
  await page.waitForSelector(".facts[data-status=CLOSED]");
  const rounds = [];
  const seen = { standings: [], refusedEarly: null };
  for (let number = 1; number <= 3; number++) {
    const tables = await startRound(page, number);
    rounds.push(tables);
    if (number === 1) {
      await page.click(".controls button[data-command=start]"); // round 2 before round 1 ends
      await page.waitForFunction(() => document.querySelector("#refusal")?.textContent);
      seen.refusedEarly = await page.textContent("#refusal");
      seen.spectator = await spectate(tid, tables[0], tokens);
      seen.standings.push(await shownStandings(page));
    }
    for (const [i, table] of tables.entries()) {
      await resignations(table, tokens);
      // The open page counts the game: its row says so, and the standings move.
      await page.waitForSelector(`section.round[data-round="${number}"] tr.over[data-game="${table.game}"]`, { timeout: 30000 });
      if (number === 1 && i < 2) seen.standings.push(await shownStandings(page));
    }
  }
  await page.waitForSelector(".facts[data-status=FINISHED]", { timeout: 30000 });
  seen.finalShown = await shownStandings(page);
  seen.seedShown = await page.$eval(".seed.revealed code", (code) => code.textContent);
  seen.sameDocument = await page.evaluate(() => window.__sameDocument === true);
  seen.buttonsAtEnd = await page.locator(".controls button").count();
  seen.rounds = rounds;
  const served = (await api(`query($t: ID!) { tournament(id: $t) { status seed ${STANDINGS} roundsPlayed { tables { gameId players { name } } } } }`, { t: tid })).tournament;
  seen.api = served;
  if (shots) await page.screenshot({ path: `${shots}/tournament-it.png` });
  await check(page, "tournament-it", ["Ottavia", "Coppa", "Bot"]);
  out.steps.bots = seen;
}

/** A spectator opens the table's game from the tournament's page and sees moves arrive. */
async function spectate(tid, table, tokens) {
  const watcher = await device("en-GB", PHONE);
  await openTournament(watcher, tid);
  await watcher.click(`section.round[data-round="1"] tr[data-game="${table.game}"] a.watch`);
  await watcher.waitForURL(/#\/game\//);
  await watcher.waitForSelector("table.players");
  await watcher.waitForSelector(".log li");
  const before = await watcher.locator(".log li").count();
  const opened = decodeURIComponent(watcher.url().split("#/game/")[1]);
  await watcher.evaluate(() => (window.__sameDocument = true));
  await someMoves(table.game, tokens, 3);
  await watcher.waitForFunction((n) => document.querySelectorAll(".log li").length > n, before, { timeout: 30000 });
  const after = await watcher.locator(".log li").count();
  const result = { opened, before, after, actions: await watcher.locator("#actions form.family").count(), sameDocument: await watcher.evaluate(() => window.__sameDocument === true) };
  await watcher.context().close();
  return result;
}

try {
  const organiser = await account("Ottavia", 10);
  const forBots = await tournament(organiser, "Coppa dei bot", "BOTS", 3);
  const open = await tournament(organiser, "Coppa aperta", "ANYONE", 2);
  out.steps.ids = { open, forBots };
  await personRegisters(organiser, open, forBots);
  await botsTournament(forBots);
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error));
  if (shots) for (const [n, opened] of browser.contexts().flatMap((c) => c.pages()).entries()) await opened.screenshot({ path: `${shots}/failure-tournament-${n}.png` }).catch(() => {});
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
