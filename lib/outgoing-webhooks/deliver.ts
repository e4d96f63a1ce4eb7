import { createHmac } from "node:crypto";
import { Agent, request } from "undici";
import { getDb } from "@/db/client";
import { loadDeliveries, targetSecret, type DeliveryClaim, type DeliveryOutcome, type DeliveryRow } from "./deliveries-repo";
import { endpointSigning } from "./endpoint-signing";
import { retryOrFail, skip, type RetryPolicy } from "@/lib/delivery/outcome";
import { addressRefusalIn, guardedLookup, webhookUrlRefusal, WebhookAddressRefused } from "./url-policy";

/** Every webhook connection resolves its host through the address check (url-policy.ts). */
const webhookAgent = new Agent({ connect: { lookup: guardedLookup } });

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * Where a delivery goes and what signs it, read at send time: a rotated secret or a new URL applies
 * to retries. An endpoint's delivery is signed with its secret and, while a roll's overlap lasts,
 * with the previous one too (endpoint-signing.ts); null when the endpoint is gone or disabled.
 */
async function targetOf(db: Awaited<ReturnType<typeof getDb>>, row: DeliveryRow): Promise<{ url: string; secrets: string[] } | null> {
  if (row.targetKind === "endpoint") return endpointSigning(db, { id: row.targetId, teamId: row.teamId });
  const secret = await targetSecret(db, { kind: row.targetKind, id: row.targetId, teamId: row.teamId });
  return { url: row.url, secrets: secret ? [secret] : [] };
}

export type DeliverOptions = RetryPolicy & { timeoutMs: number };

/**
 * POSTs one queued webhook delivery to its bot/campaign/endpoint URL as JSON, signed with the target's secret
 * (`X-Signature-256: sha256=<hex hmac of the exact body>`; during an endpoint's secret roll,
 * `sha256=<new>,sha256=<previous>`). Any 2xx is delivered; anything
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
  const target = await targetOf(db, row);
  if (!target) return { kind: "fail", reason: { code: null, error: "Endpoint disabled or deleted", ms: null } };
  if (target.secrets.length) headers["x-signature-256"] = target.secrets.map((s) => signBody(s, body)).join(",");
  let code: number | null = null;
  let error: string;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const refusal = webhookUrlRefusal(new URL(target.url), { atDelivery: true });
    if (refusal) throw new WebhookAddressRefused(refusal);
    // undici's request follows no redirects: a 3xx is an answer like any other non-2xx.
    const res = await request(target.url, {
      method: "POST",
      headers,
      body,
      dispatcher: webhookAgent,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    code = res.statusCode;
    await res.body.dump().catch(() => {});
    if (code >= 200 && code < 300) return { kind: "ok", code, ms: elapsed() };
    error = `HTTP ${code}`;
  } catch (err) {
    const refused = addressRefusalIn(err);
    if (refused) return { kind: "fail", reason: { code: null, error: refused.message, ms: null } };
    error = (err as Error).name === "TimeoutError" ? "Timeout" : `Network error: ${(err as Error).message}`;
  }
  // Any other answer, a timeout or a network error: retried with backoff until the last attempt.
  return retryOrFail(c.attempts, opts, { retryable: true, reason: { code, error, ms: elapsed() } });
}
