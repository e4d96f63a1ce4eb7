import { withSecrets } from "@/lib/channels/credentials";
import { deliveryConfig } from "@/lib/delivery/config";
import type { ChannelNumber, WaNumberRow } from "@/lib/channels/types";
import { cloudNumbers } from "./repo";

const TTL_MS = 30_000;
let cache: { at: number; numbers: ChannelNumber[] } | null = null;

/** Cloud API numbers with decrypted secrets, cached briefly (every webhook needs them before parsing). */
export async function cloudSecrets(fresh = false): Promise<ChannelNumber[]> {
  if (!fresh && cache && Date.now() - cache.at < TTL_MS) return cache.numbers;
  const numbers = (await cloudNumbers()).map(withSecrets);
  cache = { at: Date.now(), numbers };
  return numbers;
}

/** A number's app secret: its own, else the deployment-wide WHATSAPP_APP_SECRET. */
export function effectiveAppSecret(n: Pick<ChannelNumber, "secrets"> | WaNumberRow & { secrets?: ChannelNumber["secrets"] }): string | undefined {
  return n.secrets?.appSecret || deliveryConfig.appSecret;
}

/** Every secret a genuine webhook could be signed with; most deployments have one Meta app. */
export async function candidateAppSecrets(fresh = false): Promise<string[]> {
  const set = new Set<string>();
  if (deliveryConfig.appSecret) set.add(deliveryConfig.appSecret);
  for (const n of await cloudSecrets(fresh)) if (n.secrets.appSecret) set.add(n.secrets.appSecret);
  return [...set];
}

export async function candidateVerifyTokens(fresh = false): Promise<string[]> {
  const set = new Set<string>();
  if (deliveryConfig.verifyToken) set.add(deliveryConfig.verifyToken);
  for (const n of await cloudSecrets(fresh)) if (n.secrets.verifyToken) set.add(n.secrets.verifyToken);
  return [...set];
}
