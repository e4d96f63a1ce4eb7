import { withSecrets } from "@/lib/channels/credentials";
import { backoffMs } from "./backoff";
import { adapterFor } from "./channels";
import { markReceiptDone, markReceiptFailed, rescheduleReceipt, type ReceiptClaim } from "./read-receipts-repo";
import { findNumbersByIds } from "./repo";

export type ReceiptOptions = {
  maxAttempts: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  killed: () => boolean;
};

/** Receipts one worker sends at once; they are small and rare next to sends. */
export const RECEIPT_BATCH = 32;

/**
 * Sends claimed read receipts (queued by POST /conversations/{id}/read, db/schema/read-receipts.ts;
 * claimed by `claimReadReceipts`): calls the number's adapter (`markRead`, the Cloud API's
 * `{"status":"read","message_id":…}`), and settles each one: done; retried with backoff on the
 * same errors as sends (429, 5xx, timeouts, rate codes); failed on a permanent error or after
 * the last attempt.
 */
export async function sendReadReceipts(claims: ReceiptClaim[], o: ReceiptOptions, done: (id: number) => void = () => {}): Promise<void> {
  if (!claims.length) return;
  const numbers = new Map((await findNumbersByIds([...new Set(claims.map((c) => c.waNumberId))])).map((n) => [n.id, withSecrets(n)]));
  await Promise.all(
    claims.map(async (c) => {
      try {
        await sendOne(c, numbers.get(c.waNumberId), o);
      } catch (err) {
        console.error(`[worker] read receipt ${c.id}`, err);
      } finally {
        done(c.id);
      }
    }),
  );
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
