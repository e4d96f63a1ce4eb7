import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { parkedStatuses, type ParkedReason } from "@/db/schema";
import type { ChannelNumber, StatusUpdate } from "@/lib/channels/types";

/** The SQL of parked statuses (lib/delivery/parked-statuses.ts; the table's comment says why they exist). */
export type ParkedRow = typeof parkedStatuses.$inferSelect;

/** Parks one status in the caller's transaction (the one that decides the webhook's 200). */
export async function parkStatus(
  db: DbOrTx,
  { number, u, reason }: { number: ChannelNumber; u: StatusUpdate; reason: ParkedReason },
): Promise<void> {
  await db.insert(parkedStatuses).values({
    teamId: number.teamId,
    waNumberId: number.id,
    providerMessageId: u.providerMessageId,
    callbackData: u.callbackData ? u.callbackData.toLowerCase() : null,
    status: u.status,
    update: u as unknown as Record<string, unknown>,
    reason,
    providerTimestamp: Number.isSafeInteger(u.timestamp) ? u.timestamp : null,
  });
}

/**
 * Claims up to `limit` due parked statuses with a lease (SKIP LOCKED: every process may run the
 * applier), oldest due first. `attempts` counts the tries.
 */
export async function claimParked(
  db: DbOrTx,
  { limit, leaseMs, teamIds }: { limit: number; leaseMs: number; teamIds?: number[] },
): Promise<ParkedRow[]> {
  const teams = teamIds?.length
    ? sql`AND team_id IN (${sql.join(
        teamIds.map((t) => sql`${t}`),
        sql`, `,
      )})`
    : sql``;
  const res = await db.execute(sql`
    UPDATE parked_statuses p
    SET locked_until = now() + ${leaseMs} * interval '1 millisecond', attempts = p.attempts + 1
    WHERE p.id IN (
      SELECT id FROM parked_statuses
      WHERE next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now()) ${teams}
      ORDER BY next_attempt_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING p.id, p.wa_number_id AS "waNumberId", p.team_id AS "teamId", p.update, p.reason, p.attempts,
      p.received_at AS "receivedAt"`);
  return rowsOf<ParkedRow>(res).map((r) => ({ ...r, id: Number(r.id), receivedAt: new Date(r.receivedAt) }));
}

/** Done with it (applied, or recorded as not applicable), in the transaction that did so. */
export async function deleteParked(db: DbOrTx, id: number): Promise<void> {
  await db.delete(parkedStatuses).where(eq(parkedStatuses.id, id));
}

/** Not yet: tried again after `delayMs`, with why it is still waiting. */
export async function deferParked(
  db: DbOrTx,
  { id, reason, delayMs }: { id: number; reason: ParkedReason; delayMs: number },
): Promise<void> {
  await db
    .update(parkedStatuses)
    .set({ reason, lockedUntil: null, nextAttemptAt: sql`now() + ${Math.round(delayMs)} * interval '1 millisecond'` })
    .where(eq(parkedStatuses.id, id));
}

/**
 * Statuses parked longer than `maxAgeMs` (their message never appeared) move to
 * webhook_dead_letters with their reason, up to `limit` at a time; returns how many moved.
 */
export async function expireParked(db: DbOrTx, { maxAgeMs, limit }: { maxAgeMs: number; limit: number }): Promise<number> {
  const res = await db.execute(sql`
    WITH gone AS (
      DELETE FROM parked_statuses WHERE id IN (
        SELECT id FROM parked_statuses WHERE received_at < now() - ${Math.round(maxAgeMs)} * interval '1 millisecond'
        ORDER BY received_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING *
    ), kept AS (
      INSERT INTO webhook_dead_letters (team_id, wa_number_id, received_at, kind, reason, raw)
      SELECT team_id, wa_number_id, received_at, 'expired',
        'status: no message with provider id ' || left(provider_message_id, 200) || ' appeared in '
          || ${Math.round(maxAgeMs / 86_400_000)} || ' days (last reason: ' || reason || ', ' || attempts || ' tries)',
        coalesce("update" -> 'raw', "update")::text
      FROM gone RETURNING 1
    )
    SELECT count(*)::int AS n FROM kept`);
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}

/** Parked statuses of one team or of all (operators), oldest first, for dead-letters:list. */
export async function listParked(db: DbOrTx, opts: { teamId?: number; limit: number }): Promise<ParkedRow[]> {
  return db
    .select()
    .from(parkedStatuses)
    .where(and(opts.teamId === undefined ? undefined : eq(parkedStatuses.teamId, opts.teamId)))
    .orderBy(asc(parkedStatuses.id))
    .limit(opts.limit);
}
