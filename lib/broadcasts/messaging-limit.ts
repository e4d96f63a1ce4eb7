import "server-only";
import { getDb, transaction, type DbOrTx } from "@/db/client";
import { config } from "@/lib/config";
import {
  broadcastPending,
  deferClaims,
  freeCustomers,
  lockNumberTier,
  numberTiers,
  stampCounted,
  wakeWaiting,
  windowUse,
} from "./messaging-limit-repo";
import type { MessagingLimitPlan, MessagingLimitPreview } from "./schemas";

/**
 * A number's messaging limit (docs/features/broadcasts.md, "Messaging limit"): Meta lets a number
 * open business-initiated conversations (a template to a customer whose service window is closed)
 * with at most its tier's number of unique customers in any rolling 24 hours. Beyond it Meta
 * refuses the sends; the service instead sends a broadcast in waves that fit:
 *
 * - the delivery gate (`admitWithinLimit`, called by lib/delivery/send-task.ts before a claimed
 *   group is paced) lets through only the broadcast messages that fit what is left, stamping them
 *   as counted; the rest go back to the queue, due when the window frees room for each, unfailed
 *   and with their attempt uncounted. One transaction per group, under the number's row lock, so
 *   two workers never both take the last room; a crash after it loses nothing (a stamped message
 *   claimed again takes no new room).
 * - a raised tier (Meta's phone_number_quality_update, lib/numbers/health.ts) makes the waiting
 *   messages due at once (`tierChanged`).
 * - `planWaves` says what is left of a broadcast will go out when (the API and the wizard).
 *
 * Only broadcast messages are held: a single send was asked for one by one, and is counted once sent.
 * A number whose tier Meta never reported (sandbox numbers) or TIER_UNLIMITED has no limit.
 */

/** Unique customers per rolling window for each tier Meta reports (`messaging_limit_tier`, `current_limit`). */
export const TIER_LIMITS: Record<string, number | null> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
};

/** The tier's limit; null when there is none to keep (unlimited, or unknown to us). */
export function tierLimit(tier: string | null | undefined): number | null {
  return tier ? (TIER_LIMITS[tier] ?? null) : null;
}

export const limitWindowMs = () => config.messagingLimitWindowMs;

/** A claimed broadcast message as the gate needs it: its fence and its customer. */
export type GateItem = { id: number; attempts: number; contactId: number };

/**
 * The delivery gate for one number's claimed broadcast messages: returns the ids that may be sent
 * now (stamped as counted); the others were given back to wait for room, and the caller writes
 * nothing more for them. A message that no longer holds its claim is in neither (the caller skips it).
 */
export async function admitWithinLimit(k: { teamId: number; waNumberId: number; items: GateItem[] }): Promise<Set<number>> {
  if (!k.items.length) return new Set();
  const windowMs = limitWindowMs();
  return transaction(async (tx) => {
    const limit = tierLimit(await lockNumberTier(tx, k));
    if (limit == null) return new Set(k.items.map((i) => i.id));
    const items = [...k.items].sort((a, b) => a.id - b.id);
    const free = await freeCustomers(tx, { ...k, windowMs, contactIds: [...new Set(items.map((i) => i.contactId))] });
    const use = await windowUse(tx, { ...k, windowMs, expiries: items.length + Math.min(limit, 1000) });
    let room = Math.max(0, limit - use.used);
    // Past a lowered tier, the first customers to leave free no room yet.
    const over = Math.max(0, use.used - limit);
    const taken = new Set<number>();
    const admitted: GateItem[] = [];
    const waiting: GateItem[] = [];
    for (const i of items) {
      if (free.has(i.contactId) || taken.has(i.contactId)) admitted.push(i);
      else if (room > 0) {
        room--;
        taken.add(i.contactId);
        admitted.push(i);
      } else waiting.push(i);
    }
    // Room frees as counted customers leave the window, earliest first (this group's own last).
    const frees = [...use.expiries, ...Array.from({ length: taken.size }, () => use.nowMs + windowMs)].slice(over);
    const last = frees.at(-1) ?? use.nowMs + windowMs;
    await deferClaims(tx, {
      teamId: k.teamId,
      items: waiting.map((w, n) => ({ ...w, atMs: Math.max(frees[n] ?? last, use.nowMs + 1) })),
    });
    return stampCounted(tx, { teamId: k.teamId, windowMs, claims: admitted });
  });
}

/** Meta changed the number's tier (in the webhook's transaction): what waits for room is due again, the gate decides anew. */
export async function tierChanged(tx: DbOrTx, k: { teamId: number; waNumberId: number }): Promise<number> {
  return wakeWaiting(tx, k);
}

export type Wave = { size: number; startsAtMs: number };

/**
 * When `pending` new conversations would go out from `startMs`: a first wave of what is left of
 * the limit, then, from when the first counted customer leaves the window, a wave of up to the
 * whole limit every window. An estimate: sending takes time, replies open service windows (which
 * take no room), and Meta may change the tier meanwhile.
 */
export function planWaves(p: {
  limit: number | null;
  used: number;
  pending: number;
  startMs: number;
  firstFreeMs: number | null;
  windowMs: number;
}): { waves: Wave[]; finishesAtMs: number | null } {
  if (p.pending <= 0) return { waves: [], finishesAtMs: null };
  if (p.limit == null || p.limit <= 0) return { waves: [{ size: p.pending, startsAtMs: p.startMs }], finishesAtMs: p.startMs };
  const waves: Wave[] = [];
  let left = p.pending;
  const first = Math.min(left, Math.max(0, p.limit - p.used));
  if (first > 0) waves.push({ size: first, startsAtMs: p.startMs });
  left -= first;
  const nextStart = Math.max(p.startMs, p.firstFreeMs ?? p.startMs + p.windowMs);
  for (let n = 0; left > 0; n++) {
    const size = Math.min(left, p.limit);
    waves.push({ size, startsAtMs: nextStart + n * p.windowMs });
    left -= size;
  }
  return { waves, finishesAtMs: waves.at(-1)!.startsAtMs };
}

export type NumberBudget = {
  tier: string | null;
  limit: number | null;
  used: number;
  remaining: number | null;
  firstFreeMs: number | null;
  nowMs: number;
};

/** The number's budget now: its tier's limit, the customers counted in the window, what is left, and when room next frees. */
export async function numberBudget(k: { teamId: number; waNumberId: number; tier: string | null }, db?: DbOrTx): Promise<NumberBudget> {
  const limit = tierLimit(k.tier);
  const use = await windowUse(db ?? (await getDb()), { ...k, windowMs: limitWindowMs(), expiries: 1 });
  return {
    tier: k.tier,
    limit,
    used: use.used,
    remaining: limit == null ? null : Math.max(0, limit - use.used),
    firstFreeMs: use.expiries[0] ?? null,
    nowMs: use.nowMs,
  };
}

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

/** A budget and its waves for `pending` new conversations from `startMs`, as the API shows them. */
function shape(b: NumberBudget, pending: number, startMs: number) {
  const windowMs = limitWindowMs();
  const plan = planWaves({ limit: b.limit, used: b.used, pending, startMs, firstFreeMs: b.firstFreeMs, windowMs });
  return {
    tier: b.tier,
    limit: b.limit,
    used: b.used,
    remaining: b.remaining,
    window_hours: windowMs / 3_600_000,
    waves: plan.waves.map((w) => ({ size: w.size, starts_at: iso(w.startsAtMs)! })),
    finishes_at: iso(plan.finishesAtMs),
  };
}

/**
 * The plans of some broadcasts of a team (those still to send: scheduled, sending, paused; null
 * for the others): their number's budget, what is left of each, its waves, and what waits for room.
 */
export async function broadcastPlans(
  db: DbOrTx,
  teamId: number,
  rows: { id: number; waNumberId: number; status: string; scheduledAt: Date | null }[],
): Promise<Map<number, MessagingLimitPlan | null>> {
  const live = rows.filter((r) => r.status === "SCHEDULED" || r.status === "SENDING" || r.status === "PAUSED");
  const tiers = await numberTiers(db, { teamId, ids: [...new Set(live.map((r) => r.waNumberId))] });
  const budgets = new Map<number, NumberBudget>();
  for (const id of tiers.keys()) budgets.set(id, await numberBudget({ teamId, waNumberId: id, tier: tiers.get(id) ?? null }, db));
  const out = new Map<number, MessagingLimitPlan | null>(rows.map((r) => [r.id, null]));
  for (const r of live) {
    const b = budgets.get(r.waNumberId);
    if (!b) continue;
    const left = await broadcastPending(db, { teamId, broadcastId: r.id, windowMs: limitWindowMs() });
    const startMs = Math.max(b.nowMs, r.scheduledAt?.getTime() ?? 0);
    out.set(r.id, { ...shape(b, left.pending, startMs), pending: left.pending, waiting: left.waiting, next_wave_at: iso(left.nextAtMs) });
  }
  return out;
}

/** What a broadcast of `recipients` from this number, starting at `startMs`, would do to its limit (the wizard asks before creating one). */
export async function previewPlan(k: {
  teamId: number;
  waNumberId: number;
  tier: string | null;
  recipients: number;
  startAt: Date | null;
}): Promise<MessagingLimitPreview> {
  const b = await numberBudget(k);
  const startMs = Math.max(b.nowMs, k.startAt?.getTime() ?? 0);
  return { ...shape(b, k.recipients, startMs), recipients: k.recipients };
}
