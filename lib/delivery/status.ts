import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db/client";
import { messageEvents, messages, type MessageStatus } from "@/db/schema";
import type { ChannelNumber, StatusUpdate } from "@/lib/channels/types";
import { resolveRoute } from "@/lib/routing/service";
import { enqueueEvent, statusEventData } from "@/lib/webhooks/events";

const MAP: Record<string, MessageStatus> = { sent: "SENT", delivered: "DELIVERED", read: "READED", failed: "FAILED" };

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
 * one transaction. Unknown wamids (another tool's sends, or ours not yet committed) are retried
 * twice in-process, then dropped.
 */
export async function applyStatusUpdates(number: ChannelNumber, updates: StatusUpdate[], retryUnknownAfterMs = [1000, 5000]) {
  const db = await getDb();
  let applied = 0;
  const unknown: StatusUpdate[] = [];
  for (const u of updates) {
    const result = await db.transaction((tx) => applyOne(tx, number, u));
    if (result === "applied") applied++;
    if (result === "unknown") unknown.push(u);
  }
  // Meta may call back "sent" before the worker has committed the wamid it was just given.
  // A fresh unknown status is looked up again a little later (best effort, in this process).
  const fresh = unknown.filter((u) => Date.now() / 1000 - u.timestamp < 120);
  if (fresh.length && retryUnknownAfterMs.length) {
    const [delay, ...rest] = retryUnknownAfterMs;
    setTimeout(() => {
      applyStatusUpdates(number, fresh, rest).catch((err) => console.error("[status] retry failed", err));
    }, delay).unref?.();
  }
  return applied;
}

async function applyOne(tx: DbOrTx, number: ChannelNumber, u: StatusUpdate): Promise<"applied" | "ignored" | "unknown"> {
  const [current] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.waNumberId, number.id), eq(messages.providerMessageId, u.providerMessageId), eq(messages.teamId, number.teamId)))
    .limit(1);
  if (!current) return "unknown";
  if (current.direction !== "OUTBOUND") return "ignored";
  const next = MAP[u.status];
  const allowed = next ? ALLOWED_FROM[next] : undefined;
  let updated: typeof current | undefined;
  if (next && allowed) {
    [updated] = await tx
      .update(messages)
      .set({
        status: next,
        statusUpdatedAt: sql`now()`,
        lockedUntil: null,
        ...(next === "FAILED" ? { error: u.error ?? { code: null, title: "failed" } } : {}),
      })
      .where(and(eq(messages.id, current.id), inArray(messages.status, allowed)))
      .returning();
  }
  await tx.insert(messageEvents).values({
    teamId: current.teamId,
    messageId: current.id,
    status: next ?? u.status,
    applied: updated ? 1 : 0,
    raw: u.raw as Record<string, unknown>,
  });
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
export async function emitStatusChanges(tx: DbOrTx, updated: { row: typeof messages.$inferSelect; numberDigits: string }[], previous: string) {
  const routes = new Map<string, ReturnType<typeof resolveRoute>>();
  for (const { row, numberDigits } of updated) {
    const key = JSON.stringify([row.teamId, row.responseHandler, row.botId, row.campaignId]);
    let route = routes.get(key);
    if (!route) routes.set(key, (route = resolveRoute(tx, row.teamId, row, "outbound")));
    await enqueueEvent(tx, await route, row.teamId, "message.status", row.id, statusEventData(row, numberDigits, previous));
  }
}
