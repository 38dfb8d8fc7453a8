// GraphiQL as a person opens it, in headless Chromium, with every request to another host
// refused (as on a machine that reaches no CDN):
//   node graphiql.mjs CHROMIUM SERVER_URL
// runs { variants { name } } from the editor and prints one JSON line:
// {"result": "...", "elsewhere": [urls asked of other hosts], "errors": [console errors]}
import { chromium } from "playwright-core";

const [executablePath, serverUrl] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const out = { elsewhere: [], errors: [], result: null };
try {
  const page = await browser.newPage();
  const origin = new URL(serverUrl).origin;
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith("data:")) return route.continue();
    out.elsewhere.push(url);
    return route.abort();
  });
  page.on("console", (message) => {
    if (message.type() === "error") out.errors.push(message.text());
  });
  page.on("pageerror", (error) => out.errors.push(String(error)));
  const query = encodeURIComponent("{ variants { name } }");
  await page.goto(`${serverUrl}/graphql?q=${query}`);
  await page.waitForSelector(".graphiql-execute-button", { timeout: 30000 });
  await page.click(".graphiql-execute-button");
  await page.waitForFunction(
    () => (document.querySelector(".result-window")?.textContent ?? "").includes("classic"),
    null,
    { timeout: 30000 },
  );
  out.result = await page.textContent(".result-window");
} catch (error) {
  out.errors.push(String(error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
