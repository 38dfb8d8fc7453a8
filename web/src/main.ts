// The web client: a bar with the way home and the language on every page, and the page the
// address names (routes.ts). Everything it loads comes from the server that serves it.

import "./style.css";
import { accountNav, isAccountRoute, session, showAccountPage, wireAccountNav } from "./account";
import { endpoint, request } from "./api";
import { VARIANTS } from "./documents";
import { errorText } from "./errors";
import { showGame } from "./game/page";
import type { VariantsQuery } from "./generated/graphql";
import { currentLocale, loadLocale, LOCALES, onLocaleChange, setLocale, t, type Locale } from "./i18n";
import { showLobby } from "./lobby";
import { parseRoute } from "./routes";
import { showTournament } from "./tournament/page";
import { showLeaderboard } from "./ratings/leaderboard";
import { showChallenges } from "./play/challenges";
import { showPool } from "./play/pool";

const app = document.getElementById("app")!;
const bar = document.createElement("header");
const root = document.createElement("div");
app.replaceChildren(bar, root);
let leave: () => void = () => {};

function drawBar(): void {
  const languages = LOCALES.map((l) => `<option value="${l}"${l === currentLocale() ? " selected" : ""}>${t(`language.${l}`)}</option>`).join("");
  bar.className = "bar";
  bar.innerHTML = `<a class="skip" href="#main">${t("bar.skip")}</a>
    <a class="home" href="#/">RisiKo! <small>${t("bar.server")}</small></a>
    <a class="quiet api" href="${endpoint()}">${t("bar.api")}</a>
    ${accountNav()}
    <label class="language">${t("bar.language")} <select>${languages}</select></label>`;
  const select = bar.querySelector("select")!;
  select.addEventListener("change", () => void setLocale(select.value as Locale));
  wireAccountNav(bar);
  // The skip link moves focus without changing the route.
  bar.querySelector<HTMLAnchorElement>(".skip")!.addEventListener("click", (event) => {
    event.preventDefault();
    document.getElementById("main")?.setAttribute("tabindex", "-1");
    document.getElementById("main")?.focus();
  });
}

async function main(): Promise<void> {
  // The games' boards are asked for at once, and a game's page asks for its game meanwhile.
  const variants = request<VariantsQuery>(VARIANTS).then((data) => data.variants);
  await loadLocale();
  drawBar();
  let shown = 0;
  const route = async (): Promise<void> => {
    const mine = ++shown;
    leave();
    leave = () => {};
    const at = parseRoute(location.hash);
    document.title = t("bar.title");
    if (at.page === "game" || at.page === "replay") leave = showGame(root, variants, at.gameId, at.page === "replay" ? at.version : undefined);
    else {
      const known = await variants;
      if (mine !== shown) return;
      const titles = new Map(known.map((v) => [v.name, v.title]));
      if (isAccountRoute(at)) leave = showAccountPage(root, at, titles);
      else if (at.page === "tournament") leave = showTournament(root, at.tournamentId, titles);
      else if (at.page === "leaderboard") leave = showLeaderboard(root, at, known);
      else if (at.page === "challenges") leave = showChallenges(root, known);
      else if (at.page === "pool") leave = showPool(root, known);
      else leave = showLobby(root, known);
    }
  };
  window.addEventListener("hashchange", () => void route().catch(unreachable));
  session.onChange(drawBar);
  onLocaleChange(() => {
    drawBar();
    void route().catch(unreachable);
  });
  await route();
}

function unreachable(failure: unknown): void {
  root.textContent = t("error.unreachable", { reason: errorText(failure) });
}

main().catch(async (failure) => {
  await loadLocale().catch(() => {});
  unreachable(failure);
});
