// The account's pages of the web client, as a person uses them, in headless Chromium:
//   node webclient-accounts.mjs CHROMIUM SERVER_URL
// Carla signs up, logs out, is refused a log-in with a wrong password, logs in, creates a game
// from the lobby as the account and takes a seat in another game from its page; a second
// browser (another device: its own storage) logs in as Carla and finds both in "my games";
// Carla makes an API token, sees it once, copies it, and revokes it; profiles, a bot
// account's too. Every new page is audited with axe-core in English and in Italian. Prints
// one JSON line of what it saw (tests/e2e/test_web_accounts.py asserts on it), with every
// GraphQL document the pages sent and the codes of the errors answered to each.
import { audit, graphqlAt, guardedPage, launch, rawWords } from "./browser.mjs";

const [executablePath, serverUrl] = process.argv.slice(2);
const origin = new URL(serverUrl).origin;
const browser = await launch(executablePath);
const out = { elsewhere: [], errors: [], raw: [], axe: {}, steps: {}, documents: {} };
const graphql = graphqlAt(serverUrl);
const PASSWORD = "correct horse battery staple";
// Each page, and what shows once it has read what it shows.
const PAGES = {
  signup: ["#/signup", "form.auth"],
  login: ["#/login", "form.auth"],
  myGames: ["#/me/games", "table.account-games tbody tr[data-game]"],
  myTokens: ["#/me/tokens", "#tokens tr"],
  profile: ["#/account/Carla", ".profile table tbody tr[data-game]"],
};
const ENUMS = ["GAMES_READ", "GAMES_PLAY", "GAMES_CREATE", "TOURNAMENTS_ORGANISE", "ACCOUNT_MANAGE", "LOBBY", "ACTIVE", "FINISHED", "ABANDONED", "SESSION", "API_TOKEN"];

async function device(locale) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  return guardedPage(context, origin, out);
}

async function go(page, hash) {
  await page.goto(`${serverUrl}/${hash}`);
  await page.waitForSelector("main#main");
}

/** Each account page audited, and searched for raw words, in the page's language. */
async function auditAll(page, locale) {
  for (const [name, [hash, drawn]] of Object.entries(PAGES)) {
    await go(page, hash);
    await page.waitForSelector(drawn);
    out.axe[`${name}-${locale}`] = await audit(page);
    for (const found of await rawWords(page, [], ENUMS, ["Carla", "arena bot"])) out.raw.push({ where: `${name}-${locale}`, ...found });
  }
}

async function logIn(page, password) {
  await go(page, "#/login");
  await page.fill("form.auth input[name=name]", "carla"); // any case: one name
  await page.fill("form.auth input[name=password]", password);
  await page.click("form.auth button");
}

try {
  const first = await device("en-GB");
  const documents = out.documents;
  // 1. Signing up: the account's games next, its name in the bar.
  await go(first, "#/signup");
  await first.fill("form.auth input[name=name]", "Carla");
  await first.fill("form.auth input[name=password]", PASSWORD);
  await first.click("form.auth button");
  await first.waitForURL(/#\/me\/games$/);
  await first.waitForSelector(".account-nav .me");
  await first.waitForFunction(() => document.querySelector("#count")?.textContent);
  out.steps.signedUp = { bar: await first.textContent(".account-nav .me"), count: await first.textContent("#count") };

  // 2. Logging out, a refused log-in in words, then logging in.
  await first.click(".account-nav .logout");
  await first.waitForSelector(".account-nav a[href='#/login']");
  out.steps.loggedOut = await first.evaluate(() => localStorage.getItem("risiko:session"));
  await logIn(first, "not the password at all");
  await first.waitForFunction(() => document.querySelector("form.auth .error")?.textContent);
  out.steps.refused = await first.textContent("form.auth .error");
  await logIn(first, PASSWORD);
  await first.waitForURL(/#\/me\/games$/);

  // 3. A game created from the lobby as the account: the seat is Carla's, no seat token kept.
  await go(first, "#/");
  out.steps.lobbyAs = await first.textContent("#create .as-account");
  await first.fill("#create input[name=bots]", "2");
  await first.check("#create input[name=accountsOnly]");
  await first.click("#create button[type=submit]");
  await first.waitForURL(/#\/game\//);
  await first.waitForFunction(() => (document.querySelector("table.players")?.textContent ?? "").includes("Carla (you)"), null, { timeout: 30000 });
  const created = decodeURIComponent(first.url().split("#/game/")[1]);
  out.steps.admission = (await graphql(`query($g: ID!) { game(id: $g) { admission { accountsRequired admits } } }`, { g: created })).game.admission;
  // Back in the lobby, the account's game is to play, not to join.
  await go(first, "#/");
  await first.waitForSelector(`tr[data-game="${created}"]`);
  out.steps.lobbyAction = await first.textContent(`tr[data-game="${created}"] a`);
  // 4. A game someone else made, for accounts only: joined from its page as the account.
  const other = (await graphql(`mutation { createGame(input: {admission: {accountsRequired: true}}) { game { id } } }`)).createGame.game.id;
  await go(first, `#/game/${encodeURIComponent(other)}`);
  await first.waitForSelector("form.join");
  out.steps.joinAs = await first.textContent("form.join p");
  await first.click("form.join button");
  await first.waitForSelector("#seating .buttons", { timeout: 15000 });
  out.steps.seatTokens = await first.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("risiko:token:")));
  const seated = await graphql(`query($g: ID!) { game(id: $g) { players { name account { name } } } }`, { g: other });
  out.steps.otherPlayers = seated.game.players.map((p) => p.account?.name ?? null);
  // A guest is refused that game, in words.
  const guest = await device("en-GB");
  await go(guest, `#/game/${encodeURIComponent(other)}`);
  await guest.fill("form.join input[name=name]", "Ospite");
  await guest.click("form.join button");
  await guest.waitForFunction(() => document.querySelector("form.join .error")?.textContent);
  out.steps.guestRefused = await guest.textContent("form.join .error");

  // 5. Another device, in Italian: logged in as Carla, it lists both games.
  const second = await device("it-IT");
  await logIn(second, PASSWORD);
  await second.waitForURL(/#\/me\/games$/);
  await second.waitForSelector("table.account-games tbody tr[data-game]");
  await second.waitForFunction(() => document.querySelector("#count")?.textContent);
  out.steps.elsewhere = {
    games: await second.$$eval("table.account-games tbody tr[data-game]", (rows) => rows.map((row) => row.dataset.game)),
    count: await second.textContent("#count"),
    created,
    other,
  };

  // 6. A token: made, shown once, copied, working; gone from the page once left; revoked.
  await go(first, "#/me/tokens");
  await first.fill("#new-token input[name=name]", "arena bot");
  await first.click("#new-token button[type=submit]");
  await first.waitForSelector(".new-token code");
  const token = await first.textContent(".new-token code");
  await first.click(".new-token button");
  await first.waitForFunction(() => document.querySelector(".new-token .quiet")?.textContent);
  const copied = await first.evaluate(() => navigator.clipboard.readText());
  const me = await graphql(`{ me { name credential { kind scopes } } }`, {}, token);
  await first.waitForSelector("#tokens tr[data-token]");
  const listed = await first.$$eval("#tokens tr[data-token] td", (cells) => cells.map((cell) => cell.textContent));
  await first.reload();
  await first.waitForSelector("#tokens tr[data-token]");
  const shownAgain = await first.locator(".new-token").count();
  const pageText = await first.textContent("main");
  await first.click("#tokens tr[data-token] button");
  await first.waitForSelector("#tokens tr:not([data-token])");
  let afterRevoke;
  try {
    afterRevoke = await graphql(`{ me { name } }`, {}, token);
  } catch (error) {
    afterRevoke = String(error.message).includes("UNAUTHENTICATED") ? "UNAUTHENTICATED" : String(error.message);
  }
  out.steps.token = { prefix: token.slice(0, 4), copied: copied === token, me: me.me, listed, shownAgain, inPage: pageText.includes(token), afterRevoke };

  // 7. Profiles: Carla's, and a bot account's.
  await go(first, "#/account/Carla");
  await first.waitForSelector(".profile h1");
  out.steps.profile = {
    title: await first.textContent(".profile h1"),
    results: await first.$$eval(".results dd", (cells) => cells.map((cell) => Number(cell.textContent))),
    games: await first.locator(".profile tr[data-game]").count(),
  };
  const bot = (await graphql(`mutation { register(input: {name: "Robotta", password: "a bot that plays by the odds"}) { token } }`)).register.token;
  await graphql(`mutation { becomeBot { userErrors { code } } }`, {}, bot);
  await go(first, "#/account/robotta");
  await first.waitForSelector(".profile h1");
  out.steps.botProfile = { title: await first.textContent(".profile h1"), badge: await first.locator(".profile h1 .badge").count() };
  await go(first, "#/account/nobody-here");
  await first.waitForSelector(".profile h1");
  out.steps.noProfile = await first.textContent(".profile h1");

  // 8. Every page audited in both languages, logged in.
  await auditAll(first, "en");
  await auditAll(second, "it");

  // What the pages sent until now (step 9's refusals are meant: its own step says them).
  out.documents = JSON.parse(JSON.stringify(documents));

  // 9. The session ends elsewhere (a new password ends every other): the second device's open
  // game stops using it, logs out and watches, and does not knock on the server for ever.
  await go(second, `#/game/${encodeURIComponent(created)}`);
  await second.waitForSelector(".log li");
  const sockets = [];
  second.on("websocket", (socket) => sockets.push(Date.now()));
  const firstToken = await first.evaluate(() => JSON.parse(localStorage.getItem("risiko:session")).token);
  const changed = (await graphql(`mutation($i: ChangePasswordInput!) { changePassword(input: $i) { ended userErrors { code } } }`, { i: { currentPassword: PASSWORD, newPassword: `${PASSWORD} again` } }, firstToken)).changePassword;
  const endedAt = Date.now();
  await second.waitForSelector(".account-nav a[href='#/login']", { timeout: 15000 });
  await second.waitForTimeout(5000);
  out.steps.sessionEnded = {
    changed,
    session: await second.evaluate(() => localStorage.getItem("risiko:session")),
    socketsAfter: sockets.filter((at) => at >= endedAt).length,
    watching: await second.locator("#actions form.family").count(),
    players: await second.textContent("table.players"),
    refusals: Object.entries(documents).flatMap(([text, codes]) => codes.map((code) => [text.split("(")[0], code])),
  };
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
