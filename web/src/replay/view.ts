// Stepping through a game on its map: a slider over every move (its arrow keys, Home and End),
// buttons to step and to play, and the same steps by the keys [ and ] anywhere on the page.
// The address follows the position, so that it can be shared.

import { describe, type GameEvent } from "../events";
import { html } from "../dom";
import { t } from "../i18n";
import type { Names } from "../names";
import { gameLink, replayLink } from "../routes";
import type { History } from "./fold";

export interface Replay {
  element: HTMLElement;
  /** The history grew (a live game), or a page of it was read: show it, at the position asked
   * or the end. */
  update(history: History, events: readonly GameEvent[]): void;
  /** The history is all in: the replay is whole (no longer aria-busy). */
  read(): void;
  /** The index of the position shown (into history.versions). */
  position(): number;
  stop(): void;
}

function markup(gameId: string): HTMLElement {
  const button = (step: string, symbol: string): string => {
    const label = t(`replay.${step}` as "replay.first");
    return `<button type="button" data-step="${step}" aria-label="${label}" title="${label}">${symbol}</button>`;
  };
  return html(`<section class="replay" aria-labelledby="replay-title" aria-busy="true">
    <h2 id="replay-title">${t("replay.title")}</h2>
    <div class="controls">
      ${button("first", "⏮")}${button("back", "◀")}${button("play", "⏵")}${button("next", "▶")}${button("last", "⏭")}
      <input type="range" min="0" value="0" step="1" aria-label="${t("replay.slider")}">
    </div>
    <p class="where" aria-live="polite"></p>
    <ol class="move"></ol>
    <p><a class="live" href="${gameLink(gameId)}">${t("replay.leave")}</a></p>
  </section>`);
}

export function replayControls(gameId: string, names: Names, viewer: () => number | null, asked: number | null, moved: (index: number) => void): Replay {
  const element = markup(gameId);
  const slider = element.querySelector("input")!;
  let past: History | null = null;
  let events: readonly GameEvent[] = [];
  let index = 0;
  let playing: number | undefined;

  /** Show the board after move `next`, with what that move did, at this address. */
  const show = (next: number): void => {
    if (!past) return;
    index = Math.max(0, Math.min(past.versions.length - 1, next));
    slider.value = String(index);
    const version = past.versions[index];
    const where = t("replay.where", { move: index, total: past.versions.length - 1 });
    element.querySelector(".where")!.textContent = where;
    slider.setAttribute("aria-valuetext", where);
    const told = events.filter((e) => e.version === version && index > 0).map((e) => describe(e, names, viewer()));
    element.querySelector(".move")!.replaceChildren(...told.flatMap((s) => (s ? [Object.assign(document.createElement("li"), { textContent: s.text })] : [])));
    replaceAddress(replayLink(gameId, version));
    moved(index);
  };
  const last = (): number => (past?.versions.length ?? 1) - 1;
  const steps: Record<string, () => void> = {
    first: () => show(0),
    back: () => show(index - 1),
    next: () => show(index + 1),
    last: () => show(Infinity),
    play: () => {
      window.clearInterval(playing);
      if (index >= last()) show(0);
      playing = window.setInterval(() => (index >= last() ? window.clearInterval(playing) : show(index + 1)), 700);
    },
  };
  const unbind = bind(element, steps, show, () => window.clearInterval(playing), () => index);

  let placed = false;
  let whole = false; // the history is all in: once it is shown too, the replay is no longer busy
  const settle = (): void => {
    if (whole && past) element.setAttribute("aria-busy", "false");
  };
  return {
    element,
    update(found, all) {
      const atEnd = past === null || index === last();
      past = found;
      events = all;
      slider.max = String(found.versions.length - 1);
      // A position asked is shown once its page is in, and stays there while later pages come
      // in; at the end of the whole history, the replay follows the moves to come.
      const at = asked === null || placed ? -1 : found.versions.findIndex((v) => v >= asked);
      if (at >= 0) {
        placed = true;
        show(at);
      } else if (atEnd && (asked === null || (placed && whole))) show(Infinity);
      settle();
    },
    read() {
      whole = true;
      settle();
    },
    position: () => index,
    stop() {
      window.clearInterval(playing);
      unbind();
    },
  };
}

/** The buttons, the slider, and [ and ] anywhere on the page; returns how to let go of the
 * page's keys. */
function bind(element: HTMLElement, steps: Record<string, () => void>, show: (index: number) => void, halt: () => void, index: () => number): () => void {
  for (const button of element.querySelectorAll<HTMLButtonElement>("button[data-step]")) {
    button.addEventListener("click", () => {
      if (button.dataset.step !== "play") halt();
      steps[button.dataset.step!]();
    });
  }
  const slider = element.querySelector("input")!;
  slider.addEventListener("input", () => {
    halt();
    show(Number(slider.value));
  });
  const keys = (event: KeyboardEvent): void => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key !== "[" && event.key !== "]") return;
    halt();
    show(index() + (event.key === "]" ? 1 : -1));
  };
  document.addEventListener("keydown", keys);
  return () => document.removeEventListener("keydown", keys);
}

function replaceAddress(hash: string): void {
  if (location.hash !== hash) history.replaceState(null, "", hash);
}
