// The web client's challenges and pool, in headless Chromium against a real server:
//   node webclient-rated-play.mjs CHROMIUM SERVER_URL
// Anna, on a phone, logs in and opens the challenges page from the account bar by keyboard: a
// challenge naming an unknown account is refused in words; Dora's challenge to her (made
// through the API) she declines on the page; Bruno declines hers through the API, which the
// page tells live; she cancels one of hers on the page; then she challenges Bruno and Carlo
// to a rated game, they accept through the API, and the page goes to the game, its three seats
// theirs. Then she joins the pool from its page (a seek for 3 she cancels, then one for 4
// players, 5 minutes a turn); Ezio, Fede and Gino join compatible seeks through the API; the
// page shows the match and goes to the game. Pages audited with axe-core in English and
// Italian. Prints one JSON line of what it saw (tests/e2e/test_web_rated_play.py asserts on it).
import { audit, graphqlAt, guardedPage, launch, rawWords, succeedingAt } from "./browser.mjs";

const [executablePath, serverUrl] = process.argv.slice(2);
const origin = new URL(serverUrl).origin;
const browser = await launch(executablePath);
const out = { elsewhere: [], errors: [], raw: [], axe: {}, steps: {}, documents: {} };
const PASSWORD = "correct horse battery staple";
const PHONE = { width: 390, height: 844 };
const PEOPLE = ["Anna", "Bruno", "Carlo", "Dora", "Ezio", "Fede", "Gino"];
const ENUMS = ["REAL_TIME", "CORRESPONDENCE", "OPEN", "ACCEPTED", "DECLINED", "CANCELLED", "EXPIRED", "MATCHED"];
const CHALLENGE = `mutation($i: ChallengeAccountsInput!) { challengeAccounts(input: $i) { challenge { id } userErrors { code } } }`;

const api = graphqlAt(serverUrl);
const ok = succeedingAt(api);

async function answer(command, challengeId, token) {
  await ok(`mutation($i: ChallengeInput!) { ${command}(input: $i) { userErrors { code } } }`, { i: { challengeId } }, token);
}

/** The open challenge made to `token`'s account. */
async function incoming(token) {
  return (await api(`{ me { challenges(direction: INCOMING) { id } } }`, {}, token)).me.challenges[0].id;
}

async function check(page, where) {
  out.axe[where] = await audit(page);
  for (const found of await rawWords(page, [], ENUMS, PEOPLE)) out.raw.push({ where, ...found });
}

async function loggedIn(locale) {
  const context = await browser.newContext({ viewport: PHONE, locale });
  const page = await guardedPage(context, origin, out);
  await page.goto(`${serverUrl}/#/login`);
  await page.fill("form.auth input[name=name]", "Anna");
  await page.fill("form.auth input[name=password]", PASSWORD);
  await page.click("form.auth button");
  await page.waitForURL(/#\/me\/games$/);
  return page;
}

/** The state cell of the challenge `id`'s row, once it says what `status` it is in. */
async function stateOf(page, id, status) {
  const row = `tr[data-challenge="${id}"][data-status=${status}]`;
  await page.waitForSelector(row, { timeout: 15000 });
  return page.textContent(`${row} td.state`);
}

try {
  const tokens = {};
  for (const [i, name] of PEOPLE.entries()) {
    const made = await ok(`mutation($i: RegisterInput!) { register(input: $i) { token userErrors { code } } }`, { i: { name, password: PASSWORD } }, null, `192.0.2.${30 + i}`);
    tokens[name] = made.token;
  }
  const phone = await loggedIn("en-GB");

  // 1. The challenges page, from the account bar by keyboard.
  await phone.focus(`.account-nav a[href="#/me/challenges"]`);
  await phone.keyboard.press("Enter");
  await phone.waitForURL(/#\/me\/challenges$/);
  await phone.waitForSelector("#challenge input[name=names]");
  const steps = { url: phone.url().split("#")[1] };
  // A refusal in words: an account that does not exist.
  await phone.fill("#challenge input[name=names]", "Bruno, Nessuno");
  await phone.click("#challenge button[type=submit]");
  await phone.waitForFunction(() => document.querySelector("#challenge .error")?.textContent);
  steps.refused = await phone.textContent("#challenge .error");
  const byApi = (await api(CHALLENGE, { i: { names: ["Bruno", "Nessuno"] } }, tokens.Anna)).challengeAccounts;
  steps.refusedCode = byApi.userErrors[0]?.code;
  // Dora's challenge to Anna and Bruno, shown live with Accept and Decline: Anna declines it.
  const fromDora = (await ok(CHALLENGE, { i: { names: ["Anna", "Bruno"] } }, tokens.Dora)).challenge.id;
  await stateOf(phone, fromDora, "OPEN");
  steps.incomingButtons = await phone.$$eval(`tr[data-challenge="${fromDora}"] button`, (buttons) => buttons.map((b) => b.textContent));
  await phone.click(`tr[data-challenge="${fromDora}"] button[data-answer=decline]`);
  steps.declinedHere = await stateOf(phone, fromDora, "DECLINED");
  steps.focusAfter = await phone.evaluate(() => [document.activeElement?.id, document.activeElement?.textContent]);
  // Anna's challenge, which Bruno declines through the API: told live.
  await phone.fill("#challenge input[name=names]", "Bruno Carlo");
  await phone.click("#challenge button[type=submit]");
  await phone.waitForSelector(".outgoing-table tr[data-status=OPEN]");
  const declined = await incoming(tokens.Bruno);
  steps.outgoingButtons = await phone.$$eval(`tr[data-challenge="${declined}"] button`, (buttons) => buttons.map((b) => b.textContent));
  await answer("declineChallenge", declined, tokens.Bruno);
  steps.declinedThere = await stateOf(phone, declined, "DECLINED");
  // Her own challenge, cancelled on the page.
  await phone.fill("#challenge input[name=names]", "Dora, Ezio");
  await phone.click("#challenge button[type=submit]");
  await phone.waitForSelector(".outgoing-table tr[data-status=OPEN]");
  const cancelled = await incoming(tokens.Dora);
  await phone.click(`tr[data-challenge="${cancelled}"] button[data-answer=cancel]`);
  steps.cancelled = await stateOf(phone, cancelled, "CANCELLED");
  await check(phone, "challenges-en");
  // A rated challenge with a clock, which both accept: the page goes to the game.
  await phone.fill("#challenge input[name=names]", "Bruno, Carlo");
  await phone.fill("#challenge input[name=turnSeconds]", "300");
  await phone.check("#challenge input[name=rated]");
  await phone.click("#challenge button[type=submit]");
  await phone.waitForFunction(() => document.querySelectorAll(".outgoing-table tr[data-status=OPEN]").length === 1);
  const accepted = await incoming(tokens.Bruno);
  steps.clock = await phone.textContent(`tr[data-challenge="${accepted}"] td:nth-child(2)`);
  await answer("acceptChallenge", accepted, tokens.Bruno);
  steps.halfway = await phone.waitForFunction((id) => document.querySelector(`tr[data-challenge="${id}"] td.state`)?.textContent.includes("Bruno") && document.querySelector(`tr[data-challenge="${id}"] td.state`).textContent, accepted).then((h) => h.jsonValue());
  await answer("acceptChallenge", accepted, tokens.Carlo);
  await phone.waitForURL(/#\/game\//, { timeout: 15000 });
  const gameId = decodeURIComponent(phone.url().split("#/game/")[1]);
  await phone.waitForFunction(() => document.querySelectorAll("table.players tbody tr[data-seat]").length === 3, null, { timeout: 15000 });
  steps.seats = await phone.$$eval("table.players tbody tr[data-seat]", (rows) => rows.map((row) => row.dataset.seat));
  steps.game = (await api(`query($g: ID!) { game(id: $g) { rated status players { name } } }`, { g: gameId })).game;
  await phone.goBack();
  steps.started = await stateOf(phone, accepted, "ACCEPTED");
  steps.link = await phone.getAttribute(`tr[data-challenge="${accepted}"] a.open-game`, "href");
  steps.gameId = gameId;
  out.steps.challenges = steps;

  // 2. The pool: Anna joins from the page, three others through the API; the page goes to the game.
  await phone.focus(`.account-nav a[href="#/me/pool"]`);
  await phone.keyboard.press("Enter");
  await phone.waitForURL(/#\/me\/pool$/);
  await phone.waitForSelector("#seek select[name=turnSeconds]");
  const pool = { clocks: await phone.$$eval("#seek optgroup", (groups) => groups.map((g) => [g.label, ...[...g.children].map((o) => o.textContent)])) };
  // A seek for three, cancelled on the page.
  await phone.fill("#seek input[name=players]", "3");
  await phone.click("#seek button[type=submit]");
  await phone.click(".seeks-table tr[data-state=OPEN] button[data-cancel]");
  await phone.waitForSelector(".seeks-table tr[data-state=CANCELLED]");
  pool.cancelled = await phone.textContent(".seeks-table tr[data-state=CANCELLED] td.state");
  await phone.fill("#seek input[name=players]", "4");
  await phone.selectOption("#seek select[name=turnSeconds]", "300");
  await phone.click("#seek button[type=submit]");
  await phone.waitForSelector(".seeks-table tr[data-state=OPEN]");
  pool.open = await phone.$$eval(".seeks-table tr[data-state=OPEN] > *", (cells) => cells.map((cell) => cell.textContent.trim()));
  pool.told = await phone.textContent("#told");
  await check(phone, "pool-en");
  const seek = `mutation($i: JoinSeekInput!) { joinSeek(input: $i) { seek { id state } userErrors { code } } }`;
  for (const name of ["Ezio", "Fede", "Gino"]) await ok(seek, { i: { variant: "classic", players: 4, clock: { turnSeconds: 300 } } }, tokens[name]);
  await phone.waitForURL(/#\/game\//, { timeout: 20000 });
  const poolGame = decodeURIComponent(phone.url().split("#/game/")[1]);
  await phone.waitForFunction(() => document.querySelectorAll("table.players tbody tr[data-seat]").length === 4, null, { timeout: 15000 });
  pool.game = (await api(`query($g: ID!) { game(id: $g) { rated speed status players { name } } }`, { g: poolGame })).game;
  await phone.goBack();
  await phone.waitForSelector(".seeks-table tr[data-state=MATCHED] a.open-game");
  pool.matched = await phone.$$eval(".seeks-table tr[data-state=MATCHED] > *", (cells) => cells.map((cell) => cell.textContent.trim()));
  pool.link = await phone.getAttribute(".seeks-table tr[data-state=MATCHED] a.open-game", "href");
  pool.gameId = poolGame;
  out.steps.pool = pool;

  // 3. Both pages in Italian.
  const italian = await loggedIn("it-IT");
  await italian.goto(`${serverUrl}/#/me/challenges`);
  await italian.waitForSelector(".outgoing-table tbody tr[data-challenge]");
  out.steps.italian = { heading: await italian.textContent("main h1") };
  await check(italian, "challenges-it");
  await italian.goto(`${serverUrl}/#/me/pool`);
  await italian.waitForSelector(".seeks-table tbody tr[data-seek]");
  out.steps.italian.pool = await italian.textContent("main h1");
  await check(italian, "pool-it");
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
