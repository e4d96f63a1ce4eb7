import type { ChannelAdapter } from "./types";
import { cloudApiAdapter } from "./cloud-api";
import { sandboxAdapter } from "./sandbox";

export function adapterFor(provider: string): ChannelAdapter {
  return provider === "cloud_api" ? cloudApiAdapter : sandboxAdapter;
}
