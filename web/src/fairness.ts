// Fair dice: the check of a finished game's chain in the browser: the secret against the
// commitment published at creation, the dice's seed derived from the secret and the seats'
// contributions. Hashes by @noble/hashes, not crypto.subtle: the page must work over plain
// HTTP from any host, where crypto.subtle is missing. Loaded when a verification is asked.

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { t } from "./i18n";

const SEATS_TAG = utf8ToBytes("risiko/seats/v1");

/** The seed a game's dice come from, as the server derives it (domain/rng.py derive_seed):
 * HMAC-SHA256 keyed by the secret over "risiko/seats/v1", then per seat in order 0x00 for
 * none, or 0x01, the length in 4 bytes big-endian and the ASCII bytes. */
export function deriveSeed(secret: Uint8Array, contributions: (string | null)[]): Uint8Array {
  const parts: Uint8Array[] = [SEATS_TAG];
  for (const value of contributions) {
    if (value === null) {
      parts.push(Uint8Array.of(0));
      continue;
    }
    const encoded = utf8ToBytes(value);
    const length = new Uint8Array(5);
    length[0] = 1;
    new DataView(length.buffer).setUint32(1, encoded.length);
    parts.push(length, encoded);
  }
  const message = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    message.set(part, at);
    at += part.length;
  }
  return hmac(sha256, secret, message);
}

export interface Randomness {
  commitment: string;
  seedChosen: boolean;
  derived: boolean;
  startCommitment: string | null;
  secret: string | null;
  derivedSeed: string | null;
  contributions: { seat: number; value: string | null; byServer: boolean; atStart: boolean }[];
}

export interface Check {
  ok: boolean;
  text: string;
}

/** Each link of a finished game's chain that the browser can check, in words. */
export function checkChain(found: Randomness, mine: { seat: number; sent: string | null } | null): Check[] {
  if (!found.secret || !found.derivedSeed) return [{ ok: false, text: t("fair.notYet") }];
  const secret = hexToBytes(found.secret);
  const checks: Check[] = [];
  const committed = bytesToHex(sha256(secret)) === found.commitment;
  checks.push({ ok: committed, text: t(committed ? "fair.committed" : "fair.notCommitted") });
  if (found.seedChosen) checks.push({ ok: true, text: t("fair.chosen") });
  const seed = found.derived ? deriveSeed(secret, found.contributions.map((c) => c.value)) : secret;
  const derived = bytesToHex(seed) === found.derivedSeed;
  const seats = found.contributions.length;
  const which = found.derived ? (derived ? "fair.derived" : "fair.notDerived") : derived ? "fair.fromSecret" : "fair.notFromSecret";
  checks.push({ ok: derived, text: t(which, { seats }) });
  if (found.startCommitment !== null) {
    const started = bytesToHex(sha256(seed)) === found.startCommitment;
    checks.push({ ok: started, text: t(started ? "fair.started" : "fair.notStarted") });
  }
  if (mine?.sent && found.derived) {
    const kept = found.contributions.find((c) => c.seat === mine.seat)?.value === mine.sent;
    checks.push({ ok: kept, text: t(kept ? "fair.yours" : "fair.notYours") });
  }
  return checks;
}
