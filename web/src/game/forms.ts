// A form for what the viewer may do: one per kind of action (and place it starts from), in
// the player's words, with its choices named (spaces, players, cards), the map as a second way
// to choose a space, and the odds of what it risks, each labelled.

import { html, on } from "../dom";
import { actionInput, params, type Family, type Param } from "../families";
import { has, t, tOr } from "../i18n";
import { unitsOn, type GameContext } from "./context";
import { battleText, conquestText, rollText } from "./odds";
import { familyValues, valueWord } from "./words";

/** What the map chose, for the form's space choices. */
export interface Chosen {
  selected: string | null;
  target: string | null;
}

function title(member: string): string {
  return tOr(`action.${member}`, t("action.other"));
}

function paramLabel(member: string, name: string): string {
  const own = `param.${member}.${name}`;
  return has(own) ? t(own) : tOr(`param.${name}`, t("param.other"));
}

/** The families of a group differ by target: which one the form sends now. */
function chosenFamily(group: Family[], form: HTMLFormElement): Family {
  const which = form.elements.namedItem("__family") as HTMLSelectElement | null;
  return group[which ? Number(which.value) : 0];
}

function control(ctx: GameContext, member: string, p: Param, chosen: Chosen): HTMLElement | null {
  const label = paramLabel(member, p.name);
  if (p.kind === "range") {
    if (p.min === p.max) return html(`<p class="fixed">${label}: <strong>${p.min}</strong></p>`);
    const field = html(`<label>${label} <input type="number" name="${p.name}" min="${p.min}" max="${p.max}" value="${p.value}" inputmode="numeric"> <small>${t("form.range", { min: p.min, max: p.max })}</small></label>`);
    return field;
  }
  if (p.kind === "choice") {
    const prefer = [chosen.target, chosen.selected].find((id) => id !== null && p.options.includes(id));
    const value = prefer ?? p.value;
    const select = document.createElement("select");
    select.name = p.name;
    for (const option of p.options) {
      const item = new Option(ctx.words.isSpace(String(option)) ? ctx.words.spaceDetail(String(option)) : valueWord(p.name, option, ctx.words), String(option));
      item.selected = option === value;
      select.append(item);
    }
    select.dataset.number = String(typeof p.value === "number");
    const field = html(`<label>${label} </label>`);
    field.append(select);
    return field;
  }
  return null; // fixed: told by the form's sentence
}

function renderParams(ctx: GameContext, group: Family[], form: HTMLFormElement, chosen: Chosen): void {
  const f = chosenFamily(group, form);
  const box = form.querySelector(".params")!;
  box.replaceChildren(...params(f).map((p) => control(ctx, f.member, p, chosen)).filter((c): c is HTMLElement => c !== null));
  const about = tOr(`about.${f.member}`, "", familyValues(f.values, ctx.words));
  form.querySelector(".about")!.textContent = about;
  void showOdds(ctx, f, form);
}

/** One form for a group of families of one kind (an attack from one place, to any target). */
export function familyForm(ctx: GameContext, group: Family[], chosen: Chosen): HTMLFormElement {
  const first = group[0];
  const form = html(`<form class="family" data-family="${first.type}" data-member="${first.member}"><h3>${title(first.member)}</h3><p class="about"></p><div class="params"></div><button type="submit">${title(first.member)}</button><p class="odds" aria-live="polite"></p></form>`) as HTMLFormElement;
  if (group.length > 1) {
    // The families differ by their target: choose it here, or on the map.
    const select = document.createElement("select");
    select.name = "__family";
    group.forEach((f, i) => {
      const target = String(f.values.target ?? f.values.sea ?? "");
      select.append(new Option(ctx.words.spaceDetail(target), String(i), false, target === chosen.target));
    });
    const field = html(`<label class="target">${paramLabel(first.member, "target")} </label>`);
    field.append(select);
    form.querySelector("h3")!.after(field);
    select.addEventListener("change", () => renderParams(ctx, group, form, { selected: chosen.selected, target: null }));
  }
  renderParams(ctx, group, form, chosen);
  form.addEventListener("change", (event) => {
    if ((event.target as HTMLElement).getAttribute("name") !== "__family") void showOdds(ctx, chosenFamily(group, form), form);
  });
  on(form, "submit", async (event) => {
    event.preventDefault();
    const f = chosenFamily(group, form);
    const values: Record<string, unknown> = {};
    for (const p of params(f)) {
      const field = form.elements.namedItem(p.name) as HTMLInputElement | HTMLSelectElement | null;
      if (!field) continue;
      values[p.name] = p.kind === "range" || field.dataset.number === "true" ? Number(field.value) : field.value;
    }
    form.querySelector("button")!.disabled = true;
    await ctx.submit(actionInput(f, values));
  });
  return form;
}

function chosenNumber(form: HTMLFormElement, name: string, fallback: number): number {
  const field = form.elements.namedItem(name) as HTMLInputElement | null;
  return field ? Number(field.value) : fallback;
}

/** The odds of the form's action, as it is filled in now. */
async function showOdds(ctx: GameContext, f: Family, form: HTMLFormElement): Promise<void> {
  const out = form.querySelector(".odds")!;
  const text = await oddsOf(ctx, f, form).catch(() => "");
  if (form.isConnected || !out.textContent) out.textContent = text;
}

async function oddsOf(ctx: GameContext, f: Family, form: HTMLFormElement): Promise<string> {
  const { state } = ctx;
  const v = f.values;
  const source = typeof v.source === "string" ? v.source : null;
  const target = typeof v.target === "string" ? v.target : typeof v.territory === "string" ? v.territory : null;
  const armies = (id: string): number => unitsOn(state, id, undefined, ["army"]);
  const piu = state.state?.__typename === "PiuState" ? state.state : null;
  const bonus: [number, number] = piu && piu.attackSource === source && piu.attackTarget === target ? [Number(piu.general), Number(piu.marshal)] : [0, 0];
  if (f.member === "attack" && source && target) {
    const dice = chosenNumber(form, "dice", Number(v.maxDice));
    return rollText(dice, Math.min(3, armies(target)), true, bonus);
  }
  if (f.member === "attackUntil" && source && target) {
    return conquestText(armies(source) - 1, armies(target), chosenNumber(form, "dice", 3), chosenNumber(form, "stopAt", 0));
  }
  if (f.member === "seaAttack" && target) return conquestText(chosenNumber(form, "legionaries", Number(v.maxLegionaries)), armies(target));
  if (f.member === "admiralAttack") {
    const chosenTarget = (form.elements.namedItem("target") as HTMLSelectElement | null)?.value;
    if (chosenTarget) return conquestText(chosenNumber(form, "armies", Number(v.maxArmies)), armies(chosenTarget), 3, chosenNumber(form, "stopAt", 0));
  }
  if (f.member === "navalBattle" && typeof v.sea === "string") {
    const theirs = unitsOn(state, v.sea, Number(v.opponent), ["trireme"]);
    return rollText(chosenNumber(form, "dice", Number(v.maxDice)), Math.min(3, theirs), false);
  }
  if (f.member === "battle" && target) {
    const me = state.viewerSeat;
    const here = state.territories.find((s) => s.id === target);
    const enemy = here?.units.find((u) => u.seat !== me && u.seat !== null)?.seat ?? here?.owner ?? null;
    const fighting = ["tank", "aircraft"];
    const mine = unitsOn(state, target, me, fighting);
    const theirs = enemy === null ? 0 : unitsOn(state, target, enemy, fighting);
    const air = (seat: number | null): number => unitsOn(state, target, seat, ["aircraft"]);
    return battleText(mine, theirs, here?.owner === enemy && enemy !== null, air(me) > air(enemy));
  }
  return "";
}
