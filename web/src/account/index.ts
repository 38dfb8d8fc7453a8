// The account's pages, by route: signing up, logging in, its games, its tokens, a profile.

import type { Route } from "../routes";
import { showAuthForm } from "./forms";
import { showMyGames } from "./my-games";
import { showProfile } from "./profile";
import { showTokens } from "./tokens";

export { accountNav, wireAccountNav } from "./nav";
export { session } from "./session";

type AccountRoute = Extract<Route, { page: "signup" | "login" | "myGames" | "myTokens" | "profile" }>;

export function isAccountRoute(route: Route): route is AccountRoute {
  return ["signup", "login", "myGames", "myTokens", "profile"].includes(route.page);
}

export function showAccountPage(root: HTMLElement, route: AccountRoute, titles: ReadonlyMap<string, string>): () => void {
  switch (route.page) {
    case "signup":
    case "login":
      return showAuthForm(root, route.page);
    case "myGames":
      return showMyGames(root, titles);
    case "myTokens":
      return showTokens(root);
    case "profile":
      return showProfile(root, route.name, titles);
  }
}
