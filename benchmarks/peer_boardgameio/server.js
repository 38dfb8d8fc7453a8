// boardgame.io's own server: node server.js PORT memory|flatfile [DIR]
const { Server, FlatFile } = require("boardgame.io/server");
const Bump = require("./game");

const [port, store, dir] = process.argv.slice(2);
const db = store === "flatfile" ? new FlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Bump], db, origins: ["http://127.0.0.1"] });
server.run(Number(port), () => console.log("ready"));
