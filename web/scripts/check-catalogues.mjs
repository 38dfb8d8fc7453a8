// The message catalogues (src/locales/*.json), checked as ICU MessageFormat: every message
// parses, and each names the same arguments in every language (a translation that drops or
// renames one would fail only when shown).
//   node scripts/check-catalogues.mjs
// Prints one JSON line: {messages, problems: [...]}.
import { readFileSync, readdirSync } from "node:fs";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";

const folder = new URL("../src/locales/", import.meta.url);
const catalogues = Object.fromEntries(
  readdirSync(folder).filter((f) => f.endsWith(".json")).map((f) => [f.replace(".json", ""), JSON.parse(readFileSync(new URL(f, folder), "utf8"))]),
);

function argumentsOf(elements, found = new Set()) {
  for (const element of elements) {
    if (element.type !== TYPE.literal && element.type !== TYPE.pound) found.add(element.value);
    for (const option of Object.values(element.options ?? {})) argumentsOf(option.value, found);
  }
  return found;
}

const problems = [];
const names = {};
for (const [locale, messages] of Object.entries(catalogues)) {
  for (const [key, message] of Object.entries(messages)) {
    try {
      const args = [...argumentsOf(parse(message))].sort().join(",");
      (names[key] ??= {})[locale] = args;
    } catch (error) {
      problems.push({ locale, key, problem: String(error.message ?? error) });
    }
  }
}
for (const [key, byLocale] of Object.entries(names)) {
  if (new Set(Object.values(byLocale)).size > 1) problems.push({ key, problem: `arguments differ: ${JSON.stringify(byLocale)}` });
}
console.log(JSON.stringify({ messages: Object.keys(names).length, locales: Object.keys(catalogues), problems }));
