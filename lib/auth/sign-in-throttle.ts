import "server-only";
import { getDb, transaction } from "@/db/client";
import { config } from "@/lib/config";
import { sha256Hex } from "@/lib/crypto/hash";
import {
  claimAttempt,
  deleteStaleAttempts,
  giveBackClaims,
  readAttempts,
  recordFailure,
  recordSuccess,
  type AttemptRow,
} from "./sign-in-throttle-repo";

/**
 * Sign-in is slowed down, never locked (docs/auth-limits.md, "Sign-in delays"). Wrong passwords
 * are counted per email and client address (a *pair*) and per email alone (the *account*); past a
 * few free failures, each next attempt of that key must wait an exponential delay after the last
 * failure, capped low. No count ever refuses the right password for long:
 *
 * - A pair waits `2^(failures − free + 1)` s, at most `SIGN_IN_MAX_DELAY_SECONDS` (60).
 * - The account (every address together) waits the same way after twice as many failures, at
 *   most ACCOUNT_MAX_DELAY_S: someone guessing from elsewhere holds the owner up for seconds only.
 * - A pair that signed in within KNOWN_FOR_MS (a *known address*) only ever waits its own delay:
 *   however many addresses guess the account, its owner at a usual address is not slowed at all.
 *
 * Only attempts let through a delay take a slot in advance (one per delay, compare-and-set), so
 * parallel guesses cannot all pass an expired delay; free attempts are never reserved, so any
 * number of concurrent right passwords are all let through.
 */
export const ACCOUNT_MAX_DELAY_S = 10;
/** Failures older than this are forgotten: the count starts again. */
export const FORGET_AFTER_MS = 15 * 60_000;
/** An address the account signed in from this recently is known. */
export const KNOWN_FOR_MS = 30 * 24 * 3600_000;

const accountHash = (email: string) => sha256Hex(email.trim().toLowerCase());
export const pairKey = (email: string, address: string) => `pair:${accountHash(email)}:${address}`;
export const accountKey = (email: string) => `acct:${accountHash(email)}`;

type Rule = { free: number; maxDelayS: number };
function rules(): { pair: Rule; account: Rule } | null {
  const max = config.signInMaxDelaySeconds;
  if (max <= 0) return null;
  const free = config.signInFreeFailures;
  return { pair: { free, maxDelayS: max }, account: { free: 2 * free, maxDelayS: Math.min(ACCOUNT_MAX_DELAY_S, max) } };
}

/** Seconds to wait after the `failures`-th failure: 0 while free, then 2, 4, 8 … up to the cap. */
export function delaySeconds(failures: number, rule: Rule): number {
  if (failures < rule.free) return 0;
  const k = failures - rule.free + 1;
  return k >= 30 ? rule.maxDelayS : Math.min(2 ** k, rule.maxDelayS);
}

/** Failures that still count at `now` (0 after a quiet FORGET_AFTER_MS). */
function liveFailures(row: AttemptRow | undefined, now: number): number {
  if (!row?.lastFailureAt || now - row.lastFailureAt.getTime() >= FORGET_AFTER_MS) return 0;
  return row.failures;
}

function waitMs(row: AttemptRow | undefined, rule: Rule, now: number): number {
  const failures = liveFailures(row, now);
  if (!row?.lastFailureAt || !failures) return 0;
  return Math.max(0, row.lastFailureAt.getTime() + delaySeconds(failures, rule) * 1000 - now);
}

export type Gate =
  | { ok: true; pair: string; account: string; known: boolean; claimed: string[]; off?: false }
  | { ok: true; off: true }
  | { ok: false; retryAfter: number };

/**
 * Decides whether an attempt may check its password now; if not, how many seconds to wait.
 * An attempt let through a delay has its failure counted already (`claimed`).
 */
export async function openGate(email: string, address: string, now = Date.now()): Promise<Gate> {
  const r = rules();
  if (!r) return { ok: true, off: true };
  sweep(now);
  const pair = pairKey(email, address);
  const account = accountKey(email);
  const rows = await readAttempts(await getDb(), [pair, account]);
  const pairRow = rows.find((x) => x.key === pair);
  const known = !!pairRow?.lastSuccessAt && now - pairRow.lastSuccessAt.getTime() < KNOWN_FOR_MS;
  const checks: [AttemptRow | undefined, Rule][] = [[pairRow, r.pair]];
  if (!known) checks.push([rows.find((x) => x.key === account), r.account]);

  const wait = Math.max(...checks.map(([row, rule]) => waitMs(row, rule, now)));
  if (wait > 0) return { ok: false, retryAfter: Math.max(1, Math.ceil(wait / 1000)) };

  // Past the free failures: this attempt takes the one slot its expired delay allows.
  const throttled = checks.filter(([row, rule]) => liveFailures(row, now) >= rule.free).map(([row, rule]) => ({ row: row!, rule }));
  if (throttled.length) {
    const at = new Date(now);
    const won = await transaction(async (tx) => {
      for (const { row } of throttled) if (!(await claimAttempt(tx, { seen: row, now: at }))) throw new LostRace();
      return true;
    }).catch((err) => {
      if (err instanceof LostRace) return false;
      throw err;
    });
    // Another attempt took it; it pushes the delay to the next step if it fails.
    if (!won) return { ok: false, retryAfter: Math.max(...throttled.map(({ row, rule }) => delaySeconds(row.failures + 1, rule))) };
  }
  return { ok: true, pair, account, known, claimed: throttled.map(({ row }) => row.key) };
}

class LostRace extends Error {}

/** The password was wrong: counts it for the pair and the account (those not counted in advance). */
export async function gateFailed(gate: Gate, now = Date.now()): Promise<void> {
  if (!gate.ok || gate.off) return;
  const db = await getDb();
  const at = new Date(now);
  const forget = new Date(now - FORGET_AFTER_MS);
  for (const key of [gate.pair, gate.account])
    if (!gate.claimed.includes(key)) await recordFailure(db, { key, now: at, forgetBefore: forget });
}

/** The password was right: the pair is known from now, and its and the account's failures are forgotten. */
export async function gatePassed(gate: Gate, now = Date.now()): Promise<void> {
  if (!gate.ok || gate.off) return;
  await recordSuccess(await getDb(), { pairKey: gate.pair, accountKey: gate.account, now: new Date(now) });
}

/** The attempt could not be checked (hash queue full, database error): its advance failures are given back. */
export async function gateAborted(gate: Gate): Promise<void> {
  if (!gate.ok || gate.off) return;
  await giveBackClaims(await getDb(), gate.claimed);
}

// Stale rows are deleted by the first sign-in of each minute in this process.
let lastSweep = 0;
function sweep(now: number) {
  if (now - lastSweep < 60_000 && now >= lastSweep) return;
  lastSweep = now;
  getDb()
    .then((db) =>
      deleteStaleAttempts(db, { failuresBefore: new Date(now - FORGET_AFTER_MS), successesBefore: new Date(now - KNOWN_FOR_MS) }),
    )
    .catch(() => {});
}
