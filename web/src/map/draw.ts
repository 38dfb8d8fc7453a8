// The board as a map, drawn from Board.geometry: every space filled with its owner's colour,
// its name and pieces at its anchor (sized for the screen, whatever the zoom), the lines that
// join neighbours across water (over water only), and the spaces where the viewer may act
// filled and outlined. Every space is a button reachable by keyboard (map/keys.ts); the map
// zooms and pans in its frame (map/zoom.ts).

import type { VariantsQuery } from "../generated/graphql";
import { t } from "../i18n";
import { moveFocus } from "./keys";
import { badgeRow, element, hasIcon, iconDefs, type Badge } from "./pieces";
import { zoomable, type Zoom } from "./zoom";

export type Variant = VariantsQuery["variants"][number];
type Geometry = NonNullable<Variant["board"]["geometry"]>;

export interface SpaceState {
  id: string;
  owner: number | null;
  units: { kind: string; count: number; seat: number | null; neutral: string | null }[];
  markers: string[];
}

/** What the map shows beyond the spaces' holders: where the viewer may act, what it chose. */
export interface Marks {
  act: ReadonlySet<string>;
  targets: ReadonlySet<string>;
  selected: string | null;
  target: string | null;
  /** Markers only this page shows (the viewer's hidden armies, a flagship at sea), by space. */
  extra: ReadonlyMap<string, string[]>;
  /** The colour of the seat a marker belongs to (a fortress is its player's), by space. */
  markerSeat: ReadonlyMap<string, number>;
}

export interface MapHooks {
  choose(space: string, byKeyboard?: boolean): void;
  colour(seat: number | null, neutral: string | null): string;
  label(space: SpaceState, marks: Marks): string;
}

export interface MapView {
  element: HTMLElement;
  update(spaces: readonly SpaceState[], marks: Marks): void;
  zoom: Zoom;
}

// The printed colours' ids (Italian in every game), as CSS colours that pass contrast.
const COLOURS: Record<string, string> = {
  rosso: "#c8352a",
  blu: "#2d5fc4",
  verde: "#2a8a43",
  giallo: "#e2bd22",
  nero: "#3a3a3a",
  viola: "#8046b0",
  rosa: "#e37fb1",
  bianco: "#f3f1ea",
  arancione: "#e7842a",
  marrone: "#8a5a33",
  grigio: "#9a9a9a",
};

export function colourOf(id: string | null | undefined): string {
  if (!id) return "#d8d4c8";
  if (COLOURS[id]) return COLOURS[id];
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  const hue = Math.abs(hash) % 360;
  return hslHex(hue, 0.55, 0.45);
}

function hslHex(h: number, s: number, l: number): string {
  const f = (n: number): string => {
    const k = (n + h / 30) % 12;
    const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255).toString(16).padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

// Screen pixels per label unit: a badge is 14 units high, a name's letters 10.
const LABEL_SCALE = 1.15;

function spaceAreas(paths: Map<string, SVGPathElement>): Map<string, number> | null {
  const areas = new Map<string, number>();
  for (const [id, path] of paths) {
    const box = path.getBBox();
    areas.set(id, box.width * box.height);
  }
  return [...areas.values()].some((a) => a > 0) ? areas : null;
}

/** Hide the names that would overlap a larger space's name, at this scale. */
function placeNames(labels: Map<string, Label>, anchors: Map<string, [number, number]>, names: Map<string, string>, areas: Map<string, number> | null, scale: number): void {
  const boxes: [number, number, number, number][] = [];
  const order = [...labels.keys()].sort((a, b) => (areas?.get(b) ?? 0) - (areas?.get(a) ?? 0));
  for (const id of order) {
    const [x, y] = anchors.get(id)!;
    const w = (names.get(id) ?? "").length * 6.2 * LABEL_SCALE;
    const box: [number, number, number, number] = [x * scale - w / 2, y * scale - 22 * LABEL_SCALE, x * scale + w / 2, y * scale - 9 * LABEL_SCALE];
    const clash = boxes.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]);
    labels.get(id)!.group.classList.toggle("crowded", clash);
    if (!clash) boxes.push(box);
  }
}

/** The median distance from an anchor to its nearest neighbour: how close names stand. */
function spacing(anchors: number[][]): number {
  const nearest = anchors.map(([x, y]) =>
    Math.min(...anchors.filter((a) => a[0] !== x || a[1] !== y).map(([u, v]) => Math.hypot(u - x, v - y))),
  );
  nearest.sort((a, b) => a - b);
  return nearest[Math.floor(nearest.length / 2)] || 50;
}

interface Label {
  group: SVGGElement;
  pieces: SVGGElement;
  shown: string;
}

/** What the map is made of, by space: its shape, its label (name and pieces), its anchor. */
interface Layers {
  paths: Map<string, SVGPathElement>;
  labels: Map<string, Label>;
  anchors: Map<string, [number, number]>;
}

/** The board's layers in `viewport`: water and land, the spaces, the lines across water
 * (masked to the water), the outlines of what the viewer may do, and the labels. */
function drawLayers(variant: Variant, geometry: Geometry, viewport: SVGGElement, defs: SVGDefsElement, choose: (space: string) => void): Layers {
  const { width, height } = geometry;
  const names = new Map(variant.board.territories.map((s) => [s.id, s.name]));
  const seas = new Set(variant.board.territories.filter((s) => s.kind === "SEA").map((s) => s.id));
  const found: Layers = { paths: new Map(), labels: new Map(), anchors: new Map() };
  viewport.append(element("rect", { width, height, class: "water" }), element("path", { d: geometry.land, class: "land" }));
  // The lines across water are drawn over water only: never across a continent.
  const mask = element("mask", { id: `water-${variant.name}`, maskUnits: "userSpaceOnUse", x: 0, y: 0, width, height });
  mask.append(element("rect", { width, height, fill: "#fff" }), element("path", { d: geometry.land, fill: "#000" }));
  defs.append(mask);
  const [spaces, links, overlay, labels] = ["spaces", "links", "overlay", "labels"].map((name) => element("g", { class: name }));
  links.setAttribute("mask", `url(#water-${variant.name})`);
  for (const shape of geometry.spaces) {
    const id = `space-${variant.name}-${shape.id}`;
    const kind = seas.has(shape.id) ? "sea" : "ground";
    const path = element("path", { d: shape.path, id, class: `space ${kind}`, "data-space": shape.id, "fill-rule": "evenodd", role: "button", tabindex: -1 });
    path.addEventListener("click", () => choose(shape.id));
    found.paths.set(shape.id, path);
    spaces.append(path);
    overlay.append(element("use", { href: `#${id}`, "data-outline": shape.id }));
    found.anchors.set(shape.id, [shape.anchor[0], shape.anchor[1]]);
    const group = element("g", { class: "label", "data-label": shape.id });
    const name = element("text", { class: "name", "text-anchor": "middle", y: -11 });
    name.textContent = names.get(shape.id) ?? "";
    const pieces = element("g", { class: "pieces", "data-units": shape.id });
    group.append(name, pieces);
    group.addEventListener("click", () => choose(shape.id));
    found.labels.set(shape.id, { group, pieces, shown: "" });
    labels.append(group);
  }
  for (const line of geometry.lines) {
    for (const [x1, y1, x2, y2] of line.segments) links.append(element("line", { x1, y1, x2, y2, class: "link" }));
  }
  viewport.append(spaces, links, overlay, labels);
  const first = found.paths.values().next().value;
  if (first) first.tabIndex = 0;
  return found;
}

/** The map of `variant`, drawn into `into` (it zooms in place: it must be on the page). */
export function drawMap(variant: Variant, hooks: MapHooks, into: HTMLElement): MapView {
  const geometry = variant.board.geometry;
  const width = geometry?.width ?? 100;
  const height = geometry?.height ?? 100;
  const names = new Map(variant.board.territories.map((s) => [s.id, s.name]));
  const frame = document.createElement("div");
  frame.className = "map-frame";
  const svg = element("svg", { viewBox: `0 0 ${width} ${height}`, class: "map", role: "group", "aria-label": t("map.label", { board: variant.board.name }) });
  svg.style.aspectRatio = `${width} / ${height}`;
  const defs = iconDefs();
  const viewport = element("g", { class: "viewport" });
  svg.append(defs, viewport);
  frame.append(svg);
  const choose = (space: string): unknown => zoom.dragged() || hooks.choose(space); // a drag is no click
  const layers: Layers = geometry ? drawLayers(variant, geometry, viewport, defs, choose) : { paths: new Map(), labels: new Map(), anchors: new Map() };
  const { paths, labels, anchors } = layers;
  into.append(frame);
  const nameSpacing = spacing([...anchors.values()]);
  let areas: Map<string, number> | null = null;
  const zoom = zoomable(svg, { width, height }, (scale) => {
    // Pieces and names keep their size on the screen; names show once they fit, the larger
    // spaces' first where two would overlap.
    areas ??= spaceAreas(paths);
    for (const [id, label] of labels) {
      const [x, y] = anchors.get(id)!;
      label.group.setAttribute("transform", `translate(${x} ${y}) scale(${LABEL_SCALE / scale})`);
    }
    svg.classList.toggle("names", nameSpacing * scale >= 40);
    placeNames(labels, anchors, names, areas, scale);
  });
  frame.append(zoom.controls);
  svg.addEventListener("keydown", (event) => moveFocus(event, paths, anchors, names, hooks.choose, zoom));
  svg.addEventListener("focusin", (event) => {
    const id = (event.target as Element).getAttribute("data-space");
    if (id) zoom.show(anchors.get(id)!);
  });
  const seas = new Set(variant.board.territories.filter((s) => s.kind === "SEA").map((s) => s.id));
  return {
    element: frame,
    zoom,
    update(spaces, marks) {
      svg.classList.toggle("acting", marks.act.size > 0);
      for (const space of spaces) {
        const path = paths.get(space.id);
        const label = labels.get(space.id);
        if (path && label) drawSpace(path, label, space, marks, hooks, seas.has(space.id));
      }
    },
  };
}

/** A space as it stands: its holder's colour, what the viewer may do there, its pieces. */
function drawSpace(path: SVGPathElement, label: Label, space: SpaceState, marks: Marks, hooks: MapHooks, sea: boolean): void {
  const neutral = space.units.find((u) => u.kind === "army")?.neutral ?? null;
  const free = space.owner === null && neutral === null;
  path.style.fill = sea || free ? "" : hooks.colour(space.owner, neutral);
  path.classList.toggle("neutral", neutral !== null);
  path.classList.toggle("free", free);
  for (const [name, on] of [
    ["act", marks.act.has(space.id)],
    ["target", marks.targets.has(space.id)],
    ["selected", marks.selected === space.id],
    ["chosen-target", marks.target === space.id],
  ] as const) {
    path.classList.toggle(name, on);
    label.group.classList.toggle(name, on);
  }
  path.setAttribute("aria-pressed", String(marks.selected === space.id));
  path.setAttribute("aria-label", hooks.label(space, marks));
  const outline = path.ownerSVGElement?.querySelector(`use[data-outline="${space.id}"]`);
  outline?.setAttribute("class", [...path.classList].filter((c) => c !== "space").join(" "));
  drawPieces(label, space, marks, hooks);
}

function drawPieces(label: Label, space: SpaceState, marks: Marks, hooks: MapHooks): void {
  const extra = marks.extra.get(space.id) ?? [];
  const owner = marks.markerSeat.get(space.id) ?? space.owner;
  const key = JSON.stringify([space.units, space.markers, extra, owner]);
  if (key === label.shown) return;
  label.shown = key;
  const badges: Badge[] = space.units.map((stack) => ({
    icon: stack.kind === "army" || !hasIcon(stack.kind) ? null : stack.kind,
    count: stack.count,
    fill: hooks.colour(stack.seat, stack.neutral),
    striped: stack.neutral !== null,
  }));
  for (const marker of [...space.markers, ...extra]) {
    badges.unshift({ icon: hasIcon(marker) ? marker : null, count: null, fill: marker === "hidden" ? "#fff" : hooks.colour(owner, null) });
  }
  label.pieces.replaceChildren(badgeRow(badges));
  label.pieces.setAttribute("data-count", space.units.map((u) => u.count).join(" "));
}
