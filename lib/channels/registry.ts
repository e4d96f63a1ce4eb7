import type { ChannelAdapter } from "./types";
import type { GraphSettings } from "./cloud-api/client";
import { createCloudApiAdapter } from "./cloud-api";
import { sandboxAdapter, WALKING_PROVIDERS } from "./sandbox-channel";

/** Providers whose statuses an adapter walks in-process (resumed by the worker after a restart). */
export const walkingProviders = WALKING_PROVIDERS;

/** The adapters, built with what they need from their caller (channels read no settings themselves). */
export function channelRegistry(deps: { graph: () => GraphSettings }) {
  const cloudApi = createCloudApiAdapter(deps.graph);
  return {
    adapterFor(provider: string): ChannelAdapter {
      return provider === "cloud_api" ? cloudApi : sandboxAdapter;
    },
  };
}
