// A page on one origin uses the API on another, in headless Chromium:
//   node cors.mjs CHROMIUM PAGE_URL API_URL
// prints {"fetch": {...}, "socket": "connection_ack" | "error" | ...} as one JSON line.
import { chromium } from "playwright-core";

const [executablePath, pageUrl, apiUrl] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  await page.goto(pageUrl);
  const result = await page.evaluate(async (api) => {
    const out = {};
    try {
      // An Authorization header makes this a preflighted request.
      const answer = await fetch(api + "/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer not-a-seat" },
        body: JSON.stringify({ query: "{ variants { name } }" }),
      });
      out.fetch = { status: answer.status, body: await answer.json(),
        rateLimit: answer.headers.get("RateLimit") };
    } catch (error) {
      out.fetch = { error: String(error) };
    }
    out.socket = await new Promise((resolve) => {
      const socket = new WebSocket(api.replace("http", "ws") + "/graphql", "graphql-transport-ws");
      socket.onopen = () => socket.send(JSON.stringify({ type: "connection_init", payload: {} }));
      socket.onmessage = (message) => { resolve(JSON.parse(message.data).type); socket.close(); };
      socket.onerror = () => resolve("error");
      setTimeout(() => resolve("timeout"), 10000);
    });
    return out;
  }, apiUrl);
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
}
