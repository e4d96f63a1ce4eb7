import { createHmac } from "node:crypto";
import { Agent, request } from "undici";
import { getDb } from "@/db/client";
import { loadDeliveries, targetSecret, type DeliveryClaim, type DeliveryOutcome } from "./deliveries-repo";
import { retryOrFail, skip, type RetryPolicy } from "@/lib/delivery/outcome";
import { addressRefusalIn, guardedLookup, webhookUrlRefusal, WebhookAddressRefused } from "./url-policy";

/** Every webhook connection resolves its host through the address check (url-policy.ts). */
const webhookAgent = new Agent({ connect: { lookup: guardedLookup } });

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export type DeliverOptions = RetryPolicy & { timeoutMs: number };

/**
 * POSTs one queued webhook delivery to its bot/campaign URL as JSON, signed with the target's secret
 * (`X-Signature-256: sha256=<hex hmac of the exact body>`). Any 2xx is delivered; anything
 * else is retried with backoff until `maxAttempts`, then `failed` with the last answer kept.
 * A URL whose host is or resolves to an internal address is not called: the delivery fails at once
 * with the reason (url-policy.ts). Returns the outcome; the worker's settle writes it
 * (deliveries-repo.ts deliveryWrites).
 */
export async function deliverOne(c: DeliveryClaim, opts: DeliverOptions): Promise<DeliveryOutcome> {
  const db = await getDb();
  const [row] = await loadDeliveries(db, [c.id]);
  if (!row || row.status !== "pending") return skip;
  const body = JSON.stringify({ id: row.id, ...(row.payload as Record<string, unknown>) });
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "wa-messaging-service/1",
    "x-webhook-event": row.event,
    "x-webhook-delivery": String(row.id),
  };
  // Read at send time, so a rotated secret applies to retries.
  const secret = await targetSecret(db, row.targetKind, row.targetId, row.teamId);
  if (secret) headers["x-signature-256"] = signBody(secret, body);
  let code: number | null = null;
  let error: string;
  try {
    const refusal = webhookUrlRefusal(new URL(row.url), { atDelivery: true });
    if (refusal) throw new WebhookAddressRefused(refusal);
    // undici's request follows no redirects: a 3xx is an answer like any other non-2xx.
    const res = await request(row.url, {
      method: "POST",
      headers,
      body,
      dispatcher: webhookAgent,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    code = res.statusCode;
    await res.body.dump().catch(() => {});
    if (code >= 200 && code < 300) return { kind: "ok", code };
    error = `HTTP ${code}`;
  } catch (err) {
    const refused = addressRefusalIn(err);
    if (refused) return { kind: "fail", reason: { code: null, error: refused.message } };
    error = (err as Error).name === "TimeoutError" ? "Timeout" : `Network error: ${(err as Error).message}`;
  }
  // Any other answer, a timeout or a network error: retried with backoff until the last attempt.
  return retryOrFail(c.attempts, opts, { retryable: true, reason: { code, error } });
}
