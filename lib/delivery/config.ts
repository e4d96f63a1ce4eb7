import { config } from "@/lib/config";

/** The delivery worker's and the Graph API client's view of the settings (lib/config.ts). */
export const deliveryConfig = {
  get graphBaseUrl(): string {
    return config.graphBaseUrl;
  },
  get graphVersion(): string {
    return config.graphVersion;
  },
  get graphTimeoutMs(): number {
    return config.graphTimeoutMs;
  },
  get appSecret(): string | undefined {
    return config.whatsappAppSecret;
  },
  get verifyToken(): string | undefined {
    return config.whatsappVerifyToken;
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
  get sandboxStepMs(): number {
    return config.sandboxStepMs;
  },
};
