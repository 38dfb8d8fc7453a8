// The odds of what an action risks, each labelled with what it is the odds of: one roll of
// the dice (counted here exactly, face by face), and a fight to its end (the API's
// battleOdds and volleyOdds, exact too).

import { request } from "../api";
import { ODDS, VOLLEY_ODDS } from "../documents";
import type { OddsQuery, VolleyOddsQuery } from "../generated/graphql";
import { decimal, list, percent, t } from "../i18n";

/** P(the attacker loses k armies) for one roll of `attacker` dice against `defender` dice,
 * highest against highest; ties go to the defender, or remove nothing (a naval roll). */
export function rollOdds(attacker: number, defender: number, tiesToDefender = true, attackerBonus = 0, defenderBonus = 0): number[] {
  const pairs = Math.min(attacker, defender);
  const losses = new Array<number>(pairs + 1).fill(0);
  const total = 6 ** (attacker + defender);
  const faces = new Array<number>(attacker + defender).fill(1);
  for (let n = 0; n < total; n++) {
    let rest = n;
    for (let i = 0; i < faces.length; i++) {
      faces[i] = (rest % 6) + 1;
      rest = Math.floor(rest / 6);
    }
    const a = faces.slice(0, attacker).sort((x, y) => y - x);
    const d = faces.slice(attacker).sort((x, y) => y - x);
    a[0] += attackerBonus;
    d[0] += defenderBonus;
    let lost = 0;
    for (let i = 0; i < pairs; i++) if (tiesToDefender ? a[i] <= d[i] : a[i] < d[i]) lost++;
    losses[lost] += 1 / total;
  }
  return losses;
}

/** "This roll, 3 dice against 2: you lose none 37.2 %, one 33.6 %, two 29.3 %". */
export function rollText(attacker: number, defender: number, tiesToDefender = true, bonus: [number, number] = [0, 0]): string {
  const odds = rollOdds(attacker, defender, tiesToDefender, ...bonus);
  const each = odds.map((p, lost) => t("odds.lose", { lost, chance: percent(p) }));
  return t("odds.roll", { attacker, defender, list: list(each) });
}

export async function conquestText(attackers: number, defenders: number, dice = 3, stopAt = 0): Promise<string> {
  const { battleOdds } = await request<OddsQuery>(ODDS, { attackers, defenders, attackerDice: dice, stopAt });
  return t("odds.conquest", {
    chance: percent(battleOdds.conquestProbability),
    attackers,
    defenders,
    lost: decimal(battleOdds.expectedAttackerLosses),
    killed: decimal(battleOdds.expectedDefenderLosses),
  });
}

export async function battleText(attackers: number, defenders: number, flag: boolean, attackerFirst: boolean): Promise<string> {
  const { volleyOdds } = await request<VolleyOddsQuery>(VOLLEY_ODDS, { attackers, defenders, flag, attackerFirst });
  return t("odds.battle", { chance: percent(volleyOdds.conquestProbability), attackers, defenders });
}
