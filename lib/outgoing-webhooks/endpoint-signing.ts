import "server-only";
import type { DbOrTx } from "@/db/client";
import { decryptJson } from "@/lib/crypto/secrets";
import { findEndpointForDelivery } from "@/lib/webhook-endpoints/repo";

/**
 * An enabled endpoint's URL and the secrets that sign its deliveries: the current one first, then,
 * until a roll's overlap ends, the previous one (Stripe's way: the receiver accepts either while it
 * switches). Null when the endpoint was deleted or disabled: its queued deliveries fail.
 */
export async function endpointSigning(db: DbOrTx, key: { id: number; teamId: number }): Promise<{ url: string; secrets: string[] } | null> {
  const row = await findEndpointForDelivery(db, key);
  if (!row || !row.enabled) return null;
  const secrets = [decryptJson<string>(row.secretEncrypted)];
  if (row.previousSecretEncrypted && row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > Date.now())
    secrets.push(decryptJson<string>(row.previousSecretEncrypted));
  return { url: row.url, secrets };
}
