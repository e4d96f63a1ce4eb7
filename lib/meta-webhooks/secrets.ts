import { getDb } from "@/db/client";
import { credentialsGeneration, withSecrets } from "@/lib/channels/credentials";
import { config } from "@/lib/config";
import type { ChannelNumber, WaNumberRow } from "@/lib/channels/types";
import { cloudNumbers, secretsVersion } from "./repo";

/**
 * Cloud API numbers with decrypted secrets, cached per process (every webhook needs them before
 * parsing). The cache is trusted for `TRUST_MS` after its last check; past that, or when a post
 * matched none of the cached secrets (`fresh`), one primary-key read of the secrets version
 * (bumped by a trigger with every change of numbers' credentials, in any process) says whether to
 * reload; only then are the numbers read again, and only changed ciphertexts decrypted
 * (withSecrets). A flood of unsigned posts therefore costs one tiny read each, never a reload.
 * A change made by this process (addNumber) drops the cache at once; one made by another process
 * is seen within TRUST_MS, and at once by a post signed with a secret we did not have yet.
 */
const TRUST_MS = 1_000;
type Cache = { version: number; generation: number; checkedAt: number; numbers: ChannelNumber[] };
let cache: Cache | null = null;
let refreshing: { generation: number; done: Promise<ChannelNumber[]> } | null = null;
let loads = 0;

/** How many times this process has (re)loaded the numbers' secrets; for tests and diagnostics. */
export const secretLoads = () => loads;

export async function cloudSecrets(fresh = false): Promise<ChannelNumber[]> {
  const c = cache;
  const generation = credentialsGeneration();
  if (c && c.generation === generation && !fresh && Date.now() - c.checkedAt < TRUST_MS) return c.numbers;
  // Concurrent checks share one round trip, unless this process changed credentials since it began.
  if (refreshing?.generation !== generation) {
    const current = { generation, done: refresh(generation) };
    refreshing = current;
    current.done
      .finally(() => {
        if (refreshing === current) refreshing = null;
      })
      .catch(() => {});
  }
  return refreshing.done;
}

async function refresh(generation: number): Promise<ChannelNumber[]> {
  // The version is read before the numbers: a change committed in between makes the next check reload again.
  const version = await secretsVersion(await getDb());
  const c = cache;
  if (c && c.version === version && c.generation === generation) {
    c.checkedAt = Date.now();
    return c.numbers;
  }
  const numbers = (await cloudNumbers(await getDb())).map(withSecrets);
  loads++;
  cache = { version, generation, checkedAt: Date.now(), numbers };
  return numbers;
}

/** A number's app secret: its own, else the deployment-wide WHATSAPP_APP_SECRET. */
export function effectiveAppSecret(
  n: Pick<ChannelNumber, "secrets"> | (WaNumberRow & { secrets?: ChannelNumber["secrets"] }),
): string | undefined {
  return n.secrets?.appSecret || config.whatsappAppSecret;
}

/**
 * The Cloud API number with this phone_number_id, with its secrets, from the same cache (no read
 * per webhook); a number the cache does not know yet is looked for once more after a fresh check.
 */
export async function cloudNumberByPhoneNumberId(phoneNumberId: string): Promise<ChannelNumber | undefined> {
  const find = (list: ChannelNumber[]) => list.find((n) => n.phoneNumberId === phoneNumberId);
  return find(await cloudSecrets()) ?? find(await cloudSecrets(true));
}

/** Every secret a genuine webhook could be signed with; most deployments have one Meta app. */
export async function candidateAppSecrets(fresh = false): Promise<string[]> {
  const set = new Set<string>();
  if (config.whatsappAppSecret) set.add(config.whatsappAppSecret);
  for (const n of await cloudSecrets(fresh)) if (n.secrets.appSecret) set.add(n.secrets.appSecret);
  return [...set];
}

export async function candidateVerifyTokens(fresh = false): Promise<string[]> {
  const set = new Set<string>();
  if (config.whatsappVerifyToken) set.add(config.whatsappVerifyToken);
  for (const n of await cloudSecrets(fresh)) if (n.secrets.verifyToken) set.add(n.secrets.verifyToken);
  return [...set];
}
