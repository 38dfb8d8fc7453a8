// Draws each board's map from its anchors and Natural Earth's land (public domain, as the
// world-atlas package ships it), and writes it as the variant's data: variants/<name>/map.json.
//
//   node scripts/draw-maps.mjs [--out DIR] [variant …]      (npm run maps)
//
// No printed map of any board is available, so the map is made: every space has an anchor
// (longitude and latitude) in variants/<name>/anchors.json. Land is cut into connected pieces
// (a continent, an island); each piece that holds anchors of land spaces is shared among them
// by nearest anchor (a Voronoi diagram of those anchors alone, so that no space reaches across
// an ocean), each piece that holds none goes to the nearest anchor within `islandReach`
// (else it stays background land); sea spaces share the water the same way. A space reaches
// at most `reach` pixels from its anchor when the board says so (the Roman world ends somewhere).
// Board neighbours whose shapes do not touch are joined by a drawn line.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Delaunay } from "d3-delaunay";
import { geoEquirectangular, geoMercator, geoNaturalEarth1 } from "d3-geo";
import { geoProject } from "d3-geo-projection";
import polygonClipping from "polygon-clipping";
import { feature } from "topojson-client";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PROJECTIONS = {
  naturalEarth: geoNaturalEarth1,
  mercator: geoMercator,
  equirectangular: geoEquirectangular,
};
const MIN_AREA = 1.5; // px²: specks of land or water smaller than this are dropped
const TOUCH = 0.75; // px: shapes closer than this touch

function round(value) {
  return Math.round(value * 10) / 10;
}

function ringArea(ring) {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    area += (ring[j][0] + ring[i][0]) * (ring[j][1] - ring[i][1]);
  }
  return Math.abs(area) / 2;
}

function polygonArea(polygon) {
  return ringArea(polygon[0]) - polygon.slice(1).reduce((sum, hole) => sum + ringArea(hole), 0);
}

function inRing(point, ring) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

function inPolygon(point, polygon) {
  return inRing(point, polygon[0]) && !polygon.slice(1).some((hole) => inRing(point, hole));
}

function centroid(polygon) {
  const ring = polygon[0];
  let x = 0;
  let y = 0;
  for (const [px, py] of ring) {
    x += px;
    y += py;
  }
  return [x / ring.length, y / ring.length];
}

function circle([cx, cy], radius, steps = 48) {
  const ring = [];
  for (let k = 0; k < steps; k++) {
    const angle = (2 * Math.PI * k) / steps;
    ring.push([cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]);
  }
  ring.push(ring[0]);
  return [ring];
}

function distance(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

function segmentDistance(p, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length = dx * dx + dy * dy;
  const t = length ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length)) : 0;
  return [Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy), [a[0] + t * dx, a[1] + t * dy]];
}

/** The closest points of two multipolygons' outlines: [gap, from, to]. */
function gap(first, second) {
  let best = [Infinity, null, null];
  const rings = (shape) => shape.flatMap((polygon) => polygon);
  for (const ringA of rings(first)) {
    for (const ringB of rings(second)) {
      for (const p of ringA) {
        for (let i = 1; i < ringB.length; i++) {
          const [d, q] = segmentDistance(p, ringB[i - 1], ringB[i]);
          if (d < best[0]) best = [d, p, q];
        }
      }
    }
  }
  return best;
}

function project(geometry, projection) {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  return polygons.map((polygon) => polygon.map((ring) => ring.map((point) => projection(point))));
}

/** Share `pieces` (polygons) among `anchors` ({id: [x, y]}). */
function share(pieces, anchors, { reach, islandReach, extent }) {
  const ids = Object.keys(anchors);
  const shapes = Object.fromEntries(ids.map((id) => [id, []]));
  for (const piece of pieces) {
    const inside = ids.filter((id) => inPolygon(anchors[id], piece));
    if (inside.length === 0) {
      const middle = centroid(piece);
      const nearest = ids.reduce((a, b) => (distance(anchors[a], middle) <= distance(anchors[b], middle) ? a : b));
      if (distance(anchors[nearest], middle) <= islandReach) shapes[nearest].push([piece]);
      continue;
    }
    const points = inside.map((id) => anchors[id]);
    const voronoi = Delaunay.from(points).voronoi(extent);
    inside.forEach((id, index) => {
      const cell = voronoi.cellPolygon(index);
      if (!cell) return;
      let part = polygonClipping.intersection([piece], [cell]);
      if (reach) part = polygonClipping.intersection(part, circle(anchors[id], reach));
      shapes[id].push(part);
    });
  }
  const result = {};
  for (const id of ids) {
    const union = shapes[id].length ? polygonClipping.union(...shapes[id]) : [];
    result[id] = union
      .map((polygon) => polygon.map((ring) => ring.map(([x, y]) => [round(x), round(y)])))
      // A hole that rounding flattened to fewer than three corners is no hole any more.
      .map((polygon) => [polygon[0], ...polygon.slice(1).filter((hole) => new Set(hole.map(String)).size >= 3)])
      .filter((polygon) => polygonArea(polygon) >= MIN_AREA);
  }
  return result;
}

function draw(variant, out) {
  const folder = join(ROOT, "variants", variant);
  const board = JSON.parse(readFileSync(join(folder, "board.json"), "utf8"));
  const spec = JSON.parse(readFileSync(join(folder, "anchors.json"), "utf8"));
  const atlas = `land-${spec.resolution}.json`;
  const topology = JSON.parse(readFileSync(join(ROOT, "web", "node_modules", "world-atlas", atlas), "utf8"));
  const land = feature(topology, topology.objects.land);
  const [[west, south], [east, north]] = spec.bounds;
  const frame = {
    type: "Polygon",
    coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]],
  };
  const projection = PROJECTIONS[spec.projection]().fitWidth(spec.width, {
    type: "MultiPoint",
    coordinates: [
      [west, south],
      [east, north],
      [west, north],
      [east, south],
      [(west + east) / 2, north],
      [(west + east) / 2, south],
    ],
  });
  const [x0, y0] = projection([west, north]);
  const [x1, y1] = projection([east, south]);
  const top = Math.min(y0, projection([(west + east) / 2, north])[1]);
  const bottom = Math.max(y1, projection([(west + east) / 2, south])[1]);
  projection.translate([projection.translate()[0] - Math.min(x0, 0), projection.translate()[1] - top]);
  const width = Math.ceil(spec.width);
  const height = Math.ceil(bottom - top);
  const rect = [[[0, 0], [width, 0], [width, height], [0, height], [0, 0]]];
  const extent = [0, 0, width, height];
  // Land in the frame, in pieces.
  // Projected by d3's own stream, which cuts rings at the antimeridian (Chukotka, Fiji).
  const kept = {
    type: "FeatureCollection",
    features: (land.type === "FeatureCollection" ? land.features : [land]).map((f) => ({
      ...f,
      geometry: {
        type: "MultiPolygon",
        coordinates: (f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates).filter(
          (polygon) => polygon[0].some(([, lat]) => lat > -60), // Antarctica never (no board has it)
        ),
      },
    })),
  };
  const flat = geoProject(kept, projection);
  const projected = flat.features.flatMap((f) =>
    !f.geometry ? [] : f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates,
  );
  const inFrame = polygonClipping.intersection(projected, [rect]);
  const water = polygonClipping.difference([rect], inFrame);
  const kinds = Object.fromEntries(board.territories.map((t) => [t.id, t.kind ?? "land"]));
  const anchorsOf = (kind) =>
    Object.fromEntries(
      board.territories.filter((t) => (t.kind ?? "land") === kind).map((t) => [t.id, projection(spec.anchors[t.id])]),
    );
  const options = { reach: spec.reach ?? 0, islandReach: spec.islandReach ?? Infinity, extent };
  const shapes = { ...share(inFrame, anchorsOf("land"), options) };
  if (board.territories.some((t) => t.kind === "sea")) {
    Object.assign(shapes, share(water, anchorsOf("sea"), { ...options, islandReach: 0 }));
  }
  const anchors = { ...anchorsOf("land"), ...anchorsOf("sea") };
  const lines = [];
  const report = { apart: [], touchingStrangers: [] };
  const seen = new Set();
  for (const territory of board.territories) {
    for (const neighbour of Object.keys(territory.borders)) {
      const key = [territory.id, neighbour].sort().join("|");
      if (seen.has(key)) continue;
      seen.add(key);
      const [space, other] = key.split("|");
      const [apart, from, to] = gap(shapes[space], shapes[other]);
      if (apart > TOUCH) {
        const ends = [from, to].map(([x, y]) => [round(x), round(y)]);
        if (spec.wraps && Math.abs(ends[0][0] - ends[1][0]) > width / 2) {
          // Across the date line: each end runs off its own side of the map.
          const [west, east] = ends[0][0] < ends[1][0] ? ends : [ends[1], ends[0]];
          const y = round((west[1] + east[1]) / 2);
          lines.push({ from: space, to: other, segments: [[west, [0, y]], [east, [width, y]]] });
        } else {
          lines.push({ from: space, to: other, segments: [ends] });
        }
        if (kinds[space] === "land" && kinds[other] === "land") report.apart.push(`${space}–${other} (${apart.toFixed(0)} px)`);
      }
    }
  }
  const map = {
    source: `Natural Earth land (public domain), world-atlas ${atlas}; drawn by web/scripts/draw-maps.mjs from anchors.json`,
    projection: spec.projection,
    width,
    height,
    background: inFrame
      .map((polygon) => polygon.map((ring) => ring.map(([x, y]) => [round(x), round(y)])))
      .filter((polygon) => polygonArea(polygon) >= MIN_AREA),
    spaces: Object.fromEntries(
      board.territories.map((t) => [
        t.id,
        { anchor: anchors[t.id].map(round), shape: shapes[t.id] },
      ]),
    ),
    lines,
  };
  writeFileSync(out ? join(out, `${variant}.map.json`) : join(folder, "map.json"), JSON.stringify(map) + "\n");
  const empty = board.territories.filter((t) => shapes[t.id].length === 0).map((t) => t.id);
  console.log(`${variant}: ${width}×${height}, ${lines.length} lines; land neighbours apart: ${report.apart.join(", ") || "none"}; empty: ${empty.join(", ") || "none"}`);
}

// --out DIR writes DIR/<variant>.map.json instead (the tests compare it with the data).
const args = process.argv.slice(2);
const at = args.indexOf("--out");
const out = at >= 0 ? args.splice(at, 2)[1] : null;
for (const variant of args.length ? args : ["classic", "spqr", "piu", "futurisiko"]) draw(variant, out);
