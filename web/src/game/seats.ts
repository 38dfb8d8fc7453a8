// The players: each seat's share of the board and of the game (territories, armies or units,
// cards, and what its game counts: victory points, an empire and banners, flags and production
// points), the order of play this round, and the truces in force.

import { escape, html } from "../dom";
import { list, t } from "../i18n";
import type { GameContext, State } from "./context";
import { ratingBeside } from "../ratings/game";

interface Column {
  heading: string;
  cell(seat: number): string;
  /** Told under the player's name, not in a column of its own (a long word, as an empire). */
  under?: boolean;
}

/** A column's heading: its short word, the whole word for screen readers and on hover. */
function heading(short: string, long: string): string {
  return short === long ? short : `<abbr title="${escape(long)}">${escape(short)}</abbr>`;
}

/** The columns the viewer's game counts, beyond territories and cards. */
function columns(ctx: GameContext): Column[] {
  const { state, names } = ctx;
  const game = state.state;
  const units = (seat: number, kinds: string[]): number =>
    state.territories.reduce((n, s) => n + s.units.filter((u) => u.seat === seat && kinds.includes(u.kind)).reduce((m, u) => m + u.count, 0), 0);
  const found: Column[] = [];
  const landKinds = ctx.variant.unitKinds.filter((kind) => kind !== "trireme");
  if (landKinds.includes("army")) found.push({ heading: t("seats.armies"), cell: (seat) => String(units(seat, ["army"])) });
  else {
    const held = (seat: number): string[] => landKinds.filter((kind) => units(seat, [kind])).map((kind) => escape(names.units(kind, units(seat, [kind]))));
    found.push({ heading: t("seats.units"), cell: (seat) => held(seat).join("<br>") || "—" });
  }
  if (ctx.variant.unitKinds.includes("trireme")) found.push({ heading: heading(t("seats.triremesShort"), t("seats.triremes")), cell: (seat) => String(units(seat, ["trireme"])) });
  if (game?.__typename === "SpqrState") found.push({ heading: heading(t("seats.victoryPointsShort"), t("seats.victoryPoints")), cell: (seat) => String(game.victoryPoints[seat] ?? 0) });
  if (game?.__typename === "PiuState") {
    found.push({ heading: t("seats.empire"), under: true, cell: (seat) => escape(game.empires[seat] ? names.region(game.empires[seat]) : "—") });
    found.push({
      heading: t("seats.banners"),
      under: true,
      cell: (seat) => {
        const held = game.bannerHolders.flatMap((holder, banner) => (holder === seat ? [banner] : []));
        return held.map((banner) => `<span class="swatch" style="background:${ctx.colour(banner)}" title="${escape(names.player(banner))}"></span>`).join("") || "—";
      },
    });
  }
  if (game?.__typename === "FutuRisiKoState") {
    found.push({ heading: heading(t("seats.flagsLeftShort"), t("seats.flagsLeft")), cell: (seat) => String(game.flagsLeft[seat] ?? 0) });
    found.push({ heading: heading(t("seats.productionShort"), t("seats.production")), cell: (seat) => String(game.productionPoints[seat] ?? 0) });
  }
  return found;
}

function flags(p: State["players"][number]): string {
  return [
    p.bot ? `<span class="badge">${t("seats.bot")}</span>` : "",
    p.eliminated ? `<span class="badge out">${t("seats.eliminated")}</span>` : "",
    p.resigned ? `<span class="badge out">${t("seats.resigned")}</span>` : "",
    p.absences ? `<span class="badge warn">${t("seats.absences", { count: p.absences })}</span>` : "",
  ].join(" ");
}

export function renderSeats(box: HTMLElement, ctx: GameContext): void {
  const { state, names } = ctx;
  const extra = columns(ctx).filter((c) => !c.under);
  const under = columns(ctx).filter((c) => c.under);
  const rows = state.players
    .map((p) => {
      const you = p.seat === state.viewerSeat ? ` <span class="you">${t("seats.you")}</span>` : "";
      const current = p.seat === state.seatToAct ? ' class="to-act" aria-current="true"' : "";
      const cells = extra.map((c) => `<td>${c.cell(p.seat)}</td>`).join("");
      const lines = under.map((c) => `<span class="under">${c.heading}: ${c.cell(p.seat)}</span>`).join("");
      return `<tr${current} data-seat="${p.seat}"><th scope="row"><span class="swatch" style="background:${ctx.colour(p.seat)}"></span>${escape(p.name)}${ratingBeside(state, p)}${you} ${flags(p)}${lines}</th><td>${p.territories}</td>${cells}<td>${p.cards}</td></tr>`;
    })
    .join("");
  const headings = extra.map((c) => `<th scope="col">${c.heading}</th>`).join("");
  box.replaceChildren(
    html(`<div class="table-scroll" tabindex="0" role="region" aria-label="${t("seats.caption")}"><table class="players"><caption class="visually-hidden">${t("seats.caption")}</caption><thead><tr><th scope="col">${t("seats.player")}</th><th scope="col">${heading(t("seats.territoriesShort"), t("seats.territories"))}</th>${headings}<th scope="col">${t("seats.cards")}</th></tr></thead><tbody>${rows}</tbody></table></div>`),
  );
  const order = state.state?.turnOrder ?? [];
  if (state.status === "ACTIVE" && order.length) {
    const items = order.map((seat) => `<li${seat === state.currentPlayer ? ' aria-current="step" class="now"' : ""}><span class="swatch" style="background:${ctx.colour(seat)}"></span>${escape(names.player(seat))}</li>`);
    box.append(html(`<div class="order"><h3>${t("seats.order", { round: state.round })}</h3><ol>${items.join("")}</ol></div>`));
  }
  const truces = trucesOf(state);
  if (truces.length) {
    const text = t("seats.truces", { list: list(truces.map(([a, b]) => t("seats.truce", { a: names.player(a), b: names.player(b) }))) });
    box.append(html(`<p class="truces"></p>`));
    box.querySelector(".truces")!.textContent = text;
  }
}

/** The board's regions (continents, empires, blocks), their bonus, and who holds each whole. */
export function renderRegions(box: HTMLElement, ctx: GameContext): void {
  const regions = ctx.variant.board.regions;
  if (!regions.length || ctx.state.status === "LOBBY") return box.replaceChildren();
  const owner = new Map(ctx.state.territories.map((s) => [s.id, s.owner]));
  const items = regions.map((region) => {
    const holders = new Set(region.territories.map((id) => owner.get(id)));
    const [holder] = holders;
    const held = holders.size === 1 && holder !== null && holder !== undefined ? ctx.names.player(holder) : t("regions.divided");
    return `<li>${escape(t("regions.one", { region: region.name, bonus: region.bonus, holder: held }))}</li>`;
  });
  const open = box.querySelector("details")?.open ? " open" : "";
  box.innerHTML = `<details${open}><summary>${t("regions.title")}</summary><ul>${items.join("")}</ul></details>`;
}

/** The truces in force, as pairs of seats (RisiKo! Più's Diplomatico, FutuRisiKo!'s Tregua). */
export function trucesOf(state: State): [number, number][] {
  const game = state.state;
  if (game?.__typename === "PiuState") return game.truceImposers.map((seat, i) => [seat, game.truceTargets[i]]);
  if (game?.__typename === "FutuRisiKoState") {
    const pairs: [number, number][] = [];
    for (let i = 0; i + 1 < game.truces.length; i += 2) pairs.push([game.truces[i], game.truces[i + 1]]);
    return pairs;
  }
  return [];
}
