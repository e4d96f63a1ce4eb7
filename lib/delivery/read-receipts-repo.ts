import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { readReceipts, type ProviderError } from "@/db/schema";

export type ReceiptClaim = { id: number; teamId: number; waNumberId: number; providerMessageId: string; attempts: number };

/**
 * Claims due read receipts with a lease, like messages (repo.ts claimMessages): `attempts` is
 * bumped by the claim and fences every later write, so a worker whose lease ran out cannot settle
 * a receipt another worker took.
 */
export async function claimReadReceipts(limit: number, leaseMs: number, teamIds?: number[]): Promise<ReceiptClaim[]> {
  const db = await getDb();
  const teams = teamIds?.length
    ? sql`AND team_id IN (${sql.join(
        teamIds.map((t) => sql`${t}`),
        sql`, `,
      )})`
    : sql``;
  const res = await db.execute(sql`
    UPDATE read_receipts r
    SET locked_until = now() + ${leaseMs} * interval '1 millisecond', attempts = r.attempts + 1
    WHERE r.id IN (
      SELECT id FROM read_receipts
      WHERE status = 'PENDING' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now()) ${teams}
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING r.id, r.team_id, r.wa_number_id, r.provider_message_id, r.attempts`);
  return rowsOf<{ id: number; team_id: number; wa_number_id: number; provider_message_id: string; attempts: number }>(res).map((r) => ({
    id: Number(r.id),
    teamId: Number(r.team_id),
    waNumberId: Number(r.wa_number_id),
    providerMessageId: r.provider_message_id,
    attempts: Number(r.attempts),
  }));
}

const owned = (c: ReceiptClaim) =>
  and(
    eq(readReceipts.id, c.id),
    eq(readReceipts.teamId, c.teamId),
    eq(readReceipts.status, "PENDING"),
    eq(readReceipts.attempts, c.attempts),
  );

export async function markReceiptDone(c: ReceiptClaim) {
  const db = await getDb();
  await db
    .update(readReceipts)
    .set({ status: "DONE", lockedUntil: null, error: null, doneAt: sql`now()` })
    .where(owned(c));
}

export async function rescheduleReceipt(c: ReceiptClaim, delayMs: number, error: ProviderError) {
  const db = await getDb();
  await db
    .update(readReceipts)
    .set({ nextAttemptAt: sql`now() + ${Math.round(delayMs)} * interval '1 millisecond'`, lockedUntil: null, error })
    .where(owned(c));
}

export async function markReceiptFailed(c: ReceiptClaim, error: ProviderError) {
  const db = await getDb();
  await db.update(readReceipts).set({ status: "FAILED", lockedUntil: null, error }).where(owned(c));
}
