import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { readReceipts, type ProviderError } from "@/db/schema";
import { claimDue } from "./claim-due";

export type ReceiptClaim = { id: number; teamId: number; waNumberId: number; providerMessageId: string; attempts: number };

/**
 * Claims due read receipts with a lease and a fence (claim-due.ts: a worker whose lease ran out
 * cannot settle a receipt another worker took).
 */
export async function claimReadReceipts(limit: number, leaseMs: number, teamIds?: number[]): Promise<ReceiptClaim[]> {
  const rows = await claimDue<{ id: number; team_id: number; wa_number_id: number; provider_message_id: string; attempts: number }>({
    table: readReceipts,
    pending: "PENDING",
    limit,
    leaseMs,
    teamIds,
    returning: sql`j.id, j.team_id, j.wa_number_id, j.provider_message_id, j.attempts`,
  });
  return rows.map((r) => ({
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
