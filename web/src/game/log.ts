// The game's events in words, newest first, each with a link to the board as that move left it
// (a replay position that can be shared); the newest also announced to screen readers.

import { describe, sentenceNode, type GameEvent } from "../events";
import { t } from "../i18n";
import type { Names } from "../names";
import { replayLink } from "../routes";

const SHOWN = 300;

export interface Log {
  element: HTMLElement;
  /** Tell new events (`live`: as they happen, announced; else the history, quietly). */
  add(events: GameEvent[], live: boolean): void;
  /** Tell every event again (the language changed). */
  redraw(): void;
}

export function eventLog(gameId: string, all: () => GameEvent[], names: Names, viewer: () => number | null, announcer: HTMLElement): Log {
  const element = document.createElement("section");
  element.className = "log";
  element.innerHTML = `<h2 id="log-title"></h2><ol reversed aria-labelledby="log-title"></ol>`;
  const list = element.querySelector("ol")!;

  const item = (event: GameEvent): HTMLLIElement | null => {
    const sentence = describe(event, names, viewer());
    if (!sentence) return null;
    const li = document.createElement("li");
    li.dataset.seq = String(event.seq);
    li.dataset.version = String(event.version);
    li.append(sentenceNode(sentence));
    const link = document.createElement("a");
    link.href = replayLink(gameId, event.version);
    link.className = "permalink";
    link.textContent = "#";
    link.setAttribute("aria-label", t("log.link"));
    link.title = t("log.link");
    li.append(" ", link);
    return li;
  };

  const log: Log = {
    element,
    add(events, live) {
      const items = events.map(item).filter((li): li is HTMLLIElement => li !== null);
      list.prepend(...items.reverse());
      while (list.children.length > SHOWN) list.lastElementChild!.remove();
      if (live && items.length) announcer.textContent = items.map((li) => li.querySelector(".sentence > span")!.textContent).join(" ");
    },
    redraw() {
      element.querySelector("h2")!.textContent = t("log.title");
      list.replaceChildren();
      log.add(all().slice(-SHOWN), false);
    },
  };
  element.querySelector("h2")!.textContent = t("log.title");
  return log;
}
