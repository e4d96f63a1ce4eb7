import "server-only";
import { and, eq, or, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import { readReceipts, type ProviderError } from "@/db/schema";
import { claimDue } from "./claim-due-repo";
import type { Outcome } from "./outcome";
import type { Writes } from "./settle";

export type ReceiptClaim = { id: number; teamId: number; waNumberId: number; providerMessageId: string; attempts: number };
export type ReceiptOutcome = Outcome<object, ProviderError>;

/**
 * Claims due read receipts with a lease and a fence (claim-due-repo.ts: a worker whose lease ran out
 * cannot settle a receipt another worker took).
 */
export async function claimReadReceipts(
  db: DbOrTx,
  { limit, leaseMs, teamIds }: { limit: number; leaseMs: number; teamIds?: number[] },
): Promise<ReceiptClaim[]> {
  const rows = await claimDue<{ id: number; team_id: number; wa_number_id: number; provider_message_id: string; attempts: number }>(db, {
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

/**
 * Each outcome of a read receipt as its row records it (written by the worker's settle,
 * settle.ts): DONE, back to PENDING after a delay with the error kept, or FAILED. One statement
 * per outcome for a whole group, each row fenced by its own claim.
 */
export const receiptWrites: Writes<ReceiptClaim, ReceiptOutcome> = {
  ok: (db, xs) => finish(db, { claims: xs.map((x) => x.item), set: { status: "DONE", error: null, doneAt: sql`now()` } }),
  async retry(db, xs) {
    // Each with its own delay and error: one statement per receipt (they are few).
    const moved: number[] = [];
    for (const { item, outcome } of xs) {
      const ids = await finish(db, {
        claims: [item],
        set: {
          nextAttemptAt: sql`now() + ${Math.round(outcome.afterMs)} * interval '1 millisecond'`,
          error: outcome.reason,
        },
      });
      moved.push(...ids);
    }
    return moved;
  },
  async fail(db, xs) {
    const moved: number[] = [];
    for (const { item, outcome } of xs)
      moved.push(...(await finish(db, { claims: [item], set: { status: "FAILED", error: outcome.reason } })));
    return moved;
  },
};

async function finish(
  db: DbOrTx,
  { claims, set }: { claims: ReceiptClaim[]; set: PgUpdateSetSource<typeof readReceipts> },
): Promise<number[]> {
  if (!claims.length) return [];
  const rows = await db
    .update(readReceipts)
    .set({ ...set, lockedUntil: null })
    .where(or(...claims.map(owned)))
    .returning({ id: readReceipts.id });
  return rows.map((r) => r.id);
}
