// The web client's ratings, in headless Chromium against a real server:
//   node webclient-ratings.mjs CHROMIUM SERVER_URL [SCREENSHOTS_FOLDER]
// Four accounts, made through the API, play 24 rated real-time games (and one correspondence) of classic (real time: a clock of 5
// minutes a turn) to their end by resignations, Anna winning most, then Bruno, Carlo, Dora; a
// game's page (on a phone) shows it rated, each player's rating beside its name and the
// expected ranking before and during the game; the profiles show the changed ratings and their
// history; the leaderboard, opened from the lobby, lists them in the API's order (people's; the
// bots' board apart, chosen by keyboard); Anna creates a rated game from the lobby's form (a
// seed refused in words first). Pages audited with axe-core in English and Italian. Prints one
// JSON line of what it saw (tests/e2e/test_web_ratings.py asserts on it).
import { audit, graphqlAt, guardedPage, launch, rawWords, succeedingAt } from "./browser.mjs";

const [executablePath, serverUrl, shots] = process.argv.slice(2);
const origin = new URL(serverUrl).origin;
const browser = await launch(executablePath);
const out = { elsewhere: [], errors: [], raw: [], axe: {}, steps: {}, documents: {} };
const PASSWORD = "correct horse battery staple";
const PHONE = { width: 390, height: 844 };
const PLAYERS = ["Anna", "Bruno", "Carlo", "Dora"];
// Who wins each game (the others resign), turn about: Anna 14 times, Bruno 6, Carlo 3, Dora 1.
const WINNERS = [..."ABACABADABACABAABACABAAA"].map((letter) => PLAYERS.find((name) => name[0] === letter));
const ENUMS = ["REAL_TIME", "CORRESPONDENCE", "LOBBY", "ACTIVE", "FINISHED"];

const api = graphqlAt(serverUrl);
const ok = succeedingAt(api);

async function account(name, number) {
  return (await ok(`mutation($i: RegisterInput!) { register(input: $i) { token userErrors { code } } }`, { i: { name, password: PASSWORD } }, null, `192.0.2.${number}`)).token;
}

/** A rated game of the four, seated in order, not started: real time (5 minutes a turn), or
 * correspondence (no clock). */
async function ratedTable(tokens, realTime = true) {
  const input = { variant: "classic", rated: true, ...(realTime ? { timeControl: { turnSeconds: 300 } } : {}) };
  const gameId = (await ok(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } userErrors { code } } }`, { i: input }, tokens.Anna)).game.id;
  for (const name of PLAYERS) await ok(`mutation($g: ID!) { joinGame(input: {gameId: $g}) { token userErrors { code } } }`, { g: gameId }, tokens[name]);
  return gameId;
}

async function start(gameId, tokens) {
  await ok(`mutation($g: ID!) { startGame(input: {gameId: $g}) { userErrors { code } } }`, { g: gameId }, tokens.Anna);
}

/** Everyone but the winner resigns: the game ends, and is rated. */
async function resignAllBut(gameId, winner, tokens) {
  for (const name of PLAYERS) {
    if (name !== winner) await ok(`mutation($g: ID!) { leaveGame(input: {gameId: $g}) { userErrors { code } } }`, { g: gameId }, tokens[name]);
  }
}

async function device(locale, viewport = PHONE) {
  const context = await browser.newContext({ viewport, locale });
  return guardedPage(context, origin, out);
}

/** What a rated game's page shows of its ratings, once it shows the game at `version`'s status. */
async function gameRatings(page, status) {
  await page.waitForFunction((s) => document.querySelector("#status")?.textContent && document.querySelector(`#expected tbody tr`) && (s !== "ACTIVE" || document.querySelector("table.players tr.to-act")), status, { timeout: 30000 });
  return {
    rated: await page.textContent("#rated"),
    beside: await page.$$eval("table.players tbody tr[data-seat]", (rows) => rows.map((row) => [row.dataset.seat, row.querySelector(".seat-rating")?.textContent])),
    expected: await page.$$eval("#expected tbody tr", (rows) => rows.map((row) => [row.dataset.seat, ...[...row.children].map((cell) => cell.textContent.trim())])),
  };
}

async function check(page, where, people = PLAYERS) {
  out.axe[where] = await audit(page);
  for (const found of await rawWords(page, [], ENUMS, people)) out.raw.push({ where, ...found });
}

async function waitRated(gameId, speed = "REAL_TIME") {
  for (let tries = 0; tries < 100; tries++) {
    const game = (await api(`query($g: ID!) { game(id: $g) { status } }`, { g: gameId })).game;
    const query = `query($s: Speed!) { account(name: "Anna") { ratingHistory(variant: "classic", speed: $s, first: 1) { edges { node { gameId } } } } }`;
    const history = (await api(query, { s: speed })).account.ratingHistory.edges;
    if (game.status === "FINISHED" && history[0]?.node.gameId === gameId) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`game ${gameId} was not rated`);
}

try {
  const tokens = {};
  for (const [i, name] of PLAYERS.entries()) tokens[name] = await account(name, 20 + i);

  // 1. The first rated game on a phone, in English: before it starts and while it is played.
  const phone = await device("en-GB");
  const first = await ratedTable(tokens);
  await phone.goto(`${serverUrl}/#/game/${encodeURIComponent(first)}`);
  out.steps.before = await gameRatings(phone, "LOBBY");
  await check(phone, "game-lobby-en");
  await start(first, tokens);
  out.steps.during = await gameRatings(phone, "ACTIVE");
  await resignAllBut(first, WINNERS[0], tokens);
  await waitRated(first);

  // 2. The other games, through the API.
  for (const winner of WINNERS.slice(1, -1)) {
    const gameId = await ratedTable(tokens);
    await start(gameId, tokens);
    await resignAllBut(gameId, winner, tokens);
    await waitRated(gameId);
  }
  // The last one watched in Italian: the ratings now tell the players apart.
  const watcher = await device("it-IT", { width: 1280, height: 900 });
  const last = await ratedTable(tokens);
  await start(last, tokens);
  await watcher.goto(`${serverUrl}/#/game/${encodeURIComponent(last)}`);
  out.steps.settled = await gameRatings(watcher, "ACTIVE");
  await check(watcher, "game-it");
  if (shots) await watcher.screenshot({ path: `${shots}/rated-game-it.png` });
  await resignAllBut(last, WINNERS.at(-1), tokens);
  await waitRated(last);
  // And one correspondence game, which Anna wins: a second rating each.
  const slow = await ratedTable(tokens, false);
  await start(slow, tokens);
  await resignAllBut(slow, "Anna", tokens);
  await waitRated(slow, "CORRESPONDENCE");

  // 3. The profiles: each rating as the API has it, and Anna's history.
  out.steps.profiles = {};
  for (const name of PLAYERS) {
    await phone.goto(`${serverUrl}/#/account/${name}`);
    await phone.waitForSelector(".ratings-table tbody tr");
    await phone.waitForSelector(".rating-history tbody tr");
    // Two ratings: the real-time one's history chosen.
    await phone.click(".ratings-table tr[data-speed=REAL_TIME] button");
    await phone.waitForFunction(() => document.querySelector(".rating-history h3")?.textContent.endsWith("real time") && document.querySelector(".rating-history tbody tr"));
    // The history's first page, then the next one.
    const firstPage = await phone.locator(".rating-history tbody tr").count();
    await phone.click(".rating-history button.more");
    await phone.waitForFunction((n) => document.querySelectorAll(".rating-history tbody tr").length > n, firstPage);
    await phone.waitForSelector(".rating-history button.more", { state: "hidden" });
    out.steps.profiles[name] = {
      firstPage,
      shown: await phone.$$eval(".ratings-table tbody tr", (rows) => rows.map((row) => [...row.children].slice(0, 4).map((cell) => cell.textContent.trim()))),
      history: await phone.$$eval(".rating-history tbody tr", (rows) => rows.map((row) => [...row.children].slice(0, 5).map((cell) => cell.textContent.trim()))),
      api: (await api(`query($n: String!) { account(name: $n) { ratings { variant speed rating games provisional } ratingHistory(variant: "classic", speed: REAL_TIME, first: 50) { edges { node { gameId before { rating } after { rating } } } } } }`, { n: name })).account,
    };
  }
  // Dora's correspondence history: its one game.
  await phone.click(".ratings-table tr[data-speed=CORRESPONDENCE] button");
  await phone.waitForFunction(() => document.querySelector(".rating-history h3")?.textContent.endsWith("correspondence") && document.querySelector(".rating-history tbody tr"));
  out.steps.correspondence = {
    heading: await phone.textContent(".rating-history h3"),
    history: await phone.$$eval(".rating-history tbody tr", (rows) => rows.map((row) => row.dataset.game)),
    game: slow,
  };
  await check(phone, "profile-en");
  await phone.evaluate(() => window.scrollTo(0, 0));
  if (shots) await phone.screenshot({ path: `${shots}/ratings-profile-en.png` });

  // 4. The leaderboard, from the lobby, by keyboard: people's, then bots'.
  await phone.goto(`${serverUrl}/#/`);
  await phone.waitForSelector("nav.leaderboards a");
  await phone.focus("nav.leaderboards a");
  await phone.keyboard.press("Enter");
  await phone.waitForURL(/#\/leaderboard\//);
  await phone.waitForSelector("table.leaderboard-table tbody tr");
  const board = { url: phone.url().split("#")[1] };
  board.title = await phone.textContent("main h1");
  board.rows = await phone.$$eval("table.leaderboard-table tbody tr", (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent.trim())));
  board.api = (await api(`{ leaderboard(variant: "classic", speed: REAL_TIME, bots: false) { edges { node { place account { name } rating { rating games } } } } }`)).leaderboard.edges.map((edge) => edge.node);
  await check(phone, "leaderboard-en");
  if (shots) await phone.screenshot({ path: `${shots}/leaderboard-en.png`, fullPage: true });
  await phone.focus("nav.board-kind a:not([aria-current])");
  await phone.keyboard.press("Enter");
  await phone.waitForURL(/\/bots$/);
  await phone.waitForFunction(() => document.querySelector("table.leaderboard-table tbody td.quiet"));
  board.bots = await phone.textContent("table.leaderboard-table tbody");
  // Another speed, chosen in the page: nobody played correspondence games.
  await phone.selectOption("form.board-choice select[name=speed]", "CORRESPONDENCE");
  await phone.waitForURL(/\/correspondence\/bots$/);
  out.steps.board = board;
  await watcher.goto(`${serverUrl}/#/leaderboard/classic/real-time/people`);
  await watcher.waitForSelector("table.leaderboard-table tbody tr[data-account]");
  await check(watcher, "leaderboard-it");
  await watcher.goto(`${serverUrl}/#/account/Dora`);
  await watcher.waitForSelector(".rating-history tbody tr");
  await check(watcher, "profile-it");

  // 5. Anna creates a rated game from the lobby's form: a seed is refused in words, then none.
  await phone.goto(`${serverUrl}/#/login`);
  await phone.fill("form.auth input[name=name]", "Anna");
  await phone.fill("form.auth input[name=password]", PASSWORD);
  await phone.click("form.auth button");
  await phone.waitForURL(/#\/me\/games$/);
  await phone.goto(`${serverUrl}/#/`);
  await phone.waitForSelector("#create input[name=rated]");
  const created = { help: await phone.textContent("#rated-help") };
  await phone.check("#create input[name=rated]");
  created.disabled = await phone.$$eval("#create [disabled]", (fields) => fields.map((field) => field.name));
  await check(phone, "lobby-rated-en", ["Anna"]);
  await phone.fill("#create input[name=seed]", "my own dice");
  await phone.click("#create button[type=submit]");
  await phone.waitForFunction(() => document.querySelector("#create .error")?.textContent);
  created.refused = await phone.textContent("#create .error");
  await phone.fill("#create input[name=seed]", "");
  await phone.click("#create button[type=submit]");
  await phone.waitForURL(/#\/game\//);
  await phone.waitForFunction(() => !document.querySelector("#rated")?.hidden);
  created.rated = await phone.textContent("#rated");
  const gameId = decodeURIComponent(phone.url().split("#/game/")[1]);
  created.api = (await api(`query($g: ID!) { game(id: $g) { rated speed status seedChosen players { name } } }`, { g: gameId })).game;
  out.steps.created = created;
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
