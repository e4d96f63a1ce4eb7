import { decryptJson } from "@/lib/crypto/secrets";
import type { ChannelCredentials } from "@/lib/numbers/service";
import type { ChannelNumber, WaNumberRow } from "./types";

export function withSecrets(row: WaNumberRow): ChannelNumber {
  let secrets: ChannelCredentials = {};
  if (row.credentials) {
    try {
      secrets = decryptJson<ChannelCredentials>(row.credentials);
    } catch (err) {
      // A key rotation without re-encryption must not crash the worker loop; the send then fails with 190.
      console.error(`[channels] cannot decrypt credentials of number ${row.id}`, (err as Error).message);
    }
  }
  return { ...row, secrets };
}
