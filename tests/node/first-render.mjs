// How long a game's page takes to show its board, in headless Chromium: from the start of the
// navigation to the first board drawn (the page's own "risiko:board" mark), with the first
// contentful paint, each load in a fresh browser context (nothing cached), on a desktop's
// screen, at full speed and with the CPU slowed four times (DevTools' emulation).
//   node first-render.mjs CHROMIUM PAGE_URL RUNS
// Prints one JSON line: {full: [ms…], slow: [ms…], paint: [ms…]}.
import { launch } from "./browser.mjs";

const [executablePath, url, runs = "5"] = process.argv.slice(2);
const browser = await launch(executablePath);
const out = { full: [], slow: [], paint: [] };
for (const speed of ["full", "slow"]) {
  for (let run = 0; run < Number(runs); run++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: "it-IT" });
    const page = await context.newPage();
    if (speed === "slow") {
      const session = await context.newCDPSession(page);
      await session.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    }
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName("risiko:board").length > 0, null, { timeout: 60000 });
    const [board, paint] = await page.evaluate(() => [
      performance.getEntriesByName("risiko:board")[0].startTime,
      performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    ]);
    out[speed].push(Math.round(board));
    if (speed === "full") out.paint.push(Math.round(paint));
    await context.close();
  }
}
await browser.close();
console.log(JSON.stringify(out));
