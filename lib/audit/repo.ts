import "server-only";
import { and, count, desc, eq, gte, ilike, lt, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { auditEvents, apiTokens } from "@/db/schema";
import type { AuditChanges } from "./changes";

export type AuditEventRow = typeof auditEvents.$inferSelect;

export type NewAuditEvent = {
  teamId: number;
  actorKind: "agent" | "token" | "system";
  actorId: number | null;
  /** The agent's name or the system's label; for a token, its name is read in the insert itself. */
  actorLabel: string;
  ip: string | null;
  action: string;
  targetKind: string | null;
  targetId: string | null;
  targetLabel: string | null;
  changes: AuditChanges | null;
};

/** One row of the trail. A token's actor label is its current name, read by the same statement. */
export async function insertAuditEvent(db: DbOrTx, e: NewAuditEvent) {
  const label =
    e.actorKind === "token" && e.actorId !== null
      ? sql`coalesce((select ${apiTokens.name} from ${apiTokens} where ${apiTokens.id} = ${e.actorId} and ${apiTokens.teamId} = ${e.teamId}), ${e.actorLabel})`
      : sql`${e.actorLabel}`;
  await db.insert(auditEvents).values({ ...e, actorLabel: label });
}

export type AuditFilter = {
  teamId: number;
  action?: string;
  /** A part of the actor's name, without case. */
  actor?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
};

function whereOf(f: AuditFilter): SQL | undefined {
  const escape = (s: string) => s.replace(/[\\%_]/g, "\\$&");
  return and(
    eq(auditEvents.teamId, f.teamId),
    f.action ? eq(auditEvents.action, f.action) : undefined,
    f.actor ? ilike(auditEvents.actorLabel, `%${escape(f.actor)}%`) : undefined,
    f.from ? gte(auditEvents.at, f.from) : undefined,
    f.to ? lt(auditEvents.at, f.to) : undefined,
  );
}

/** A page of the team's trail, newest first. */
export async function listAuditEventRows(db: DbOrTx, { filter, limit, offset }: { filter: AuditFilter; limit: number; offset: number }) {
  const where = whereOf(filter);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.at), desc(auditEvents.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(auditEvents).where(where),
  ]);
  return { rows, total: Number(total) };
}

/** Rows before `beforeId` (newest first, ids descending), for an export read in batches. */
export async function auditEventBatch(
  db: DbOrTx,
  { filter, beforeId, limit }: { filter: AuditFilter; beforeId: number | null; limit: number },
) {
  return db
    .select()
    .from(auditEvents)
    .where(and(whereOf(filter), beforeId === null ? undefined : lt(auditEvents.id, beforeId)))
    .orderBy(desc(auditEvents.id))
    .limit(limit);
}

/**
 * Deletes rows older than `before`, every team's: the retention. The table's trigger refuses any
 * other DELETE, so the caller's transaction (`db`) is marked as the retention's first
 * (`app.audit_purge`, local to that transaction).
 */
export async function purgeAuditEvents(db: DbOrTx, { before }: { before: Date }): Promise<number> {
  await db.execute(sql`select set_config('app.audit_purge', 'on', true)`);
  const rows = await db.delete(auditEvents).where(lt(auditEvents.at, before)).returning({ id: auditEvents.id });
  return rows.length;
}
