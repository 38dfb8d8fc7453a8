// The board as a map, drawn from Board.geometry: every space filled with its owner's colour,
// its units and markers at its anchor, and the lines that join neighbours across water.

import type { VariantsQuery } from "./generated/graphql";

export type Variant = VariantsQuery["variants"][number];
export type Geometry = NonNullable<Variant["board"]["geometry"]>;

export interface SpaceState {
  id: string;
  owner: number | null;
  units: { kind: string; count: number; seat: number | null; neutral: string | null }[];
  markers: string[];
}

const SVG = "http://www.w3.org/2000/svg";

// The printed colours' ids (classic and S.P.Q.RisiKo! use Italian names), as CSS colours.
const COLOURS: Record<string, string> = {
  rosso: "#d33b2c",
  red: "#d33b2c",
  blu: "#2f62c8",
  blue: "#2f62c8",
  verde: "#2f9a48",
  green: "#2f9a48",
  giallo: "#e3c230",
  yellow: "#e3c230",
  nero: "#3a3a3a",
  black: "#3a3a3a",
  viola: "#8a4bb8",
  purple: "#8a4bb8",
  rosa: "#e37fb1",
  pink: "#e37fb1",
  bianco: "#f3f1ea",
  white: "#f3f1ea",
  arancione: "#ec8a2f",
  orange: "#ec8a2f",
  marrone: "#8a5a33",
  brown: "#8a5a33",
  grigio: "#9a9a9a",
  grey: "#9a9a9a",
};

export function colourOf(id: string | null | undefined): string {
  if (!id) return "#d8d4c8";
  if (COLOURS[id]) return COLOURS[id];
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 55% 50%)`;
}

const UNIT_ICONS: Record<string, string> = { army: "", trireme: "⛵" };
const MARKER_ICONS: Record<string, string> = { power_centre: "★", fortress: "♜", flag: "⚑" };

function element<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

export interface MapView {
  svg: SVGSVGElement;
  update(spaces: SpaceState[], colours: (seat: number | null) => string, highlight: Set<string>, selected: string | null): void;
}

export function drawMap(variant: Variant, onClick: (space: string) => void): MapView {
  const geometry = variant.board.geometry;
  const kinds = new Map(variant.board.territories.map((t) => [t.id, t.kind]));
  const names = new Map(variant.board.territories.map((t) => [t.id, t.name]));
  const svg = element("svg", {
    viewBox: geometry ? `0 0 ${geometry.width} ${geometry.height}` : "0 0 100 100",
    class: "map",
    role: "img",
    "aria-label": `${variant.board.name}`,
  });
  const paths = new Map<string, SVGPathElement>();
  const labels = new Map<string, SVGTextElement>();
  if (geometry) {
    svg.append(element("rect", { width: geometry.width, height: geometry.height, class: "water" }));
    svg.append(element("path", { d: geometry.land, class: "land" }));
    for (const space of geometry.spaces) {
      const path = element("path", {
        d: space.path,
        class: `space ${kinds.get(space.id) === "SEA" ? "sea" : "ground"}`,
        "data-space": space.id,
        "fill-rule": "evenodd",
      });
      const tooltip = element("title");
      tooltip.textContent = names.get(space.id) ?? space.id;
      path.append(tooltip);
      path.addEventListener("click", () => onClick(space.id));
      paths.set(space.id, path);
      svg.append(path);
    }
    for (const line of geometry.lines) {
      for (const [x1, y1, x2, y2] of line.segments) {
        svg.append(element("line", { x1, y1, x2, y2, class: "link" }));
      }
    }
    for (const space of geometry.spaces) {
      const [x, y] = space.anchor;
      const label = element("text", {
        x,
        y,
        class: "units",
        "data-units": space.id,
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "font-size": Math.round(geometry.width / 80), // the same on every board's scale
      });
      label.addEventListener("click", () => onClick(space.id));
      labels.set(space.id, label);
      svg.append(label);
    }
  }
  return {
    svg,
    update(spaces, colours, highlight, selected) {
      for (const space of spaces) {
        const path = paths.get(space.id);
        const label = labels.get(space.id);
        if (!path || !label) continue;
        const sea = kinds.get(space.id) === "SEA";
        path.style.fill = sea ? "" : colours(space.owner);
        path.classList.toggle("highlight", highlight.has(space.id));
        path.classList.toggle("selected", selected === space.id);
        const parts = space.units
          .filter((stack) => stack.count > 0)
          .map((stack) => `${UNIT_ICONS[stack.kind] ?? stack.kind[0]}${stack.count}`);
        const markers = space.markers.map((kind) => MARKER_ICONS[kind] ?? kind[0]).join("");
        label.textContent = `${markers}${parts.join(" ")}`;
      }
    },
  };
}
