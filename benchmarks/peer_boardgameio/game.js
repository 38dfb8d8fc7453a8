// The trivial game both processes load: one counter that any seat may bump at any time.
const { ActivePlayers } = require("boardgame.io/core");

module.exports = {
  name: "bump",
  setup: () => ({ count: 0 }),
  turn: { activePlayers: ActivePlayers.ALL },
  moves: {
    bump: ({ G }) => {
      G.count += 1;
    },
  },
};
