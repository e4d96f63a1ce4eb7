import { createHmac } from "node:crypto";
import { loadDeliveries, finishDelivery, type DeliveryClaim } from "./deliveries-repo";
import { backoffMs } from "@/lib/delivery/backoff";

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export type DeliverOptions = { timeoutMs: number; maxAttempts: number; baseMs: number; capMs: number; secretOf: (kind: string, id: number, teamId: number) => Promise<string | null> };

/**
 * POSTs one queued event to its bot/campaign URL as JSON, signed with the target's secret
 * (`X-Signature-256: sha256=<hex hmac of the exact body>`). Any 2xx is delivered; anything
 * else is retried with backoff until `maxAttempts`, then `failed` with the last answer kept.
 */
export async function deliverOne(c: DeliveryClaim, opts: DeliverOptions, isKilled: () => boolean) {
  const [row] = await loadDeliveries([c.id]);
  if (!row || row.status !== "pending") return;
  const body = JSON.stringify({ id: row.id, ...(row.payload as Record<string, unknown>) });
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "wa-messaging-service/1",
    "x-webhook-event": row.event,
    "x-webhook-delivery": String(row.id),
  };
  const secret = await opts.secretOf(row.targetKind, row.targetId, row.teamId);
  if (secret) headers["x-signature-256"] = signBody(secret, body);
  let code: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(row.url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(opts.timeoutMs) });
    code = res.status;
    await res.body?.cancel().catch(() => {});
    if (res.status >= 200 && res.status < 300) {
      if (!isKilled()) await finishDelivery(c, { status: "delivered", code, error: null });
      return;
    }
    error = `HTTP ${res.status}`;
  } catch (err) {
    error = (err as Error).name === "TimeoutError" ? "Timeout" : `Network error: ${(err as Error).message}`;
  }
  if (isKilled()) return;
  if (c.attempts >= opts.maxAttempts) await finishDelivery(c, { status: "failed", code, error });
  else await finishDelivery(c, { status: "pending", code, error, retryInMs: backoffMs(c.attempts, opts.baseMs, opts.capMs) });
}
