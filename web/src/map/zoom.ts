// Zoom and pan, by d3-zoom: the wheel and a pinch zoom, a drag pans, and buttons (and + and -
// on the map) do both for those who use neither. `scaled` is told how many screen pixels a
// map unit takes now, so that pieces and names keep their size whatever the zoom.

import { select } from "d3-selection";
import { zoom as d3zoom, zoomIdentity, type ZoomTransform } from "d3-zoom";
import { t } from "../i18n";

export interface Zoom {
  controls: HTMLElement;
  by(factor: number): void;
  reset(): void;
  /** Pan so that a point of the map is in sight (a space focused by keyboard). */
  show(point: [number, number]): void;
}

const MOST = 8;

export function zoomable(svg: SVGSVGElement, viewport: SVGGElement, size: { width: number; height: number }, scaled: (pixelsPerUnit: number) => void): Zoom {
  let current: ZoomTransform = zoomIdentity;
  // Screen pixels per map unit at zoom 1: the map fits its frame ("meet").
  const fit = (): number => {
    const box = svg.getBoundingClientRect();
    return box.width ? Math.min(box.width / size.width, box.height / size.height) : 1;
  };
  const behaviour = d3zoom<SVGSVGElement, unknown>()
    .scaleExtent([1, MOST])
    .translateExtent([
      [0, 0],
      [size.width, size.height],
    ])
    .on("zoom", (event: { transform: ZoomTransform }) => {
      current = event.transform;
      viewport.setAttribute("transform", current.toString());
      scaled(fit() * current.k);
      controls.dataset.zoom = current.k.toFixed(2);
    });
  const selection = select(svg);
  selection.call(behaviour).on("dblclick.zoom", null);

  const controls = document.createElement("div");
  controls.className = "zoom";
  for (const [symbol, label, act] of [
    ["+", t("map.zoomIn"), () => zoom.by(1.6)],
    ["−", t("map.zoomOut"), () => zoom.by(1 / 1.6)],
    ["⤢", t("map.zoomReset"), () => zoom.reset()],
  ] as const) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = symbol;
    button.setAttribute("aria-label", label);
    button.title = label;
    button.addEventListener("click", act);
    controls.append(button);
  }

  const zoom: Zoom = {
    controls,
    by: (factor) => behaviour.scaleBy(selection, factor),
    reset: () => behaviour.transform(selection, zoomIdentity),
    show([x, y]) {
      const [left, top] = current.invert([0, 0]);
      const [right, bottom] = current.invert([size.width, size.height]);
      const margin = (right - left) * 0.1;
      if (x > left + margin && x < right - margin && y > top + margin && y < bottom - margin) return;
      behaviour.translateTo(selection, x, y);
    },
  };
  new ResizeObserver(() => scaled(fit() * current.k)).observe(svg);
  scaled(fit());
  return zoom;
}
