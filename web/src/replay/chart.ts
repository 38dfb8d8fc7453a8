// A picture of the game: each player's territories and armies at the start of every round
// and at the end, one line per player in their colour, with the same figures as a table for
// those who do not see the lines.

import { element } from "../map/pieces";
import { escape } from "../dom";
import { t } from "../i18n";
import type { Standing } from "./fold";

const WIDTH = 320;
const HEIGHT = 140;
const PAD = { left: 30, right: 8, top: 8, bottom: 20 };

function lineChart(title: string, series: { name: string; colour: string; values: number[] }[], rounds: number[]): SVGSVGElement {
  const svg = element("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chart", role: "img", "aria-label": title });
  const top = Math.max(1, ...series.flatMap((s) => s.values));
  const x = (i: number): number => PAD.left + (rounds.length > 1 ? (i * (WIDTH - PAD.left - PAD.right)) / (rounds.length - 1) : 0);
  const y = (v: number): number => HEIGHT - PAD.bottom - (v * (HEIGHT - PAD.top - PAD.bottom)) / top;
  svg.append(element("line", { x1: PAD.left, y1: y(0), x2: WIDTH - PAD.right, y2: y(0), class: "axis" }));
  svg.append(element("line", { x1: PAD.left, y1: y(0), x2: PAD.left, y2: PAD.top, class: "axis" }));
  for (const [value, label] of [
    [top, String(top)],
    [0, "0"],
  ] as const) {
    const text = element("text", { x: PAD.left - 4, y: y(value) + 4, "text-anchor": "end", class: "tick" });
    text.textContent = label;
    svg.append(text);
  }
  rounds.forEach((round, i) => {
    if (rounds.length > 12 && i % Math.ceil(rounds.length / 12)) return;
    const text = element("text", { x: x(i), y: HEIGHT - 5, "text-anchor": "middle", class: "tick" });
    text.textContent = String(round);
    svg.append(text);
  });
  for (const s of series) {
    const points = s.values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
    svg.append(element("polyline", { points, fill: "none", stroke: s.colour, "stroke-width": 2.5, "stroke-linejoin": "round" }));
  }
  return svg;
}

/** The charts of a game's standings, with their table. */
export function standingsChart(standings: Standing[], players: { name: string; colour: string }[], armies: boolean): HTMLElement {
  const box = document.createElement("section");
  box.className = "standings";
  const rounds = standings.map((s) => s.round);
  const series = (pick: (s: Standing) => number[]) => players.map((p, seat) => ({ ...p, values: standings.map((s) => pick(s)[seat] ?? 0) }));
  const heading = document.createElement("h2");
  heading.textContent = t("chart.title");
  const legend = players.map((p) => `<li><span class="swatch" style="background:${p.colour}"></span>${escape(p.name)}</li>`).join("");
  box.append(heading);
  box.insertAdjacentHTML("beforeend", `<ul class="legend">${legend}</ul>`);
  for (const [title, pick] of [
    [t("chart.territories"), (s: Standing) => s.territories],
    [t(armies ? "chart.armies" : "chart.units"), (s: Standing) => s.armies],
  ] as const) {
    const figure = document.createElement("figure");
    const caption = document.createElement("figcaption");
    caption.textContent = title;
    figure.append(caption, lineChart(title, series(pick), rounds));
    box.append(figure);
  }
  const head = rounds.map((r) => `<th scope="col">${t("chart.round", { round: r })}</th>`).join("");
  const rows = players
    .map((p, seat) => `<tr><th scope="row">${escape(p.name)}</th>${standings.map((s) => `<td>${t("chart.cell", { territories: s.territories[seat] ?? 0, armies: s.armies[seat] ?? 0 })}</td>`).join("")}</tr>`)
    .join("");
  box.insertAdjacentHTML("beforeend", `<details><summary>${t("chart.table")}</summary><div class="table-scroll" tabindex="0" role="region" aria-label="${t("chart.table")}"><table><thead><tr><th scope="col">${t("seats.player")}</th>${head}</tr></thead><tbody>${rows}</tbody></table></div></details>`);
  return box;
}
