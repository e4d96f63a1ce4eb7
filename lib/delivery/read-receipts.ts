import { getDb } from "@/db/client";
import { withSecrets } from "@/lib/channels/credentials";
import { adapterFor } from "./channels";
import type { TaskKind } from "./claim-loop";
import { retryOrFail, type RetryPolicy } from "./outcome";
import { claimReadReceipts, receiptWrites, type ReceiptClaim, type ReceiptOutcome } from "./read-receipts-repo";
import { findNumbersByIds } from "./repo";

/** A claimed receipt with its number (undefined: the number is gone). */
type Receipt = ReceiptClaim & { number?: ReturnType<typeof withSecrets> };

/** Receipts one worker sends at once; they are small and rare next to sends. */
export const RECEIPT_BATCH = 32;

/**
 * The read receipt kind of claimed work (queued by POST /conversations/{id}/read,
 * db/schema/read-receipts.ts; claimed by `claimReadReceipts`): one batch at a time, at most every
 * `everyMs`. Each receipt calls its number's adapter (`markRead`, the Cloud API's
 * `{"status":"read","message_id":…}`) and ends done; retried with backoff on the same errors as
 * sends (429, 5xx, timeouts, rate codes); failed on a permanent error or after the last attempt.
 * The outcomes are written by the worker's settle through `receiptWrites`.
 */
export function receiptTask(
  o: RetryPolicy & { leaseMs: number; everyMs: number; teamIds?: number[] },
): TaskKind<Receipt, Receipt, ReceiptOutcome> {
  return {
    name: "receipts",
    concurrency: RECEIPT_BATCH,
    refillAt: RECEIPT_BATCH,
    everyMs: o.everyMs,
    async claim(limit) {
      const db = await getDb();
      const claims = await claimReadReceipts(db, { limit, leaseMs: o.leaseMs, teamIds: o.teamIds });
      // The claim's numbers, read (and their credentials decrypted) once per claim.
      const rows = await findNumbersByIds(db, [...new Set(claims.map((c) => c.waNumberId))]);
      const numbers = new Map(rows.map((n) => [n.id, withSecrets(n)]));
      return claims.map((c) => ({ ...c, number: numbers.get(c.waNumberId) }));
    },
    perform: (r) => sendReadReceipt(r, r.number, o),
    writes: receiptWrites,
  };
}

/** One receipt's send and its outcome. */
export async function sendReadReceipt(
  c: ReceiptClaim,
  number: ReturnType<typeof withSecrets> | undefined,
  policy: RetryPolicy,
): Promise<ReceiptOutcome> {
  if (!number) return { kind: "fail", reason: { code: null, title: "The number no longer exists" } };
  const adapter = adapterFor(number.provider);
  // A channel without read receipts (the sandbox) has nothing to tell.
  if (!adapter.markRead) return { kind: "ok" };
  const res = await adapter.markRead(number, c.providerMessageId);
  if (res.ok) return { kind: "ok" };
  return retryOrFail(c.attempts, policy, { retryable: res.retryable, reason: res.error, retryAfterMs: res.retryAfterMs });
}
