import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { clientAddress } from "@/lib/http/client-address";
import { ApiError } from "@/lib/http/errors";
import { bumpWindow, countsInWindows, releaseInWindow, reserveInWindow } from "./repo";
import { LONG_KEY_PREFIX, sweep } from "./service";

/**
 * Failure budgets: how many failed authentications (wrong passwords, unsigned webhooks, wrong
 * verify tokens) one account or one client address may cause per 15 minutes. Counted in the
 * `rate_limits` table like the API budget, so every replica shares them. A budget counts the
 * current 15-minute window plus the previous one, so no 15-minute span holds more than the limit
 * (a fixed window alone would allow twice the limit across a boundary); the price is that a spent
 * budget can stay spent for up to 30 minutes.
 */
export const FAILURE_WINDOW_SECONDS = 15 * 60;
const WINDOW_MS = FAILURE_WINDOW_SECONDS * 1000;

export const tooManyFailuresMessage = (seconds: number) => `Demasiados intentos fallidos. Intente de nuevo en ${seconds} segundos.`;

/** The 429 of a spent failure budget: the project's error body and `Retry-After`. */
export function failureLimitError(retryAfter: number): ApiError {
  return new ApiError(429, tooManyFailuresMessage(retryAfter), undefined, { "Retry-After": String(retryAfter) });
}

/** The budget key of a client address (the sign-in delays per email are lib/auth/sign-in-throttle.ts). */
export const addressKey = (address: string) => `${LONG_KEY_PREFIX}addr:${address}`;

export type FailureSlot = { key: string; windowStart: Date } | null;
export type Reservation = { ok: true; slot: FailureSlot } | { ok: false; retryAfter: number };

function windowsAt(now: number) {
  const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return { start: new Date(start), previous: new Date(start - WINDOW_MS), end: start + WINDOW_MS };
}

/** Seconds until a spent budget has room again, from the count of the current window. */
function retryAfterSeconds(current: number, limit: number, now: number): number {
  const { end } = windowsAt(now);
  // When this window ends the previous one stops counting; if this one alone is full, a window more.
  const until = current >= limit ? end + WINDOW_MS : end;
  return Math.max(1, Math.ceil((until - now) / 1000));
}

async function retryAfter(key: string, limit: number, now: number): Promise<number> {
  const w = windowsAt(now);
  const [, current] = await countsInWindows(await getDb(), { key, starts: [w.previous, w.start] });
  return retryAfterSeconds(current, limit, now);
}

/**
 * Takes a slot of `key`'s budget before an attempt is checked (so parallel attempts cannot
 * overshoot it). A failed attempt keeps its slot; one that was not a failure gives it back with
 * `releaseFailure`. A limit of 0 turns the budget off.
 */
export async function reserveFailure(key: string, limit: number, now = Date.now()): Promise<Reservation> {
  if (limit <= 0) return { ok: true, slot: null };
  const w = windowsAt(now);
  const count = await reserveInWindow(await getDb(), { key, windowStart: w.start, previousStart: w.previous, limit });
  sweep(WINDOW_MS);
  if (count === null) return { ok: false, retryAfter: await retryAfter(key, limit, now) };
  return { ok: true, slot: { key, windowStart: w.start } };
}

export async function releaseFailure(slot: FailureSlot): Promise<void> {
  if (slot) await releaseInWindow(await getDb(), { key: slot.key, windowStart: slot.windowStart });
}

/**
 * For public routes whose failures are cheap to tell apart once checked (webhooks): the budget of
 * the caller's address is read first (one indexed read; 429 at once when spent, before the body is
 * read), and only a request that fails authentication (401/403) spends from it. Genuine signed
 * posts never do, however many Meta sends from one address.
 */
export async function withAddressFailureBudget<T>(req: Request, run: () => Promise<T>): Promise<T> {
  const limit = config.authFailuresPerAddress;
  if (limit <= 0) return run();
  const key = addressKey(clientAddress(req));
  const now = Date.now();
  const w = windowsAt(now);
  const [previous, current] = await countsInWindows(await getDb(), { key, starts: [w.previous, w.start] });
  if (previous + current >= limit) throw failureLimitError(retryAfterSeconds(current, limit, now));
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      await bumpWindow(await getDb(), { key, windowStart: w.start });
      sweep(WINDOW_MS);
    }
    throw err;
  }
}
