import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messageEvents, messages, type MessageStatus, type ProviderError } from "@/db/schema";
import type { ChannelNumber } from "@/lib/channels/types";

/** The SQL of the status path (status.ts): every query filters by the number and its team. */
export type MessageRow = typeof messages.$inferSelect;

export async function findByProviderId(tx: DbOrTx, number: ChannelNumber, providerMessageId: string): Promise<MessageRow | undefined> {
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.waNumberId, number.id), eq(messages.providerMessageId, providerMessageId), eq(messages.teamId, number.teamId)))
    .limit(1);
  return row;
}

/**
 * A queued send of this number with no provider id yet, found by its update_id (the callback
 * data the send carried), and whether a worker's lease on it still holds (by the database's clock).
 */
export async function findUnconfirmedSend(
  tx: DbOrTx,
  number: ChannelNumber,
  updateId: string,
): Promise<{ message: MessageRow; leased: boolean } | undefined> {
  const [row] = await tx
    .select({ message: messages, leased: sql<boolean>`coalesce(${messages.lockedUntil} > now(), false)` })
    .from(messages)
    .where(
      and(
        eq(messages.updateId, updateId),
        eq(messages.waNumberId, number.id),
        eq(messages.teamId, number.teamId),
        eq(messages.direction, "OUTBOUND"),
        eq(messages.status, "QUEUED"),
        isNull(messages.providerMessageId),
      ),
    )
    .limit(1);
  return row;
}

/**
 * QUEUED → SENDED with the provider id a status webhook reported for it: the send reached the
 * provider but its answer was never committed (a crash, a timeout). Recorded as a SENDED event
 * marked `adopted`. Any worker still holding a claim on it is fenced out by the status change.
 */
export async function adoptProviderId(tx: DbOrTx, id: number, providerMessageId: string): Promise<MessageRow | undefined> {
  const [row] = await tx
    .update(messages)
    .set({ status: "SENDED", providerMessageId, lockedUntil: null, error: null, statusUpdatedAt: sql`now()` })
    .where(and(eq(messages.id, id), eq(messages.status, "QUEUED"), isNull(messages.providerMessageId)))
    .returning();
  if (row) {
    await tx.insert(messageEvents).values({
      teamId: row.teamId,
      messageId: row.id,
      status: "SENDED",
      raw: { provider_message_id: providerMessageId, adopted: "status webhook" },
    });
  }
  return row;
}

/** The guarded move: only from one of `from`, so reordered callbacks never move a message backwards. */
export async function moveStatus(tx: DbOrTx, id: number, next: MessageStatus, from: MessageStatus[], error?: ProviderError) {
  const [row] = await tx
    .update(messages)
    .set({ status: next, statusUpdatedAt: sql`now()`, lockedUntil: null, ...(error ? { error } : {}) })
    .where(and(eq(messages.id, id), inArray(messages.status, from)))
    .returning();
  return row;
}

export async function recordStatusEvent(
  tx: DbOrTx,
  e: { teamId: number; messageId: number; status: string; applied: boolean; raw: unknown },
) {
  await tx.insert(messageEvents).values({
    teamId: e.teamId,
    messageId: e.messageId,
    status: e.status,
    applied: e.applied ? 1 : 0,
    raw: e.raw as Record<string, unknown>,
  });
}
