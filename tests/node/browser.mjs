// What the browser tests share: headless Chromium with every request to another host refused,
// the page's errors collected, an accessibility audit (axe-core), and the check that no raw
// field name, id or boolean reaches the page.
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core/axe.min.js");

export async function launch(executablePath, args = []) {
  return chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", ...args],
  });
}

/** A GraphQL client of the server, for what the tests set up beside the page; `address`, a
 * client's own (the server trusts its loopback proxy's X-Forwarded-For), as when people sign up
 * from their own. */
export function graphqlAt(serverUrl) {
  return async (query, variables = {}, token = null, address = null) => {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (address) headers["X-Forwarded-For"] = address;
    const response = await fetch(`${serverUrl}/graphql`, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
    const body = await response.json();
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
}

/** A mutation through `api` (graphqlAt's) that must succeed: its payload, or an error naming
 * the userErrors it was refused with. */
export function succeedingAt(api) {
  return async (query, variables, token, address) => {
    const data = await api(query, variables, token, address);
    const payload = Object.values(data)[0];
    if (payload.userErrors?.length) throw new Error(`${query}: ${JSON.stringify(payload.userErrors)}`);
    return payload;
  };
}

/** A page of `context` that may load from `origin` only; what it loads elsewhere and the
 * errors it shows are kept in `out`, and so are the GraphQL documents it sends when `out`
 * has `documents` (recordDocuments). */
export async function guardedPage(context, origin, out) {
  const opened = await context.newPage();
  if (out.documents) recordDocuments(opened, out.documents);
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

/** The accessibility audit's serious and critical violations on the page as it is. */
export async function audit(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
}

/** Words that are the API's, not a person's: field names, ids, booleans, enum values. Player
 * names (chosen by people) and code (a command to copy, a secret) are left out. */
export async function rawWords(page, ids, enums, people) {
  return page.evaluate(
    ([ids, enums, people]) => {
      const found = [];
      const texts = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest("code, script, style, title")) continue;
        if (!parent.closest("option") && !parent.checkVisibility?.()) continue;
        texts.push(node.textContent);
      }
      for (const element of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
        for (const name of ["aria-label", "title", "placeholder"]) if (element.getAttribute(name)) texts.push(element.getAttribute(name));
      }
      const idSet = new Set(ids);
      const enumSet = new Set(enums);
      for (let text of texts) {
        for (const person of people) text = text.split(person).join(" ");
        const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
        for (const word of words) {
          const raw =
            /^(true|false|null|undefined|NaN)$/.test(word) ||
            /^[a-z]+_[a-z0-9_]+$/.test(word) ||
            /^[a-z]+[A-Z]\w*$/.test(word) ||
            (/^[A-Z][a-z]+[A-Z][a-z]+\w*$/.test(word) && !/RisiKo/.test(word)) ||
            idSet.has(word) ||
            enumSet.has(word);
          if (raw) found.push({ word, text: text.slice(0, 120) });
        }
      }
      return found.slice(0, 10);
    },
    [ids, enums, people],
  );
}

/** Every GraphQL document `page` sends, over HTTP or over its WebSocket, exactly as sent, with
 * the codes of the errors answered to it: `documents[text]` = [code, …]. */
export function recordDocuments(page, documents) {
  const answered = (text, errors = []) => {
    const codes = errors.map((error) => error.extensions?.code ?? "ERROR");
    documents[text] = [...new Set([...(documents[text] ?? []), ...codes])];
  };
  const sent = (request) => (request.url().split("?")[0].endsWith("/graphql") && request.method() === "POST" ? request.postDataJSON()?.query : undefined);
  page.on("request", (request) => {
    const text = sent(request);
    if (text) answered(text);
  });
  page.on("response", async (response) => {
    const text = sent(response.request());
    const body = text && (await response.json().catch(() => null));
    if (body?.errors) answered(text, body.errors);
  });
  page.on("websocket", (socket) => {
    const operations = new Map();
    const message = (frame) => {
      try {
        return JSON.parse(frame.payload);
      } catch {
        return {};
      }
    };
    socket.on("framesent", (frame) => {
      const { type, id, payload } = message(frame);
      if (type !== "subscribe") return;
      operations.set(id, payload.query);
      answered(payload.query);
    });
    socket.on("framereceived", (frame) => {
      const { type, id, payload } = message(frame);
      if (type === "error") answered(operations.get(id), payload);
      if (type === "next" && payload.errors) answered(operations.get(id), payload.errors);
    });
  });
}
