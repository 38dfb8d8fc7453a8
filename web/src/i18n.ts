// Italian and English: ICU MessageFormat catalogues (locales/*.json) formatted by FormatJS's
// intl-messageformat, with the browser's own plural rules (Intl.PluralRules) and lists. The
// language is the one chosen here before (remembered), else the browser's first of ours.

import { IntlMessageFormat } from "intl-messageformat";
import en from "./locales/en.json";
import it from "./locales/it.json";

export type Locale = "it" | "en";
export type MessageKey = keyof typeof en;
export type Values = Record<string, string | number | boolean | null | undefined>;

// Each catalogue must have every key of the other: TypeScript holds it here.
const CATALOGUES: Record<Locale, Record<MessageKey, string>> = { en, it };
export const LOCALES: readonly Locale[] = ["it", "en"];
const STORED = "risiko:lang";

function remembered(): string | null {
  try {
    return localStorage.getItem(STORED);
  } catch {
    return null; // storage refused (a private window's settings): the browser's language
  }
}

/** The language to show: the one chosen before, else the browser's first Italian or English. */
export function preferredLocale(chosen: string | null, browser: readonly string[]): Locale {
  if (chosen === "it" || chosen === "en") return chosen;
  for (const tag of browser) {
    const language = tag.toLowerCase().split("-")[0];
    if (language === "it" || language === "en") return language;
  }
  return "en";
}

let locale: Locale = preferredLocale(remembered(), navigator.languages ?? [navigator.language]);
const compiled = new Map<string, IntlMessageFormat>();
const listeners: (() => void)[] = [];

export function currentLocale(): Locale {
  return locale;
}

/** Switch the language, remember it, and tell whoever draws words. */
export function setLocale(next: Locale): void {
  if (next === locale) return;
  locale = next;
  try {
    localStorage.setItem(STORED, next);
  } catch {
    // not remembered: it still applies to this page
  }
  document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

export function onLocaleChange(listener: () => void): void {
  listeners.push(listener);
}

/** Whether the catalogue has `key` (for keys made from the API's ids: codes, types, kinds). */
export function has(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(CATALOGUES.en, key);
}

export function t(key: MessageKey, values: Values = {}): string {
  const id = `${locale}\u0000${key}`;
  let format = compiled.get(id);
  if (!format) {
    format = new IntlMessageFormat(CATALOGUES[locale][key], locale);
    compiled.set(id, format);
  }
  return String(format.format(values));
}

/** The message `key` when the catalogue has it, else `fallback`: a text (a name the API gave),
 * or another key, formatted with the same values. */
export function tOr(key: string, fallback: string | { key: MessageKey }, values: Values = {}): string {
  if (has(key)) return t(key, values);
  return typeof fallback === "string" ? fallback : t(fallback.key, values);
}

/** "a, b and c" / "a, b e c". */
export function list(items: readonly string[]): string {
  return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items);
}

export function percent(probability: number): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(probability);
}

export function decimal(value: number): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
}

document.documentElement.lang = locale;
