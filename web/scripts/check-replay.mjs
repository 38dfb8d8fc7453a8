// Holds the web client's replay (src/replay/fold.ts) to the engines: for each game of a trace
// file, its public events are folded move by move, and the board after each move must be the
// one the engine showed then.
//   node scripts/check-replay.mjs TRACES.json
// A trace: {variant, game, order, unitKinds, steps: [{events: [...], spaces: [...]}]}, each
// event as the client reads it (src/events/fields.ts: seq, version, private and the typed
// detail), each space as TerritoryState. Prints one JSON line: {checked, mismatches: [...]}.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

const here = fileURLToPath(new URL("..", import.meta.url));
const { module: fold } = await runnerImport(`${here}/src/replay/fold.ts`, { root: here, logLevel: "silent" });

const normal = (spaces) =>
  spaces.map((s) => ({
    id: s.id,
    owner: s.owner,
    units: s.units.map((u) => `${u.kind}:${u.seat}:${u.neutral}:${u.count}`).sort(),
    markers: [...s.markers].sort(),
  }));

const traces = JSON.parse(readFileSync(process.argv[2], "utf8"));
const mismatches = [];
let checked = 0;
for (const trace of traces) {
  const board = new fold.BoardFold(trace.order, trace.unitKinds);
  trace.steps.forEach((step, version) => {
    for (const event of step.events) board.apply(event);
    const got = normal(board.spaces());
    const want = normal(step.spaces);
    checked += 1;
    const wrong = want.filter((space, i) => JSON.stringify(space) !== JSON.stringify(got[i]));
    if (wrong.length && mismatches.length < 20) {
      mismatches.push({ variant: trace.variant, game: trace.game, version, events: step.events.map((e) => e.detail.__typename), want: wrong.slice(0, 3), got: got.filter((s) => wrong.some((w) => w.id === s.id)).slice(0, 3) });
    }
  });
}
console.log(JSON.stringify({ checked, mismatches }));
