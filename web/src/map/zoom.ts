// Zoom and pan, by Panzoom: the wheel and a pinch zoom, a drag pans, and buttons (and + and -
// on the map) do both for those who use neither. `scaled` is told how many screen pixels a
// map unit takes now, so that pieces and names keep their size whatever the zoom.

import Panzoom, { type PanzoomEventDetail } from "@panzoom/panzoom";
import { t } from "../i18n";

export interface Zoom {
  controls: HTMLElement;
  by(factor: number): void;
  reset(): void;
  /** Pan so that a point of the map is in sight (a space focused by keyboard). */
  show(point: [number, number]): void;
  /** The pointer moved since it went down: a drag, not a click on a space. */
  dragged(): boolean;
}

const MOST = 8;

export function zoomable(svg: SVGSVGElement, size: { width: number; height: number }, scaled: (pixelsPerUnit: number) => void): Zoom {
  const panzoom = Panzoom(svg as unknown as HTMLElement, { minScale: 1, maxScale: MOST, contain: "outside", step: 0.4, cursor: "grab" });
  // Screen pixels per map unit at zoom 1: the map fits its frame ("meet").
  const fit = (): number => (svg.clientWidth ? Math.min(svg.clientWidth / size.width, svg.clientHeight / size.height) : 1);
  svg.addEventListener("panzoomchange", (event) => {
    const { scale } = (event as CustomEvent<PanzoomEventDetail>).detail;
    scaled(fit() * scale);
    controls.dataset.zoom = scale.toFixed(2);
  });
  svg.parentElement?.addEventListener("wheel", (event) => panzoom.zoomWithWheel(event));
  let down: [number, number] = [0, 0];
  let moved = false;
  svg.addEventListener("pointerdown", (event) => {
    down = [event.clientX, event.clientY];
    moved = false;
  });
  svg.addEventListener("pointermove", (event) => {
    if (event.buttons && Math.hypot(event.clientX - down[0], event.clientY - down[1]) > 6) moved = true;
  });

  const controls = document.createElement("div");
  controls.className = "zoom";
  const zoom: Zoom = {
    controls,
    by: (factor) => void panzoom.zoom(panzoom.getScale() * factor, { animate: true }),
    reset: () => void panzoom.reset({ animate: true }),
    show([x, y]) {
      // The point in the map's own pixels, and where it is on the screen now (the transform
      // is scale(s) translate(tx, ty) about the map's centre).
      const unit = fit();
      const [px, py, w, h] = [x * unit, y * unit, svg.clientWidth, svg.clientHeight];
      const s = panzoom.getScale();
      const { x: tx, y: ty } = panzoom.getPan();
      const sx = w / 2 + s * (px - w / 2 + tx);
      const sy = h / 2 + s * (py - h / 2 + ty);
      if (sx > w * 0.1 && sx < w * 0.9 && sy > h * 0.1 && sy < h * 0.9) return;
      panzoom.pan(w / 2 - px, h / 2 - py, { animate: true });
    },
    dragged: () => moved,
  };
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
  new ResizeObserver(() => scaled(fit() * panzoom.getScale())).observe(svg);
  scaled(fit());
  return zoom;
}
