import type { GraphSettings } from "@/lib/channels/cloud-api/client";

/** Delivery settings from the environment (README "Delivery"); worker options override them. */
const num = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export const deliveryConfig = {
  get graphBaseUrl(): string {
    return (process.env.GRAPH_API_BASE_URL || "https://graph.facebook.com").replace(/\/$/, "");
  },
  get graphVersion(): string {
    return process.env.GRAPH_API_VERSION || "v21.0";
  },
  get graphTimeoutMs(): number {
    return num("GRAPH_TIMEOUT_MS", 15_000);
  },
  get appSecret(): string | undefined {
    return process.env.WHATSAPP_APP_SECRET || undefined;
  },
  get verifyToken(): string | undefined {
    return process.env.WHATSAPP_VERIFY_TOKEN || undefined;
  },
  get pollMs(): number {
    return num("WORKER_POLL_MS", 1000);
  },
  get maxAttempts(): number {
    return num("DELIVERY_MAX_ATTEMPTS", 8);
  },
  /**
   * Messages one worker process sends at once (WORKER_CONCURRENCY, default 256). Each waits on
   * the provider's answer for most of its time, so the drain rate grows with this until the CPU
   * is busy: on 2 cores, 32 drained ~470/s and 256 ~1,000/s (bench/README.md, finding 4).
   */
  get concurrency(): number {
    return num("WORKER_CONCURRENCY", 256);
  },
  /**
   * Seconds a message whose lease expired with no recorded answer (its send may have reached
   * Meta) waits for a status webhook carrying its update_id before it is sent again
   * (DELIVERY_UNCERTAIN_GRACE_S, default 60; 0 resends as soon as the lease expires).
   */
  get uncertainGraceS(): number {
    const raw = process.env.DELIVERY_UNCERTAIN_GRACE_S;
    const n = Number(raw);
    return raw !== undefined && raw !== "" && Number.isFinite(n) && n >= 0 ? n : 60;
  },
  get sandboxStepMs(): number {
    return num("SANDBOX_STEP_MS", 1500);
  },
};

/** The Graph API settings the Cloud API adapter is handed (channels read no settings themselves). */
export function graphSettings(): GraphSettings {
  return { baseUrl: deliveryConfig.graphBaseUrl, version: deliveryConfig.graphVersion, timeoutMs: deliveryConfig.graphTimeoutMs };
}
