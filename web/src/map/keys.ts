// The map by keyboard: one Tab stop for the whole map, then the arrow keys go to the nearest
// space that way, letters to the next space whose name starts so, Home and End to the first
// and the last; Enter or Space chooses the space (as a click does), + and - zoom.

import type { Zoom } from "./zoom";

const DIRECTIONS: Record<string, [number, number]> = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

let typed = "";
let typedAt = 0;

/** The nearest space from `from` in direction (dx, dy), within a cone of that direction. */
export function nearestThatWay(from: [number, number], direction: [number, number], anchors: Map<string, [number, number]>, self: string): string | null {
  let best: string | null = null;
  let bestScore = Infinity;
  for (const [id, [x, y]] of anchors) {
    if (id === self) continue;
    const along = (x - from[0]) * direction[0] + (y - from[1]) * direction[1];
    const across = Math.abs((x - from[0]) * direction[1] - (y - from[1]) * direction[0]);
    if (along <= 0 || across > along * 2) continue;
    const score = along + across * 2;
    if (score < bestScore) [best, bestScore] = [id, score];
  }
  return best;
}

function focusSpace(paths: Map<string, SVGPathElement>, id: string): void {
  for (const path of paths.values()) path.tabIndex = -1;
  const path = paths.get(id)!;
  path.tabIndex = 0;
  path.focus();
}

export function moveFocus(
  event: KeyboardEvent,
  paths: Map<string, SVGPathElement>,
  anchors: Map<string, [number, number]>,
  names: Map<string, string>,
  choose: (space: string, byKeyboard: boolean) => void,
  zoom: Zoom,
): void {
  const id = (event.target as Element).getAttribute("data-space");
  if (!id) return;
  const ids = [...paths.keys()];
  let next: string | null = null;
  if (event.key in DIRECTIONS) next = nearestThatWay(anchors.get(id)!, DIRECTIONS[event.key], anchors, id);
  else if (event.key === "Home") next = ids[0];
  else if (event.key === "End") next = ids[ids.length - 1];
  else if (event.key === " " && typed && event.timeStamp - typedAt < 800) {
    // A space while typing a name is part of it ("Stati Uniti…"), as in a list's type-ahead.
    typed += " ";
    typedAt = event.timeStamp;
    event.preventDefault();
    return;
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    choose(id, true);
    return;
  } else if (event.key === "+" || event.key === "=") zoom.by(1.6);
  else if (event.key === "-") zoom.by(1 / 1.6);
  else if (event.key.length === 1 && /\p{L}/u.test(event.key)) {
    typed = event.timeStamp - typedAt < 800 ? typed + event.key.toLowerCase() : event.key.toLowerCase();
    typedAt = event.timeStamp;
    const start = ids.indexOf(id) + (typed.length === 1 ? 1 : 0);
    const order = [...ids.slice(start), ...ids.slice(0, start)];
    next = order.find((other) => (names.get(other) ?? "").toLowerCase().startsWith(typed)) ?? null;
  } else return;
  event.preventDefault();
  if (next) focusSpace(paths, next);
}
