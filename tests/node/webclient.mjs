// The web client as people use it, in headless Chromium, every request to another host
// refused:
//   node webclient.mjs CHROMIUM SERVER_URL SCREENSHOT_DIR
// A person creates a game with two bots and plays by clicks; a second browser spectates and
// sees the same moves live; a third seat's page never shows another seat's secrets; a reload
// resumes the seat. Prints one JSON line of what it saw (the Python test asserts on it).
import { chromium } from "playwright-core";

const [executablePath, serverUrl, shots] = process.argv.slice(2);
const origin = new URL(serverUrl).origin;
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const out = { elsewhere: [], errors: [], steps: {} };

async function graphql(query, variables = {}, token = null) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${serverUrl}/graphql`, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function page(context) {
  const opened = await context.newPage();
  await opened.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith("data:")) return route.continue();
    out.elsewhere.push(url);
    return route.abort();
  });
  opened.on("console", (message) => {
    if (message.type() === "error") out.errors.push(message.text());
  });
  opened.on("pageerror", (error) => out.errors.push(String(error)));
  return opened;
}

async function seated(token, gameId) {
  // A seat's page: its token in the browser's storage for that game, as after joining.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(([id, value]) => localStorage.setItem(`risiko:token:${id}`, value), [gameId, token]);
  const opened = await page(context);
  await opened.goto(`${serverUrl}/#/game/${encodeURIComponent(gameId)}`);
  await opened.waitForSelector("svg.map path.space");
  return opened;
}

try {
  // 1. A person creates a game with two bots from the lobby, and plays by clicks.
  const anna = await page(await browser.newContext({ viewport: { width: 1280, height: 900 } }));
  await anna.goto(serverUrl);
  await anna.waitForSelector("form#create");
  await anna.fill("form#create input[name=name]", "Anna");
  await anna.fill("form#create input[name=bots]", "2");
  await anna.selectOption("form#create select[name=variant]", "classic");
  await anna.fill("form#create input[name=roundLimit]", "1"); // a whole game: one round
  // A seeded deal and dice: the bots decide on what they see, so the game is the same every
  // run (with another seed a bot may win by its objective before Anna's first turn).
  await anna.fill("form#create input[name=seed]", "web-classic");
  await anna.click("form#create button[type=submit]");
  await anna.waitForSelector("svg.map path.space", { timeout: 30000 });
  const gameId = decodeURIComponent(new URL(anna.url()).hash.replace("#/game/", ""));
  out.steps.gameId = gameId;
  await anna.waitForSelector("#actions h2", { timeout: 30000 }); // "Your move"
  // 2. A second browser spectates.
  const watcher = await page(await browser.newContext({ viewport: { width: 1280, height: 900 } }));
  await watcher.goto(`${serverUrl}/#/game/${encodeURIComponent(gameId)}`);
  await watcher.waitForSelector("svg.map text[data-units]");
  const placed = [];
  let home = null; // where Anna puts every army: the place her attack comes from
  async function place() {
    await anna.waitForSelector("#actions h2", { timeout: 30000 });
    const mine = home && (await anna.locator(`svg.map path.space.highlight[data-space="${home}"]`).count());
    const space = mine ? home : await anna.getAttribute("svg.map path.space.highlight", "data-space");
    home = space;
    const before = await anna.textContent(`svg.map text[data-units="${space}"]`);
    await anna.locator(`svg.map path.space[data-space="${space}"]`).dispatchEvent("click"); // the shape itself, wherever it lies
    const form = anna.locator(`#space form.family[data-member=placeArmies]`);
    const armies = form.locator("input[name=armies]");
    const most = await armies.getAttribute("max");
    await armies.fill(most);
    await form.locator("button[type=submit]").click();
    await anna.waitForFunction(
      ([id, old]) => document.querySelector(`svg.map text[data-units="${id}"]`)?.textContent !== old,
      [space, before],
      { timeout: 15000 },
    );
    const after = await anna.textContent(`svg.map text[data-units="${space}"]`);
    placed.push({ space, before, after, armies: Number(most) });
  }
  const status = async () => (await anna.textContent("#status")) ?? "";
  // The initial placement, by clicks, then the whole of Anna's first turn.
  for (let guard = 0; guard < 40 && (placed.length === 0 || (await status()).includes("setup")); guard++) {
    await place();
    await anna.waitForFunction(() => document.querySelector("#actions h2") || !document.querySelector("#status")?.textContent?.includes("your move"));
    await anna.waitForSelector("#actions h2", { timeout: 30000 });
  }
  out.steps.placed = placed;
  for (let guard = 0; guard < 10 && (await status()).includes("armies to place"); guard++) {
    if (await anna.locator("#actions form.family[data-member=tradeCards]").count()) {
      await anna.locator("#actions form.family[data-member=tradeCards] button[type=submit]").first().click();
      await anna.waitForTimeout(300);
      continue;
    }
    await place();
    await anna.waitForSelector("#actions h2", { timeout: 30000 });
  }
  out.steps.attackPhase = await status();
  // An attack, its odds shown before it is sent: from where the armies are if an enemy is
  // next to it, else from the first highlighted space that offers one.
  const attack = anna.locator("#space form.family[data-member=attackUntil], #space form.family[data-member=attack]").first();
  const sources = [home, ...(await anna.$$eval("svg.map path.space.highlight", (paths) => paths.map((p) => p.dataset.space)))];
  for (const source of sources) {
    await anna.locator(`svg.map path.space[data-space="${source}"]`).dispatchEvent("click"); // the shape itself
    await anna.waitForSelector(`#space h2`);
    if (await attack.count()) break;
    await anna.locator(`svg.map path.space[data-space="${source}"]`).dispatchEvent("click"); // unselect
  }
  await attack.waitFor({ timeout: 15000 });
  await anna.waitForFunction(() => (document.querySelector("#space form.family .odds")?.textContent ?? "").includes("conquest"), null, { timeout: 15000 });
  out.steps.odds = await attack.locator(".odds").textContent();
  const shown = async () => Number(await anna.getAttribute("main.game", "data-version"));
  const before = await shown();
  await attack.locator("button[type=submit]").click();
  await anna.waitForFunction((v) => Number(document.querySelector("main.game")?.dataset.version) > v, before, { timeout: 15000 });
  await anna.waitForSelector("#actions form.family[data-member=occupy], #actions form.family[data-member=endTurn]", { timeout: 30000 });
  out.steps.conquered = (await anna.locator("#actions form.family[data-member=occupy]").count()) > 0;
  if (out.steps.conquered) {
    await anna.locator("#actions form.family[data-member=occupy] button[type=submit]").click();
    await anna.waitForSelector("#actions form.family[data-member=endTurn]", { timeout: 15000 });
  }
  out.steps.diceShown = await anna.evaluate(() => [...document.querySelectorAll("#log li")].some((li) => /[⚀-⚅]/.test(li.textContent ?? "")));
  await anna.locator("#actions form.family[data-member=endTurn] button[type=submit]").click();
  await anna.waitForFunction(() => !(document.querySelector("#status")?.textContent ?? "").includes("attack — your move"), null, { timeout: 15000 });
  out.steps.afterTurn = await status();
  // The bots finish the round, and with it the game: the outcome, and the seed checked
  // against the commitment published at creation, in the browser.
  await anna.waitForSelector("#outcome:not([hidden]) .seed button", { timeout: 30000 });
  out.steps.outcome = await anna.textContent("#outcome h2");
  await anna.click("#outcome .seed button");
  await anna.waitForFunction(() => (document.querySelector("#outcome .seed span")?.textContent ?? "").length > 0);
  out.steps.seedCheck = await anna.textContent("#outcome .seed span");
  // The spectator sees the space Anna played from as Anna does, live.
  const last = placed[placed.length - 1];
  await watcher.waitForFunction(
    ([id, text]) => document.querySelector(`svg.map text[data-units="${id}"]`)?.textContent === text,
    [last.space, await anna.textContent(`svg.map text[data-units="${last.space}"]`)],
    { timeout: 15000 },
  );
  out.steps.spectatorSaw = await watcher.textContent(`svg.map text[data-units="${last.space}"]`);
  out.steps.spectatorHasActions = (await watcher.$$("#actions form.family")).length;
  out.steps.spectatorLog = await watcher.$$eval("#log li", (items) => items.length);
  // 3. A reload resumes Anna's seat (its token kept in the browser).
  await anna.reload();
  await anna.waitForSelector("svg.map path.space");
  await anna.waitForSelector("table.players");
  out.steps.afterReload = await anna.textContent("table.players");
  if (shots) {
    await anna.screenshot({ path: `${shots}/classic.png` });
    const lobby = await page(await browser.newContext({ viewport: { width: 1280, height: 700 } }));
    await lobby.goto(serverUrl);
    await lobby.waitForSelector("tbody#games tr");
    await lobby.screenshot({ path: `${shots}/lobby.png` });
  }

  // 4. Three people at a table: the third seat's page shows its own objective, never another's.
  const created = await graphql(`mutation { createGame(input: {variant: "classic", seed: "web-secrets"}) { game { id } } }`);
  const secretGame = created.createGame.game.id;
  const join = `mutation($g: ID!, $n: String!) { joinGame(input: {gameId: $g, name: $n}) { token } }`;
  const seats = [];
  for (const name of ["Bea", "Carlo", "Dora"]) seats.push((await graphql(join, { g: secretGame, n: name })).joinGame.token);
  await graphql(`mutation($g: ID!) { startGame(input: {gameId: $g}) { userErrors { code } } }`, { g: secretGame }, seats[0]);
  const objective = `query($g: ID!) { game(id: $g) { objective { text } hand { id } } }`;
  const secrets = [];
  for (const token of seats) secrets.push((await graphql(objective, { g: secretGame }, token)).game);
  const dora = await seated(seats[2], secretGame);
  await dora.waitForSelector(".objective");
  const text = await dora.textContent("body");
  out.steps.ownObjectiveShown = text.includes(secrets[2].objective.text);
  out.steps.othersObjectivesShown = [0, 1].filter((seat) => text.includes(secrets[seat].objective.text));
  const spectator = await page(await browser.newContext());
  await spectator.goto(`${serverUrl}/#/game/${encodeURIComponent(secretGame)}`);
  await spectator.waitForSelector("table.players");
  const seen = await spectator.textContent("body");
  out.steps.spectatorObjectives = [0, 1, 2].filter((seat) => seen.includes(secrets[seat].objective.text));

  // 5. S.P.Q.RisiKo! by clicks: the occupation of the provinces, on a phone's screen.
  const phone = await page(await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }));
  await phone.goto(serverUrl);
  await phone.waitForSelector("form#create");
  await phone.fill("form#create input[name=name]", "Elio");
  await phone.selectOption("form#create select[name=variant]", "spqr");
  await phone.fill("form#create input[name=roundLimit]", "1");
  await phone.fill("form#create input[name=seed]", "web-spqr"); // the same game every run
  await phone.click("form#create button[type=submit]");
  await phone.waitForSelector("svg.map path.space", { timeout: 30000 });
  const claims = [];
  for (let claim = 0; claim < 3; claim++) {
    await phone.waitForSelector("#actions h2", { timeout: 30000 });
    const shownBefore = Number(await phone.getAttribute("main.game", "data-version"));
    const province = await phone.getAttribute("svg.map path.space.highlight", "data-space");
    await phone.locator(`svg.map path.space[data-space="${province}"]`).dispatchEvent("click"); // the shape itself, wherever it lies
    const form = phone.locator("#space form.family").first();
    const member = await form.getAttribute("data-member");
    await form.locator("button[type=submit]").click();
    await phone.waitForFunction((v) => Number(document.querySelector("main.game")?.dataset.version) > v, shownBefore, { timeout: 15000 });
    claims.push({ province, member, label: await phone.textContent(`svg.map text[data-units="${province}"]`) });
  }
  out.steps.spqrClaims = claims;
  // …and on to the end of the game, by clicks only: whatever the panel offers first (a
  // decision owed, placing what must be placed, an attack), else the end of the turn.
  const played = {};
  for (let step = 0; step < 400; step++) {
    const done = await phone.waitForFunction(
      () => document.querySelector("#outcome:not([hidden])") ? "over" : document.querySelector("#actions h2") ? "move" : null,
      null,
      { timeout: 60000 },
    );
    if ((await done.jsonValue()) === "over") break;
    const shownBefore = Number(await phone.getAttribute("main.game", "data-version"));
    const offered = phone.locator("#actions form.family:not([data-member=endTurn])");
    let form = null;
    if (await offered.count()) form = offered.first();
    else {
      const spaces = phone.locator("svg.map path.space.highlight");
      if (await spaces.count()) {
        await phone.locator(`svg.map path.space[data-space="${await spaces.first().getAttribute("data-space")}"]`).dispatchEvent("click"); // the shape itself, wherever it lies
        const here = phone.locator("#space form.family:not([data-member=strategicMove]):not([data-member=moveFleet])");
        if (await here.count()) form = here.first();
      }
    }
    if (!form) form = phone.locator("#actions form.family[data-member=endTurn]");
    const member = await form.getAttribute("data-member");
    played[member] = (played[member] ?? 0) + 1;
    await form.locator("button[type=submit]").click();
    await phone.waitForFunction(
      (v) => Number(document.querySelector("main.game")?.dataset.version) > v || document.querySelector("#actions .error"),
      shownBefore,
      { timeout: 15000 },
    );
  }
  out.steps.spqrPlayed = played;
  out.steps.spqrOutcome = await phone.textContent("#outcome h2").catch(() => null);
  out.steps.phoneOverflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (shots) await phone.screenshot({ path: `${shots}/phone.png`, fullPage: false });

  // 6. A board of S.P.Q.RisiKo!, as a spectator of a table of bots.
  if (shots) {
    const spqr = await graphql(`mutation { createGame(input: {variant: "spqr", seed: "web-spqr"}) { game { id } } }`);
    const spqrId = spqr.createGame.game.id;
    const host = (await graphql(join, { g: spqrId, n: "Host" })).joinGame.token;
    for (let n = 0; n < 3; n++) await graphql(`mutation($g: ID!) { addBot(input: {gameId: $g}) { seat } }`, { g: spqrId }, host);
    await graphql(`mutation($g: ID!) { startGame(input: {gameId: $g}) { userErrors { code } } }`, { g: spqrId }, host);
    await graphql(`mutation($g: ID!) { leaveGame(input: {gameId: $g}) { userErrors { code } } }`, { g: spqrId }, host);
    const board = await page(await browser.newContext({ viewport: { width: 1280, height: 900 } }));
    await board.goto(`${serverUrl}/#/game/${encodeURIComponent(spqrId)}`);
    await board.waitForFunction(() => document.querySelectorAll("svg.map text[data-units]").length > 40 &&
      [...document.querySelectorAll("svg.map text[data-units]")].filter((t) => t.textContent).length > 20, null, { timeout: 30000 });
    await board.screenshot({ path: `${shots}/spqr.png` });
    out.steps.spqrShown = true;
  }
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error));
  if (shots) for (const [n, opened] of browser.contexts().flatMap((c) => c.pages()).entries()) await opened.screenshot({ path: `${shots}/failure-${n}.png` }).catch(() => {});
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
