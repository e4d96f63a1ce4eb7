import "server-only";
import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";

/** Data layer of the team's webhook endpoints (lib/webhook-endpoints/service.ts). Every query names the team. */
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type Key = { teamId: number; id: number };

const mine = ({ teamId, id }: Key) => and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id));

export async function listEndpointRows(db: DbOrTx, teamId: number): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.teamId, teamId)).orderBy(desc(webhookEndpoints.id));
}

export async function findEndpointRow(db: DbOrTx, key: Key): Promise<EndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(mine(key)).limit(1);
  return row;
}

/** The same, locked for the caller's change (two rolls at once must not both keep a previous secret). */
export async function lockEndpointRow(db: DbOrTx, key: Key): Promise<EndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(mine(key)).limit(1).for("update");
  return row;
}

/** What the worker needs of an endpoint at send time (lib/outgoing-webhooks/endpoint-signing.ts). */
export async function findEndpointForDelivery(db: DbOrTx, key: Key) {
  const [row] = await db
    .select({
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      secretEncrypted: webhookEndpoints.secretEncrypted,
      previousSecretEncrypted: webhookEndpoints.previousSecretEncrypted,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookEndpoints)
    .where(mine(key))
    .limit(1);
  return row;
}

export async function insertEndpointRow(db: DbOrTx, values: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row;
}

export async function updateEndpointRow(
  db: DbOrTx,
  { key, set }: { key: Key; set: Partial<typeof webhookEndpoints.$inferInsert> },
): Promise<EndpointRow> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: sql`now()` })
    .where(mine(key))
    .returning();
  return row;
}

/** Deletes the endpoint and its deliveries (no foreign key can name them: target_id is polymorphic). */
export async function deleteEndpointRow(db: DbOrTx, key: Key): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.teamId, key.teamId), eq(webhookDeliveries.targetKind, "endpoint"), eq(webhookDeliveries.targetId, key.id)),
    );
  await db.delete(webhookEndpoints).where(mine(key));
}

const ofEndpoint = (key: Key) =>
  and(eq(webhookDeliveries.teamId, key.teamId), eq(webhookDeliveries.targetKind, "endpoint"), eq(webhookDeliveries.targetId, key.id));

export async function listEndpointDeliveryRows(
  db: DbOrTx,
  { key, status, limit, offset }: { key: Key; status?: "pending" | "delivered" | "failed"; limit: number; offset: number },
) {
  const where = and(ofEndpoint(key), status ? eq(webhookDeliveries.status, status) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total };
}

export async function findDeliveryRow(db: DbOrTx, { teamId, id }: Key): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.teamId, teamId), eq(webhookDeliveries.id, id)))
    .limit(1);
  return row;
}

/**
 * Due again now with a fresh set of attempts. A pending delivery keeps its attempts (a worker may
 * hold its claim, fenced by them: lib/delivery/claim-due-repo.ts) and is only brought forward.
 */
const resent = {
  status: sql`'pending'`,
  attempts: sql`CASE WHEN ${webhookDeliveries.status} = 'pending' THEN ${webhookDeliveries.attempts} ELSE 0 END`,
  nextAttemptAt: sql`now()`,
  deliveredAt: null,
};

export async function resendDeliveryRow(db: DbOrTx, { teamId, id }: Key): Promise<DeliveryRow> {
  const [row] = await db
    .update(webhookDeliveries)
    .set(resent)
    .where(and(eq(webhookDeliveries.teamId, teamId), eq(webhookDeliveries.id, id)))
    .returning();
  return row;
}

/** Every failed delivery of the endpoint made since `since`, due again; how many. */
export async function resendFailedRows(db: DbOrTx, { key, since }: { key: Key; since: Date }): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set(resent)
    .where(and(ofEndpoint(key), eq(webhookDeliveries.status, "failed"), gte(webhookDeliveries.createdAt, since)))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
