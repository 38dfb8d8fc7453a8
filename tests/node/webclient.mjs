// A short game of one of the four games in the web client, as people play it, in headless
// Chromium:
//   node webclient.mjs CHROMIUM SERVER_URL SCREENSHOT_DIR SCENARIO_JSON
// SCENARIO_JSON: {variant, locale: "it" | "en", phone: bool, seed, rounds, switchAt, extras}.
// A person creates the game from the lobby with two bots and a round limit (one by default),
// plays its first moves (switchAt, 4 by default) by clicks (on the map and the panel), switches the language, and plays
// the rest by keyboard alone (the map's type-ahead, Enter, Tab); every page is audited with
// axe-core and searched for raw field names, ids and booleans; then the replay steps through
// the game, and a replay position's link opens where it was. Prints one JSON line of what it
// saw (the Python test asserts on it), with every GraphQL document the pages sent, as sent,
// and the codes of the errors answered to each (`documents`).
import { readFileSync } from "node:fs";
import { audit, graphqlAt, guardedPage, launch, rawWords } from "./browser.mjs";
import { WORDS } from "./setup-documents.mjs";
import { extras } from "./webclient-extras.mjs";

const [executablePath, serverUrl, shots, scenarioJson] = process.argv.slice(2);
const scenario = JSON.parse(scenarioJson);
const origin = new URL(serverUrl).origin;
const browser = await launch(executablePath);
const out = { elsewhere: [], errors: [], raw: [], axe: {}, steps: { played: [] }, documents: {} };
const other = scenario.locale === "it" ? "en" : "it";
const viewport = scenario.phone ? { width: 390, height: 844 } : { width: 1400, height: 900 };
const contextOptions = { viewport, locale: scenario.locale === "it" ? "it-IT" : "en-GB", ...(scenario.phone ? { isMobile: true, hasTouch: true } : {}) };

const graphql = graphqlAt(serverUrl);

// What must never reach the page: the boards' ids and the API's enum values.
const schema = await graphql(WORDS);
const ids = schema.variants.flatMap((v) => [v.name, ...v.board.territories.map((t) => t.id), ...v.board.regions.map((r) => r.id)]);
const enums = [...schema.phases.enumValues, ...schema.codes.enumValues, ...schema.statuses.enumValues].map((e) => e.name);

async function checkWords(page, where) {
  const people = await page.$$eval("table.players tbody th, .legend li", (cells) => cells.map((c) => c.textContent.replace(/\(.*$/, "").trim()).filter(Boolean));
  for (const found of await rawWords(page, ids, enums, [...people, "Bot", "odds", "random"])) out.raw.push({ where, ...found });
}

const version = async (page) => Number(await page.getAttribute("main.game", "data-version"));

// The sentences of an event the page cannot tell (a kind it has no words for), in both
// languages: none may be in the log.
const untold = ["it", "en"].flatMap((locale) => {
  const messages = JSON.parse(readFileSync(new URL(`../../web/src/locales/${locale}.json`, import.meta.url), "utf8"));
  return [messages["event.unknown"], messages["event.UnknownEvent"]];
});
const logSentences = (page) => page.$$eval(".log li .sentence > span:first-child", (spans) => spans.map((span) => span.textContent));

/** Wait until it is the viewer's move (a form to fill) or the game is over. */
async function myMove(page) {
  const found = await page.waitForFunction(
    () => (document.querySelector("#outcome:not([hidden])") ? "over" : document.querySelector("#actions form.family") ? "move" : null),
    null,
    { timeout: 90000 },
  );
  return found.jsonValue();
}

async function fillToMost(form) {
  for (const name of ["armies", "count"]) {
    const field = form.locator(`input[name=${name}]`);
    if (await field.count()) await field.fill((await field.getAttribute("max")) ?? "1");
  }
}

/** Submit `form`: its button clicked, or by keyboard: its first field focused, Tab to the
 * button, Enter. */
async function send(page, form, keyboard) {
  await fillToMost(form);
  const before = await version(page);
  if (!keyboard) await form.locator("button[type=submit]").click();
  else {
    const focused = await page.evaluate(() => document.activeElement?.matches("#actions form.family button[type=submit]"));
    if (!focused) {
      await form.locator("select, input, button").first().focus();
      for (let tab = 0; tab < 8 && !(await page.evaluate(() => document.activeElement?.matches("button[type=submit]"))); tab++) await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
  }
  await page.waitForFunction((v) => Number(document.querySelector("main.game")?.dataset.version) > v || document.querySelector("#actions .error"), before, { timeout: 20000 });
}

/** Choose a space: a click on its shape, or by keyboard: the map focused, its name typed,
 * Enter. */
async function choose(page, space, keyboard) {
  if (!keyboard) return page.locator(`svg.map path.space[data-space="${space}"]`).dispatchEvent("click");
  await page.locator("svg.map path.space[tabindex='0']").focus();
  const name = (await page.getAttribute(`svg.map path.space[data-space="${space}"]`, "aria-label")).split(",")[0];
  await page.keyboard.type(name.toLowerCase(), { delay: 20 });
  out.steps.keyboardFocus ??= await page.evaluate(() => document.activeElement?.getAttribute("data-space"));
  await page.keyboard.press("Enter");
  await page.waitForTimeout(150);
}

const FIGHTS = new Set(["attack", "attackUntil", "seaAttack", "navalBattle", "admiralAttack", "torpedo"]);
const MOVES = new Set(["strategicMove", "moveFleet", "amphibiousMove"]);

/** One move of the person: what the panel offers first, else from a place, else the end of
 * the turn. */
async function play(page, keyboard) {
  const general = page.locator("#actions > form.family:not([data-member=endTurn]):not([data-member=setStandingOrders])");
  let form = null;
  if (await general.count()) {
    form = general.first();
    const select = form.locator("select").first();
    const place = (await select.count()) ? await select.inputValue() : null;
    if (place && (await page.locator(`svg.map path.space[data-space="${place}"]`).count())) await choose(page, place, keyboard);
  } else {
    const fights = out.steps.played.filter((m) => FIGHTS.has(m)).length;
    const places = await page.$$eval("#actions .places button", (buttons) => buttons.map((b) => b.dataset.space));
    for (const place of places.slice(0, 4)) {
      await choose(page, place, keyboard);
      const here = page.locator("#actions .space-title ~ form.family");
      const members = await here.evaluateAll((forms) => forms.map((f) => f.dataset.member));
      const pick = members.findIndex((m) => !MOVES.has(m) && !(FIGHTS.has(m) && fights >= 3));
      if (pick >= 0) {
        form = here.nth(pick);
        break;
      }
      await choose(page, place, false); // nothing worth it there: unchosen
    }
  }
  form ??= page.locator("#actions form.family[data-member=endTurn]");
  if (!(await form.count())) form = page.locator("#actions form.family").first();
  const member = await form.getAttribute("data-member");
  out.steps.played.push(member);
  if (!out.steps.odds && FIGHTS.has(member)) out.steps.odds = await form.locator(".odds").textContent({ timeout: 5000 }).catch(() => null);
  await send(page, form, keyboard);
}

try {
  const context = await browser.newContext(contextOptions);
  const page = await guardedPage(context, origin, out);
  // The lobby, in the browser's language.
  await page.goto(serverUrl);
  await page.waitForSelector("form#create");
  out.steps.lang = await page.evaluate(() => document.documentElement.lang);
  out.axe.lobby = await audit(page);
  await checkWords(page, "lobby");
  // A short game: two bots, a round or two.
  await page.fill("form#create input[name=name]", "Anna");
  await page.fill("form#create input[name=bots]", "2");
  await page.selectOption("form#create select[name=variant]", scenario.variant);
  await page.fill("form#create input[name=roundLimit]", String(scenario.rounds ?? 1));
  await page.fill("form#create input[name=seed]", scenario.seed); // the same game every run
  await page.click("form#create button[type=submit]");
  await page.waitForSelector("svg.map path.space", { timeout: 30000 });
  out.steps.gameId = decodeURIComponent(new URL(page.url()).hash.replace("#/game/", ""));
  // A spectator in another browser follows the game live.
  const watcher = scenario.extras?.includes("spectator") ? await guardedPage(await browser.newContext({ viewport }), origin, out) : null;
  await watcher?.goto(page.url());
  let keyboard = false;
  for (let move = 0; move < 150; move++) {
    if ((await myMove(page)) === "over") break;
    if (move === 0) {
      out.axe.game = await audit(page);
      out.steps.panel = await page.textContent("#actions");
    }
    await checkWords(page, `move ${move}`);
    if (move === (scenario.switchAt ?? 4) && !keyboard) {
      // Halfway through the first turns: a picture, then the other language, then keys.
      if (shots) await page.screenshot({ path: `${shots}/${scenario.variant}-${scenario.locale}.png` });
      const before = await page.textContent("#actions h2");
      await page.selectOption(".bar select", other);
      await page.waitForFunction((lang) => document.documentElement.lang === lang && document.querySelector("#actions h2"), other);
      out.steps.switched = { before, after: await page.textContent("#actions h2") };
      keyboard = true;
    }
    await play(page, keyboard);
    if (keyboard) out.steps.keyboardMoves = (out.steps.keyboardMoves ?? 0) + 1;
    else out.steps.clickMoves = (out.steps.clickMoves ?? 0) + 1;
  }
  await page.waitForSelector("#outcome:not([hidden]) h2", { timeout: 90000 });
  out.steps.outcome = await page.textContent("#outcome h2");
  out.steps.log = await page.$$eval(".log li", (items) => items.length);
  out.steps.untold = (await logSentences(page)).filter((text) => untold.includes(text)).length;
  out.steps.diceShown = await page.locator(".log svg.die").count();
  await checkWords(page, "outcome");
  out.steps.phoneOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  out.steps.mapBox = await page.locator("svg.map").boundingBox();
  out.steps.viewport = viewport;
  if (watcher) {
    const board = (p) => p.$$eval("svg.map g[data-units]", (groups) => groups.map((g) => g.textContent).join(" "));
    const mine = await board(page);
    await watcher.waitForFunction((text) => [...document.querySelectorAll("svg.map g[data-units]")].map((g) => g.textContent).join(" ") === text, mine, { timeout: 20000 }).catch(() => {});
    out.steps.spectator = { same: (await board(watcher)) === mine, forms: await watcher.locator("#actions form.family").count(), log: await watcher.locator(".log li").count() };
  }
  // The language chosen is remembered.
  const toldLive = await logSentences(page);
  await page.reload();
  await page.waitForSelector("svg.map path.space");
  out.steps.remembered = await page.evaluate(() => document.documentElement.lang);
  // The history read again, a page at a time: the same events, told the same.
  await page.waitForFunction((n) => document.querySelectorAll(".log li").length >= n, toldLive.length, { timeout: 15000 }).catch(() => {});
  out.steps.toldAgain = { live: toldLive.length, same: JSON.stringify(await logSentences(page)) === JSON.stringify(toldLive) };
  out.steps.afterReload = await page.textContent("table.players");
  out.steps.standings = await page.locator(".standings svg.chart").count();
  await extras(page, context, { scenario, shots, out, graphql, guardedPage, origin, checkWords, audit });
  if (shots) {
    // The lobby with its games, in the scenario's first language.
    const lobby = await guardedPage(await browser.newContext(contextOptions), origin, out);
    await lobby.goto(serverUrl);
    await lobby.waitForSelector("tbody#games tr[data-game]");
    await lobby.screenshot({ path: `${shots}/lobby-${scenario.locale}.png` });
  }
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error));
  if (shots) for (const [n, opened] of browser.contexts().flatMap((c) => c.pages()).entries()) await opened.screenshot({ path: `${shots}/failure-${scenario.variant}-${n}.png` }).catch(() => {});
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
