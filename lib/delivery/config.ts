import { config } from "@/lib/config";
import type { GraphSettings } from "@/lib/channels/cloud-api/client";

/** The delivery worker's view of the settings (lib/config.ts); worker options override them. */
export const deliveryConfig = {
  get graphTimeoutMs(): number {
    return config.graphTimeoutMs;
  },
  get pollMs(): number {
    return config.workerPollMs;
  },
  get maxAttempts(): number {
    return config.deliveryMaxAttempts;
  },
  get concurrency(): number {
    return config.workerConcurrency;
  },
  /**
   * Seconds a message whose lease expired with no recorded answer (its send may have reached
   * Meta) waits for a status webhook carrying its update_id before it is sent again.
   */
  get uncertainGraceS(): number {
    return config.deliveryUncertainGraceS;
  },
  get sandboxStepMs(): number {
    return config.sandboxStepMs;
  },
};

/** The Graph API settings the Cloud API adapter is handed (channels read no settings themselves). */
export function graphSettings(): GraphSettings {
  return { baseUrl: config.graphBaseUrl, version: config.graphVersion, timeoutMs: config.graphTimeoutMs };
}
