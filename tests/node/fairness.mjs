// Fair dice in the web client, in headless Chromium, on a page served over plain HTTP from a
// host that is not this machine's name (risiko.test, mapped to 127.0.0.1) and behind a path
// prefix (/risiko/, through a proxy as nginx would be): no secure context, so no
// crypto.subtle. A finished game's chain is checked in the browser; a game whose seed was
// chosen says so in the lobby and asks before a seat is taken.
//   node fairness.mjs CHROMIUM SERVER_URL
// Prints one JSON line of what it saw (the Python test asserts on it).
import { graphqlAt, guardedPage, launch } from "./browser.mjs";
import { prefixProxy } from "./prefix.mjs";

const [executablePath, serverUrl] = process.argv.slice(2);
const proxy = await prefixProxy(serverUrl, "/risiko/");
const base = `http://risiko.test:${proxy.port}/risiko`;
const browser = await launch(executablePath, ["--host-resolver-rules=MAP risiko.test 127.0.0.1"]);
const out = { elsewhere: [], errors: [], steps: {} };
const graphql = graphqlAt(serverUrl);

async function page(storage = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  await context.addInitScript((entries) => {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, storage);
  return guardedPage(context, base, out);
}

async function verifyAs(storage, gameId) {
  const opened = await page(storage);
  await opened.goto(`${base}/#/game/${encodeURIComponent(gameId)}`);
  await opened.waitForSelector("#outcome:not([hidden]) .seed button", { timeout: 30000 });
  await opened.click("#outcome .seed button");
  await opened.waitForFunction(() => (document.querySelector("#outcome .seed span")?.textContent ?? "").length > 0);
  return {
    secure: await opened.evaluate(() => window.isSecureContext),
    subtle: await opened.evaluate(() => typeof crypto.subtle),
    verdict: await opened.textContent("#outcome .seed span"),
    checks: await opened.$$eval("#outcome .checks li", (items) => items.map((li) => li.textContent)),
  };
}

try {
  // 1. A fair game, played to its end by two bots the server plays: the host contributes
  // when it joins, again when it starts, and leaves.
  const join = `mutation($g: ID!, $n: String!, $s: String) { joinGame(input: {gameId: $g, name: $n, clientSeed: $s}) { token clientSeedAccepted } }`;
  const fair = (await graphql(`mutation { createGame(input: {options: {roundLimit: 1}}) { game { id } } }`)).createGame.game.id;
  const host = (await graphql(join, { g: fair, n: "Host", s: "host joins" })).joinGame.token;
  for (let n = 0; n < 2; n++) await graphql(`mutation($g: ID!) { addBot(input: {gameId: $g}) { seat } }`, { g: fair }, host);
  await graphql(`mutation($g: ID!) { startGame(input: {gameId: $g, clientSeed: "host starts"}) { clientSeedAccepted } }`, { g: fair }, host);
  await graphql(`mutation($g: ID!) { leaveGame(input: {gameId: $g}) { userErrors { code } } }`, { g: fair }, host);
  for (let wait = 0; wait < 300; wait++) {
    const { game } = await graphql(`query($g: ID!) { game(id: $g) { status } }`, { g: fair });
    if (game.status === "FINISHED") break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The host's page, its token and the contribution it sent last kept in the browser.
  out.steps.host = await verifyAs({ [`risiko:token:${fair}`]: host, [`risiko:seed:${fair}`]: "host starts" }, fair);
  // The same page believing it sent another: the browser says its contribution is not there.
  out.steps.wrongSeed = await verifyAs({ [`risiko:token:${fair}`]: host, [`risiko:seed:${fair}`]: "host joins" }, fair);
  // A spectator's.
  out.steps.spectator = await verifyAs({}, fair);

  // 2. A game whose seed was chosen: marked in the lobby, and a seat is asked to confirm.
  const chosen = (await graphql(`mutation { createGame(input: {seed: "I know every roll"}) { game { id } } }`)).createGame.game.id;
  const newcomer = await page();
  await newcomer.goto(`${base}/`);
  await newcomer.waitForSelector(`tr[data-game="${chosen}"]`);
  out.steps.lobbyBadge = await newcomer.locator(`tr[data-game="${chosen}"] .badge.warn`).textContent().catch(() => null);
  out.steps.fairBadge = await newcomer.locator(`tr[data-game="${fair}"] .badge.warn`).count();
  await newcomer.goto(`${base}/#/game/${encodeURIComponent(chosen)}`);
  await newcomer.waitForSelector("form.join");
  await newcomer.waitForSelector("#log li"); // the history read: the page is drawn for good
  await newcomer.waitForTimeout(500);
  out.steps.warning = await newcomer.textContent("form.join .warn");
  out.steps.headerWarning = await newcomer.isVisible("#chosen");
  await newcomer.fill("form.join input[name=name]", "Bruno");
  await newcomer.click("form.join button"); // not confirmed: the form does not go
  await newcomer.waitForTimeout(1000);
  out.steps.seatedUnconfirmed = await newcomer.evaluate((id) => localStorage.getItem(`risiko:token:${id}`) !== null, chosen);
  await newcomer.check("form.join input[name=acceptChosenSeed]");
  await newcomer.click("form.join button");
  await newcomer.waitForFunction(() => (document.querySelector("table.players")?.textContent ?? "").includes("(you)"), null, { timeout: 15000 });
  out.steps.seatedConfirmed = await newcomer.evaluate((id) => localStorage.getItem(`risiko:token:${id}`) !== null, chosen);
  const players = await graphql(`query($g: ID!) { game(id: $g) { players { name } } }`, { g: chosen });
  out.steps.players = players.game.players.map((p) => p.name);
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error));
} finally {
  await browser.close();
  proxy.close();
}
console.log(JSON.stringify(out));
