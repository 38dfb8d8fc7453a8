// Italian and English: ICU MessageFormat catalogues (locales/*.json) formatted by FormatJS's
// intl-messageformat, with the browser's own plural rules (Intl.PluralRules) and lists. The
// language is the one chosen here before (remembered), else the browser's first of ours. Only
// the catalogue of the language shown is loaded.

import { IntlMessageFormat } from "intl-messageformat";
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type en from "./locales/en.json";
import type it from "./locales/it.json";

export type Locale = "it" | "en";
export type MessageKey = keyof typeof en;
export type Values = Record<string, string | number | boolean | null | undefined>;
// Each message as the build parsed it (vite.config.ts): the page is sent no parser.
type Catalogue = Record<MessageKey, string | MessageFormatElement[]>;

// Each catalogue must have every key of the other: this compiles only when they do.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function agree<T extends true>(): T | void {}
agree<Same<keyof typeof it, MessageKey>>();
const LOADERS: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  en: () => import("./locales/en.json"),
  it: () => import("./locales/it.json"),
};
const catalogues: Partial<Record<Locale, Catalogue>> = {};
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

/** Load the catalogue of the language shown (before anything is drawn). */
export async function loadLocale(which: Locale = locale): Promise<void> {
  catalogues[which] ??= (await LOADERS[which]()).default;
}

/** Switch the language, remember it, and tell whoever draws words. */
export async function setLocale(next: Locale): Promise<void> {
  if (next === locale) return;
  await loadLocale(next);
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
  return Object.prototype.hasOwnProperty.call(catalogues[locale] ?? {}, key);
}

export function t(key: MessageKey, values: Values = {}): string {
  const id = `${locale}\u0000${key}`;
  let format = compiled.get(id);
  if (!format) {
    const message = catalogues[locale]?.[key];
    if (message === undefined) return key; // the catalogue could not be loaded
    format = new IntlMessageFormat(message, locale);
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
