import { withSecrets } from "@/lib/channels/credentials";
import { backoffMs } from "./backoff";
import { adapterFor } from "./channels";
import { claimReadReceipts, markReceiptDone, markReceiptFailed, rescheduleReceipt, type ReceiptClaim } from "./read-receipts-repo";
import { findNumbersByIds } from "./repo";

export type ReceiptOptions = {
  leaseMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  teamIds?: number[];
  killed: () => boolean;
};

/** Receipts one worker sends at once; they are small and rare next to sends. */
const RECEIPT_BATCH = 32;

/**
 * Sends the read receipts queued by POST /conversations/{id}/read (db/schema/read-receipts.ts):
 * claims a batch, calls the number's adapter (`markRead`, the Cloud API's
 * `{"status":"read","message_id":…}`), and settles each one: done; retried with backoff on the
 * same errors as sends (429, 5xx, timeouts, rate codes); failed on a permanent error or after
 * the last attempt. Returns how many were claimed.
 */
export async function runReadReceipts(o: ReceiptOptions): Promise<number> {
  const claims = await claimReadReceipts(RECEIPT_BATCH, o.leaseMs, o.teamIds);
  if (!claims.length) return 0;
  const numbers = new Map((await findNumbersByIds([...new Set(claims.map((c) => c.waNumberId))])).map((n) => [n.id, withSecrets(n)]));
  await Promise.all(
    claims.map(async (c) => {
      try {
        await sendOne(c, numbers.get(c.waNumberId), o);
      } catch (err) {
        console.error(`[worker] read receipt ${c.id}`, err);
      }
    }),
  );
  return claims.length;
}

async function sendOne(c: ReceiptClaim, number: ReturnType<typeof withSecrets> | undefined, o: ReceiptOptions) {
  if (!number) return markReceiptFailed(c, { code: null, title: "The number no longer exists" });
  const adapter = adapterFor(number.provider);
  // A channel without read receipts (the sandbox) has nothing to tell.
  if (!adapter.markRead) return markReceiptDone(c);
  const res = await adapter.markRead(number, c.providerMessageId);
  if (o.killed()) return;
  if (res.ok) return markReceiptDone(c);
  if (res.retryable && c.attempts < o.maxAttempts) {
    return rescheduleReceipt(c, backoffMs(c.attempts, o.backoffBaseMs, o.backoffCapMs, res.retryAfterMs), res.error);
  }
  return markReceiptFailed(c, res.error);
}
