import "server-only";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { bots, campaigns, webhookDeliveries } from "@/db/schema";
import { markEndpointsAnswered, markEndpointsFailing } from "./endpoint-health";
import { claimDue } from "@/lib/delivery/claim-due-repo";
import type { Outcome } from "@/lib/delivery/outcome";
import type { Writes } from "@/lib/delivery/settle";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryClaim = { id: number; attempts: number };
/** A delivery's outcome: delivered with the answer's code, or retried / failed with the last answer kept. */
export type DeliveryOutcome = Outcome<{ code: number; ms?: number }, { code: number | null; error: string; ms?: number | null }>;

/** Same lease + fencing scheme as messages and read receipts (lib/delivery/claim-due-repo.ts). */
export async function claimDeliveries(
  db: DbOrTx,
  { limit, leaseMs, teamIds }: { limit: number; leaseMs: number; teamIds?: number[] },
): Promise<DeliveryClaim[]> {
  const rows = await claimDue<{ id: number; attempts: number }>(db, {
    table: webhookDeliveries,
    pending: "pending",
    limit,
    leaseMs,
    teamIds,
    returning: sql`j.id, j.attempts`,
  });
  return rows.map((r) => ({ id: Number(r.id), attempts: Number(r.attempts) }));
}

export async function loadDeliveries(db: DbOrTx, ids: number[]): Promise<DeliveryRow[]> {
  if (!ids.length) return [];
  return db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
}

/** Queues one delivery, inside the caller's transaction (lib/outgoing-webhooks/queue.ts queueWebhookDelivery). */
export async function insertDelivery(db: DbOrTx, values: typeof webhookDeliveries.$inferInsert): Promise<void> {
  await db.insert(webhookDeliveries).values(values);
}

const owned = (c: DeliveryClaim) =>
  and(eq(webhookDeliveries.id, c.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.attempts, c.attempts));

/** One delivery's new state, fenced by its claim; true when it moved. */
async function finishDelivery(
  db: DbOrTx,
  {
    claim: c,
    outcome,
  }: {
    claim: DeliveryClaim;
    outcome: {
      status: "delivered" | "failed" | "pending";
      code: number | null;
      error: string | null;
      ms: number | null;
      retryInMs?: number;
    };
  },
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: outcome.status,
      lastStatusCode: outcome.code,
      lastError: outcome.error,
      lastAttemptAt: sql`now()`,
      lastDurationMs: outcome.ms,
      lockedUntil: null,
      deliveredAt: outcome.status === "delivered" ? sql`now()` : null,
      ...(outcome.status === "pending"
        ? { nextAttemptAt: sql`now() + ${Math.round(outcome.retryInMs ?? 0)} * interval '1 millisecond'` }
        : {}),
    })
    .where(owned(c))
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** Each outcome of a delivery as its row records it (written by the worker's settle, lib/delivery/settle.ts). */
export const deliveryWrites: Writes<DeliveryClaim, DeliveryOutcome> = {
  ok: async (db, xs) => {
    const moved = await finishEach(db, { items: xs, state: (o) => ({ status: "delivered", code: o.code, error: null, ms: o.ms ?? null }) });
    await markEndpointsAnswered(db, moved);
    return moved;
  },
  retry: async (db, xs) => {
    const moved = await finishEach(db, {
      items: xs,
      state: (o) => ({ status: "pending", code: o.reason.code, error: o.reason.error, ms: o.reason.ms ?? null, retryInMs: o.afterMs }),
    });
    await markEndpointsFailing(db, moved);
    return moved;
  },
  fail: async (db, xs) => {
    const moved = await finishEach(db, {
      items: xs,
      state: (o) => ({ status: "failed", code: o.reason.code, error: o.reason.error, ms: o.reason.ms ?? null }),
    });
    await markEndpointsFailing(db, moved);
    return moved;
  },
};

async function finishEach<O>(
  db: DbOrTx,
  { items: xs, state }: { items: { item: DeliveryClaim; outcome: O }[]; state: (o: O) => Parameters<typeof finishDelivery>[1]["outcome"] },
): Promise<number[]> {
  const moved: number[] = [];
  for (const { item, outcome } of xs) if (await finishDelivery(db, { claim: item, outcome: state(outcome) })) moved.push(item.id);
  return moved;
}

export async function listDeliveryRows(db: DbOrTx, { teamId, limit, offset }: { teamId: number; limit: number; offset: number }) {
  const where = eq(webhookDeliveries.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total };
}

/** A bot's or campaign's current signing secret (read at send time, so a rotated secret applies to retries). */
export async function targetSecret(db: DbOrTx, { kind, id, teamId }: { kind: string; id: number; teamId: number }): Promise<string | null> {
  const table = kind === "campaign" ? campaigns : bots;
  const [row] = await db
    .select({ secret: table.webhookSecret })
    .from(table)
    .where(and(eq(table.id, id), eq(table.teamId, teamId)))
    .limit(1);
  return row?.secret ?? null;
}
