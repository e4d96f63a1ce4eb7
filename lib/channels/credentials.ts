import { decryptJson } from "@/lib/crypto/secrets";
import type { ChannelCredentials } from "@/lib/numbers/service";
import type { ChannelNumber, WaNumberRow } from "./types";

// Decrypted credentials by their ciphertext. Every encryption draws a fresh IV, so changed
// credentials are a new ciphertext and can never be served from here stale, in any process.
// Bounded: the oldest entry goes first once full.
const MAX_CACHED = 10_000;
const decrypted = new Map<string, Readonly<ChannelCredentials>>();

export function withSecrets(row: WaNumberRow): ChannelNumber {
  let secrets: Readonly<ChannelCredentials> = {};
  if (row.credentials) {
    const hit = decrypted.get(row.credentials);
    if (hit) return { ...row, secrets: hit };
    try {
      secrets = Object.freeze(decryptJson<ChannelCredentials>(row.credentials));
      if (decrypted.size >= MAX_CACHED) decrypted.delete(decrypted.keys().next().value!);
      decrypted.set(row.credentials, secrets);
    } catch (err) {
      // A key rotation without re-encryption must not crash the worker loop; the send then fails with 190.
      console.error(`[channels] cannot decrypt credentials of number ${row.id}`, (err as Error).message);
    }
  }
  return { ...row, secrets };
}

// Bumped when this process changes a number's credentials, so per-process caches built on them
// (lib/meta-webhooks/secrets.ts) drop their copy at once instead of at their next version check.
let generation = 0;
export const credentialsGeneration = () => generation;
export function credentialsChanged(): void {
  generation++;
}
