// The documents the browser test of the web client (webclient.mjs) sends beside the page: to
// learn the words a page must never show, and to seat three people at a table. A server that
// runs only trusted documents is told these (tests/e2e/test_persisted_queries.py), and the
// web client's own (its build lists them). Run, it prints them as a JSON list:
//   node setup-documents.mjs
import { pathToFileURL } from "node:url";

/** The boards' ids and the API's enum values. */
export const WORDS = `{ variants { name board { territories { id } regions { id } } }
  phases: __type(name: "Phase") { enumValues { name } } codes: __type(name: "ErrorCode") { enumValues { name } }
  statuses: __type(name: "GameStatus") { enumValues { name } } }`;
export const CREATE = `mutation($v: String!) { createGame(input: {variant: $v, seed: "web-secrets"}) { game { id } } }`;
export const JOIN = `mutation($g: ID!, $n: String!) { joinGame(input: {gameId: $g, name: $n}) { token } }`;
export const START = `mutation($g: ID!) { startGame(input: {gameId: $g}) { userErrors { code } } }`;
export const OBJECTIVE = `query($g: ID!) { game(id: $g) { objective { id } } }`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify([WORDS, CREATE, JOIN, START, OBJECTIVE]));
}
