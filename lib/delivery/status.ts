import { getDb, type DbOrTx } from "@/db/client";
import type { messages, MessageStatus } from "@/db/schema";
import type { ChannelNumber, StatusUpdate } from "@/lib/channels/types";
import { optOutOnProviderError } from "@/lib/contacts/opt-out";
import { resolveRoute } from "@/lib/routing/service";
import { enqueueEvent, statusEventData } from "@/lib/webhooks/events";
import { adoptProviderId, findByProviderId, findUnconfirmedSend, moveStatus, recordStatusEvent } from "./status-repo";

const MAP: Record<string, MessageStatus> = { sent: "SENT", delivered: "DELIVERED", read: "READED", failed: "FAILED" };
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A status older than this is no longer looked up again in-process (nor held back for a live claim). */
const FRESH_S = 120;

/**
 * From which statuses each one may be reached (DESIGN §6: SENDED < SENT < DELIVERED < READED,
 * FAILED from any point before it was read). Anything else is "backwards" and only recorded.
 */
const ALLOWED_FROM: Record<string, MessageStatus[]> = {
  SENT: ["SENDED"],
  DELIVERED: ["SENDED", "SENT"],
  READED: ["SENDED", "SENT", "DELIVERED"],
  FAILED: ["QUEUED", "SENDED", "SENT", "DELIVERED"],
};

/**
 * The one status path: Cloud API webhooks and the sandbox walk both land here. Each update is
 * a guarded UPDATE (so concurrent or reordered callbacks can never move a message backwards),
 * its event row, and — when applied — a `message.status` event for the routed target, all in
 * one transaction.
 *
 * A status whose wamid we do not know yet but whose callback data is one of our update_ids
 * belongs to a send whose answer was never committed (a crash between Meta's accept and our
 * commit, or a timeout after the send reached Meta): its wamid is adopted (QUEUED → SENDED),
 * so the send is not repeated when its lease expires (the claim waits DELIVERY_UNCERTAIN_GRACE_S
 * for exactly this). While a worker's claim still holds it, the first look leaves it to that
 * worker (its commit usually lands within the second); the in-process retries adopt it.
 * Statuses of neither kind (another tool's sends) are retried twice in-process, then dropped.
 */
export async function applyStatusUpdates(
  number: ChannelNumber,
  updates: StatusUpdate[],
  retryUnknownAfterMs = [1000, 5000],
  retry = false,
) {
  const db = await getDb();
  let applied = 0;
  const unknown: StatusUpdate[] = [];
  const fresh = (u: StatusUpdate) => Date.now() / 1000 - u.timestamp < FRESH_S;
  for (const u of updates) {
    const result = await db.transaction((tx) => applyOne(tx, number, u, retry || !fresh(u) || !retryUnknownAfterMs.length));
    if (result === "applied") applied++;
    if (result === "unknown") unknown.push(u);
  }
  // Meta may call back "sent" before the worker has committed the wamid it was just given.
  // A fresh unknown status is looked up again a little later (best effort, in this process).
  const again = unknown.filter(fresh);
  if (again.length && retryUnknownAfterMs.length) {
    const [delay, ...rest] = retryUnknownAfterMs;
    setTimeout(() => {
      applyStatusUpdates(number, again, rest, true).catch((err) => console.error("[status] retry failed", err));
    }, delay).unref?.();
  }
  return applied;
}

async function applyOne(
  tx: DbOrTx,
  number: ChannelNumber,
  u: StatusUpdate,
  adoptLeased: boolean,
): Promise<"applied" | "ignored" | "unknown"> {
  let current = await findByProviderId(tx, number, u.providerMessageId);
  if (!current && u.callbackData && UUID_RE.test(u.callbackData)) {
    const unconfirmed = await findUnconfirmedSend(tx, number, u.callbackData.toLowerCase(), adoptLeased);
    const adopted = unconfirmed && (await adoptProviderId(tx, unconfirmed.id, u.providerMessageId));
    if (adopted) {
      await emitStatusChange(tx, adopted, "QUEUED", number.number);
      current = adopted;
    }
  }
  if (!current) return "unknown";
  if (current.direction !== "OUTBOUND") return "ignored";
  const next = MAP[u.status];
  const allowed = next ? ALLOWED_FROM[next] : undefined;
  const updated =
    next && allowed
      ? await moveStatus(tx, current.id, next, allowed, next === "FAILED" ? (u.error ?? { code: null, title: "failed" }) : undefined)
      : undefined;
  await recordStatusEvent(tx, { teamId: current.teamId, messageId: current.id, status: next ?? u.status, applied: !!updated, raw: u.raw });
  // Meta usually reports 131050 ("stopped marketing messages") in a failed status, not on the send.
  if (updated?.status === "FAILED") await optOutOnProviderError(tx, updated.teamId, updated.contactId, updated.error);
  if (updated) {
    const route = await resolveRoute(tx, current.teamId, current, "outbound");
    await enqueueEvent(tx, route, current.teamId, "message.status", current.id, statusEventData(updated, number.number, current.status));
  }
  return updated ? "applied" : "ignored";
}

/** A status change made by the worker itself (SENDED, FAILED) reaches integrators like webhook ones. */
export async function emitStatusChange(tx: DbOrTx, updated: typeof messages.$inferSelect, previous: string, numberDigits: string) {
  const route = await resolveRoute(tx, updated.teamId, updated, "outbound");
  await enqueueEvent(tx, route, updated.teamId, "message.status", updated.id, statusEventData(updated, numberDigits, previous));
}

/**
 * emitStatusChange for many rows in one transaction: rows routed alike (same team, handler, bot
 * and campaign) share one route lookup.
 */
export async function emitStatusChanges(
  tx: DbOrTx,
  updated: { row: typeof messages.$inferSelect; numberDigits: string }[],
  previous: string,
) {
  const routes = new Map<string, ReturnType<typeof resolveRoute>>();
  for (const { row, numberDigits } of updated) {
    const key = JSON.stringify([row.teamId, row.responseHandler, row.botId, row.campaignId]);
    let route = routes.get(key);
    if (!route) routes.set(key, (route = resolveRoute(tx, row.teamId, row, "outbound")));
    await enqueueEvent(tx, await route, row.teamId, "message.status", row.id, statusEventData(row, numberDigits, previous));
  }
}
