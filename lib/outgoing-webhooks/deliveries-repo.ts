import "server-only";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db/client";
import { bots, campaigns, webhookDeliveries } from "@/db/schema";
import { claimDue } from "@/lib/delivery/claim-due";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryClaim = { id: number; attempts: number };

/** Same lease + fencing scheme as messages and read receipts (lib/delivery/claim-due.ts). */
export async function claimDeliveries(limit: number, leaseMs: number, teamIds?: number[]): Promise<DeliveryClaim[]> {
  const rows = await claimDue<{ id: number; attempts: number }>({
    table: webhookDeliveries,
    pending: "pending",
    limit,
    leaseMs,
    teamIds,
    returning: sql`j.id, j.attempts`,
  });
  return rows.map((r) => ({ id: Number(r.id), attempts: Number(r.attempts) }));
}

export async function loadDeliveries(ids: number[]): Promise<DeliveryRow[]> {
  if (!ids.length) return [];
  const db = await getDb();
  return db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
}

/** Queues one delivery, inside the caller's transaction (lib/outgoing-webhooks/queue.ts queueWebhookDelivery). */
export async function insertDelivery(tx: DbOrTx, values: typeof webhookDeliveries.$inferInsert): Promise<void> {
  await tx.insert(webhookDeliveries).values(values);
}

const owned = (c: DeliveryClaim) =>
  and(eq(webhookDeliveries.id, c.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.attempts, c.attempts));

export async function finishDelivery(
  c: DeliveryClaim,
  outcome: { status: "delivered" | "failed" | "pending"; code: number | null; error: string | null; retryInMs?: number },
) {
  const db = await getDb();
  await db
    .update(webhookDeliveries)
    .set({
      status: outcome.status,
      lastStatusCode: outcome.code,
      lastError: outcome.error,
      lockedUntil: null,
      deliveredAt: outcome.status === "delivered" ? sql`now()` : null,
      ...(outcome.status === "pending"
        ? { nextAttemptAt: sql`now() + ${Math.round(outcome.retryInMs ?? 0)} * interval '1 millisecond'` }
        : {}),
    })
    .where(owned(c));
}

export async function listDeliveryRows(teamId: number, limit: number, offset: number) {
  const db = await getDb();
  const where = eq(webhookDeliveries.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total };
}

/** The target's current signing secret (read at send time, so a rotated secret applies to retries). */
export async function targetSecret(kind: string, id: number, teamId: number): Promise<string | null> {
  const db = await getDb();
  const table = kind === "campaign" ? campaigns : bots;
  const [row] = await db
    .select({ secret: table.webhookSecret })
    .from(table)
    .where(and(eq(table.id, id), eq(table.teamId, teamId)))
    .limit(1);
  return row?.secret ?? null;
}
