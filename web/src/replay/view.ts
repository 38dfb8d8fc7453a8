// Stepping through a game on its map: a slider over every move (its arrow keys, Home and End),
// buttons to step and to play, and the same steps by the keys [ and ] anywhere on the page.
// The address follows the position, so that it can be shared.

import { describe, type GameEvent, type UnknownEvent } from "../events";
import { html } from "../dom";
import { t } from "../i18n";
import type { Names } from "../names";
import { gameLink, replayLink } from "../routes";
import type { History } from "./fold";

export interface Replay {
  element: HTMLElement;
  /** The history grew (a live game), or was read: show it, at the position asked or the end. */
  update(history: History, events: readonly (GameEvent | UnknownEvent)[]): void;
  /** The index of the position shown (into history.versions). */
  position(): number;
  stop(): void;
}

export function replayControls(gameId: string, names: Names, viewer: () => number | null, asked: number | null, moved: (index: number) => void): Replay {
  const element = html(`<section class="replay" aria-labelledby="replay-title">
    <h2 id="replay-title">${t("replay.title")}</h2>
    <div class="controls">
      <button type="button" data-step="first" aria-label="${t("replay.first")}" title="${t("replay.first")}">⏮</button>
      <button type="button" data-step="back" aria-label="${t("replay.back")}" title="${t("replay.back")}">◀</button>
      <button type="button" data-step="play" aria-label="${t("replay.play")}" title="${t("replay.play")}">⏵</button>
      <button type="button" data-step="next" aria-label="${t("replay.next")}" title="${t("replay.next")}">▶</button>
      <button type="button" data-step="last" aria-label="${t("replay.last")}" title="${t("replay.last")}">⏭</button>
      <input type="range" min="0" value="0" step="1" aria-label="${t("replay.slider")}">
    </div>
    <p class="where" aria-live="polite"></p>
    <ol class="move"></ol>
    <p><a class="live" href="${gameLink(gameId)}">${t("replay.leave")}</a></p>
  </section>`);
  const slider = element.querySelector("input")!;
  let past: History | null = null;
  let events: readonly (GameEvent | UnknownEvent)[] = [];
  let index = 0;
  let playing: number | undefined;

  const show = (next: number): void => {
    if (!past) return;
    index = Math.max(0, Math.min(past.versions.length - 1, next));
    slider.value = String(index);
    const version = past.versions[index];
    const total = past.versions.length - 1;
    const where = t("replay.where", { move: index, total });
    element.querySelector(".where")!.textContent = where;
    slider.setAttribute("aria-valuetext", where);
    const move = element.querySelector(".move")!;
    move.replaceChildren();
    for (const event of events.filter((e) => e.version === version && index > 0)) {
      const sentence = describe(event, names, viewer());
      if (sentence) move.append(Object.assign(document.createElement("li"), { textContent: sentence.text }));
    }
    replaceAddress(replayLink(gameId, version));
    moved(index);
  };
  const steps: Record<string, () => void> = {
    first: () => show(0),
    back: () => show(index - 1),
    next: () => show(index + 1),
    last: () => show(Infinity),
    play: () => {
      window.clearInterval(playing);
      if (index >= (past?.versions.length ?? 1) - 1) show(0);
      playing = window.setInterval(() => (index >= past!.versions.length - 1 ? window.clearInterval(playing) : show(index + 1)), 700);
    },
  };
  for (const button of element.querySelectorAll<HTMLButtonElement>("button[data-step]")) {
    button.addEventListener("click", () => {
      if (button.dataset.step !== "play") window.clearInterval(playing);
      steps[button.dataset.step!]();
    });
  }
  slider.addEventListener("input", () => {
    window.clearInterval(playing);
    show(Number(slider.value));
  });
  const keys = (event: KeyboardEvent): void => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "[" || event.key === "]") {
      window.clearInterval(playing);
      show(index + (event.key === "]" ? 1 : -1));
    }
  };
  document.addEventListener("keydown", keys);

  let placed = false;
  return {
    element,
    update(found, all) {
      const atEnd = past === null || index === past.versions.length - 1;
      past = found;
      events = all;
      slider.max = String(found.versions.length - 1);
      if (!placed && asked !== null) {
        const at = found.versions.findIndex((v) => v >= asked);
        if (at >= 0) {
          placed = true;
          return show(at);
        }
      }
      if (atEnd && (placed || asked === null)) show(Infinity);
    },
    position: () => index,
    stop() {
      window.clearInterval(playing);
      document.removeEventListener("keydown", keys);
    },
  };
}

function replaceAddress(hash: string): void {
  if (location.hash !== hash) history.replaceState(null, "", hash);
}
