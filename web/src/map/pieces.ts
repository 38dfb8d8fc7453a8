// The pieces drawn on a space: a badge per stack of units (its owner's colour, an icon of its
// kind, the count), the markers beside them (a fortress, a flag, a power centre, the viewer's
// own hidden armies), and the icons they use, defined once in the map's <defs>.

export const SVG = "http://www.w3.org/2000/svg";

export function element<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

// Icons on a 12×12 grid, each a single path (filled with the badge's text colour).
const ICONS: Record<string, string> = {
  army: "M6 1.5a2 2 0 1 1 0 4 2 2 0 0 1 0-4ZM2.5 10.5c0-2.5 1.6-4 3.5-4s3.5 1.5 3.5 4Z",
  trireme: "M1 7h10l-2 3H3ZM5.5 1.5h1v5h-1ZM6.5 2l3.5 2.5-3.5 1.5Z",
  tank: "M1 8h10v2.5H1ZM3 5.5h6V8H3ZM8 6.2h3.5v.9H8Z",
  aircraft: "M5.3 1h1.4l.5 4 4.3 2.2v1.2L7.2 7.5 7 10l1.5 1v.8L6 11.3l-2.5.5V11L5 10l-.2-2.5-4.3.9V7.2L4.8 5Z",
  submarine: "M1 7.5c0-1.4 1.8-2.5 5-2.5s5 1.1 5 2.5-1.8 2.5-5 2.5-5-1.1-5-2.5ZM5 3h2v2.2H5Z",
  fortress: "M1.5 4h1.8v1.5h1.5V4h2.4v1.5h1.5V4h1.8v7h-9Z",
  flag: "M2.5 1h1.2v10H2.5ZM3.7 1.5 10 3.5 3.7 6.5Z",
  power_centre: "M6 .8l1.5 3.4 3.7.3-2.8 2.4.9 3.6L6 8.6 2.7 10.5l.9-3.6L.8 4.5l3.7-.3Z",
  hidden: "M6 3c3 0 5 3 5 3s-2 3-5 3-5-3-5-3 2-3 5-3Zm0 1.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Z",
  flagship: "M.5 7h11l-2.5 3.5h-6ZM5.5.5h1v6h-1ZM6.5 1l4 2.7-4 1.8ZM5.5 1.5l-4 3.3h4Z",
};

export function iconDefs(): SVGDefsElement {
  const defs = element("defs");
  for (const [kind, d] of Object.entries(ICONS)) {
    const symbol = element("symbol", { id: `icon-${kind}`, viewBox: "0 0 12 12" });
    symbol.append(element("path", { d }));
    defs.append(symbol);
  }
  // Neutral armies: their colour, striped.
  const stripes = element("pattern", { id: "neutral-stripes", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  stripes.append(element("rect", { width: 3, height: 6, fill: "rgba(255,255,255,0.55)" }));
  defs.append(stripes);
  // Where the viewer may act: a light hatching over the owner's colour.
  const act = element("pattern", { id: "act-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" });
  act.append(element("rect", { width: 3, height: 8, fill: "rgba(255,255,255,0.6)" }));
  defs.append(act);
  return defs;
}

export function hasIcon(kind: string): boolean {
  return kind in ICONS;
}

/** Black or white, whichever reads better on `background` (a #rrggbb colour). */
export function inkOn(background: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(background)?.[1];
  if (!hex) return "#fff";
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.22 ? "#111" : "#fff";
}

export interface Badge {
  icon: string | null; // a kind with an icon, or none (a plain count)
  count: number | null; // null: a marker, no count
  fill: string;
  striped?: boolean;
}

/** A row of badges centred on (0, 0), in badge units (one unit: a 12-unit-high badge). */
export function badgeRow(badges: Badge[]): SVGGElement {
  const row = element("g", { class: "badges" });
  const widths = badges.map((b) => (b.icon ? 12 : 0) + (b.count === null ? 0 : 6 * String(b.count).length + 4) + (b.icon && b.count === null ? 2 : 0));
  const gap = 2;
  let x = -(widths.reduce((n, w) => n + w, 0) + gap * (badges.length - 1)) / 2;
  badges.forEach((badge, i) => {
    const ink = inkOn(badge.fill);
    const group = element("g", { transform: `translate(${x} -7)` });
    group.append(element("rect", { width: widths[i], height: 14, rx: 3.5, fill: badge.fill, stroke: ink === "#fff" ? "#fff" : "#222", "stroke-width": 0.8 }));
    if (badge.striped) group.append(element("rect", { width: widths[i], height: 14, rx: 3.5, fill: "url(#neutral-stripes)" }));
    if (badge.icon) group.append(element("use", { href: `#icon-${badge.icon}`, x: 1, y: 1, width: 12, height: 12, fill: ink }));
    if (badge.count !== null) {
      const text = element("text", { x: (badge.icon ? 12 : 2) + 1, y: 10.8, fill: ink, class: "count" });
      text.textContent = String(badge.count);
      group.append(text);
    }
    row.append(group);
    x += widths[i] + gap;
  });
  return row;
}
