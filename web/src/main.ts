// The web client: #/ is the lobby, #/game/<id> a game. Everything it loads comes from the
// server that serves it.

import "./style.css";
import { request } from "./api";
import { VARIANTS } from "./documents";
import { showGame } from "./game";
import type { VariantsQuery } from "./generated/graphql";
import { showLobby } from "./lobby";

const root = document.getElementById("app")!;
let leave: () => void = () => {};

async function main(): Promise<void> {
  const { variants } = await request<VariantsQuery>(VARIANTS);
  const route = (): void => {
    leave();
    const game = /^#\/game\/(.+)$/.exec(location.hash);
    leave = game ? showGame(root, variants, decodeURIComponent(game[1])) : showLobby(root, variants);
  };
  window.addEventListener("hashchange", route);
  route();
}

main().catch((failure) => {
  root.textContent = `The server could not be reached: ${failure instanceof Error ? failure.message : failure}`;
});
