import type { ChannelAdapter } from "./types";
import { cloudApiAdapter } from "./cloud-api";
import { sandboxAdapter, WALKING_PROVIDERS } from "./sandbox";

/** Providers whose statuses an adapter walks in-process (resumed by the worker after a restart). */
export const walkingProviders = WALKING_PROVIDERS;

export function adapterFor(provider: string): ChannelAdapter {
  return provider === "cloud_api" ? cloudApiAdapter : sandboxAdapter;
}
