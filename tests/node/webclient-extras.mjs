// What the browser test of a game checks once the game is over (webclient.mjs): its replay,
// step by step and by a shared link, against the board as it ended; and, for the scenarios
// that ask, that a seat's page shows its own secrets only.
import { CREATE, JOIN, OBJECTIVE, START } from "./setup-documents.mjs";

const pieces = (page) => page.$$eval("svg.map g[data-units]", (groups) => groups.map((g) => `${g.dataset.units}:${g.textContent}`).join(" "));
const where = (page) => page.textContent(".replay .where");

const isOperation = (request, name) => Boolean(request.postDataJSON()?.query?.startsWith(`query ${name}(`));

/** Holds `page`'s requests of the operation `name` until the function returned is called. */
async function holding(page, name) {
  let release;
  const released = new Promise((resolve) => (release = resolve));
  await page.route("**/graphql", async (route) => {
    if (isOperation(route.request(), name)) await released;
    return route.fallback();
  });
  return release;
}

async function replay(page, context, { out, guardedPage, origin, checkWords, audit }) {
  const live = await pieces(page);
  // The replay is read once its history is all in (aria-busy false), never before: while its
  // pages are held, it says it is busy.
  const release = await holding(page, "EventPage");
  const reading = page.waitForRequest((request) => isOperation(request, "EventPage"));
  await page.click("#to-replay");
  await reading;
  const seen = { busyReading: await page.getAttribute(".replay", "aria-busy") };
  release();
  await page.waitForSelector('.replay[aria-busy="false"]');
  seen.moves = Number(await page.getAttribute(".replay input", "max"));
  seen.lastIsLive = (await pieces(page)) === live;
  await page.click(".replay button[data-step=first]");
  seen.firstEmpty = (await page.$$eval("svg.map g[data-units]", (groups) => groups.every((g) => !g.textContent))) === true;
  // Keys step through it: ] forward, [ back.
  await page.locator("body").focus();
  const forward = Math.min(21, Math.floor(seen.moves / 2));
  for (let step = 0; step < forward; step++) await page.keyboard.press("]");
  await page.keyboard.press("[");
  seen.steppedTo = forward - 1;
  seen.afterKeys = await where(page);
  seen.sliderAt = Number(await page.inputValue(".replay input"));
  seen.moveTold = await page.$$eval(".replay .move li", (items) => items.map((li) => li.textContent));
  await checkWords(page, "replay");
  out.axe.replay = await audit(page);
  // Its address is the position: opened elsewhere, the same board.
  seen.link = page.url();
  const board = await pieces(page);
  const other = await guardedPage(context, origin, out);
  await other.goto(seen.link);
  await other.waitForFunction((text) => document.querySelector('.replay[aria-busy="false"] .where')?.textContent === text, seen.afterKeys, { timeout: 120000 });  // a ceiling (a loaded machine replays a long game slowly): the signal is aria-busy
  seen.sharedSame = (await pieces(other)) === board;
  seen.sharedPieces = board.split(" ").filter((piece) => !piece.endsWith(":")).length;
  await other.close();
  out.steps.replay = seen;
}

/** Three people at a table: the third seat's page shows its own objective, never another's;
 * a spectator's shows none. */
async function secrets(context, { out, graphql, guardedPage, origin, scenario }) {
  const created = await graphql(CREATE, { v: scenario.variant });
  const game = created.createGame.game.id;
  const seats = [];
  for (const name of ["Bea", "Carlo", "Dora"]) seats.push((await graphql(JOIN, { g: game, n: name })).joinGame.token);
  await graphql(START, { g: game }, seats[0]);
  const texts = [];
  for (const token of seats) texts.push((await graphql(OBJECTIVE, { g: game }, token)).game.objective.id);
  const seat = await context.browser().newContext({ locale: context._options?.locale });
  await seat.addInitScript(([id, value]) => localStorage.setItem(`risiko:token:${id}`, value), [game, seats[2]]);
  const dora = await guardedPage(seat, origin, out);
  await dora.goto(`${origin}/#/game/${encodeURIComponent(game)}`);
  await dora.waitForSelector(".objective");
  const shown = await dora.textContent(".objective");
  const spectator = await guardedPage(await context.browser().newContext(), origin, out);
  await spectator.goto(`${origin}/#/game/${encodeURIComponent(game)}`);
  await spectator.waitForSelector("table.players");
  out.steps.secrets = {
    ownShown: shown.length > 20,
    shownObjective: await dora.getAttribute(".objective", "data-objective"),
    objectivesShown: await dora.locator(".objective").count(),
    objectives: texts,
    spectatorObjective: await spectator.locator(".objective").count(),
    seatCards: await dora.locator(".hand").count(),
    spectatorCards: await spectator.locator(".hand").count(),
  };
}

export async function extras(page, context, options) {
  await replay(page, context, options);
  if (options.scenario.extras?.includes("secrets")) await secrets(context, options);
}
