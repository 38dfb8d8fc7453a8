// The clients: node clients.js URL players CLIENTS SECONDS | node clients.js URL spectators SPECTATORS MOVES
// Prints one JSON line. players: moves/s of CLIENTS players, each on a match of its own, each
// move sent when the server's update for the previous one arrived (for SECONDS). spectators:
// one player moving MOVES times while SPECTATORS watch its match, each move once every
// spectator has the previous one: the delay from a move's send to its update at each spectator.
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const Bump = require("./game");

const [url, mode, count, amount] = process.argv.slice(2);

async function post(path, body) {
  const answer = await fetch(url + path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

async function newMatch() {
  const { matchID } = await post("/games/bump/create", { numPlayers: 2 });
  const { playerCredentials } = await post(`/games/bump/${matchID}/join`, {
    playerID: "0",
    playerName: "mover",
  });
  return { matchID, credentials: playerCredentials };
}

// A client started and synced; `updates(stateID)` is called on each update from the server.
async function connect(matchID, playerID, credentials, updates) {
  const client = Client({ game: Bump, multiplayer: SocketIO({ server: url, socketOpts: { transports: ["websocket"] } }), matchID, playerID, credentials });
  client.start();
  client.transport.socket.on("update", (_, state) => updates(state._stateID));
  while (!client.getState()) await new Promise((done) => setTimeout(done, 5));
  return client;
}

async function player(deadline, latencies) {
  const { matchID, credentials } = await newMatch();
  let acknowledge = null;
  let expected = 0;
  const client = await connect(matchID, "0", credentials, (stateID) => {
    if (acknowledge && stateID >= expected) acknowledge();
  });
  expected = client.getState()._stateID + 1;
  let done = 0;
  while (performance.now() < deadline) {
    const acknowledged = new Promise((resolve) => (acknowledge = resolve));
    const sent = performance.now();
    client.moves.bump();
    await acknowledged;
    latencies.push(performance.now() - sent);
    expected += 1;
    done += 1;
  }
  client.stop();
  return done;
}

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

async function spectate(spectators, moves) {
  const { matchID, credentials } = await newMatch();
  const sentAt = new Map();
  const delays = [];
  let seen = 0;
  let allSeen = null;
  const watchers = [];
  for (let i = 0; i < Number(spectators); i++) {
    watchers.push(
      await connect(matchID, undefined, undefined, (stateID) => {
        const sent = sentAt.get(stateID);
        if (sent === undefined) return;
        delays.push(performance.now() - sent);
        seen += 1;
        if (seen === Number(spectators) && allSeen) allSeen();
      })
    );
  }
  const mover = await connect(matchID, "0", credentials, () => {});
  let stateID = mover.getState()._stateID;
  for (let i = 0; i < Number(moves); i++) {
    seen = 0;
    const everyone = new Promise((resolve) => (allSeen = resolve));
    stateID += 1;
    sentAt.set(stateID, performance.now());
    mover.moves.bump();
    await Promise.race([everyone, new Promise((done) => setTimeout(done, 5000))]);
  }
  mover.stop();
  watchers.forEach((watcher) => watcher.stop());
  return delays;
}

async function main() {
  if (mode === "spectators") {
    const delays = await spectate(count, amount);
    console.log(
      JSON.stringify({
        spectator_deliveries: delays.length,
        spectator_p50_ms: percentile(delays, 0.5),
        spectator_p99_ms: percentile(delays, 0.99),
      })
    );
    process.exit(0);
  }
  const latencies = [];
  const started = performance.now();
  const deadline = started + Number(amount) * 1000;
  const counts = await Promise.all(Array.from({ length: Number(count) }, () => player(deadline, latencies)));
  const elapsed = (performance.now() - started) / 1000;
  const moves = counts.reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      moves,
      moves_per_second: moves / elapsed,
      move_p50_ms: percentile(latencies, 0.5),
      move_p99_ms: percentile(latencies, 0.99),
    })
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
