import { getDb } from "@/db/client";
import { randomSecret, sha256Hex } from "@/lib/crypto/hash";
import { insertToken, revokeToken } from "./repo";
import { forgetToken } from "./token-cache";

/**
 * API tokens are 256 random bits, prefixed so leaks are recognisable (`wam_`). Only their SHA-256
 * is stored: a high-entropy token needs no slow hash, and lookup by hash is one indexed read
 * whose timing reveals nothing about the stored value.
 */
export const TOKEN_PREFIX = "wam_";

export function hashToken(token: string): string {
  return sha256Hex(token);
}

export function newToken(): string {
  return TOKEN_PREFIX + randomSecret(32);
}

export async function createToken({ input }: { input: { teamId: number; name?: string; token?: string } }) {
  const token = input.token ?? newToken();
  const row = await insertToken(await getDb(), {
    teamId: input.teamId,
    name: input.name ?? "api",
    tokenHash: hashToken(token),
    prefix: token.slice(0, 8),
  });
  return { id: row.id, token };
}

export async function revokeTokenById({ input }: { input: { id: number } }) {
  const row = await revokeToken(await getDb(), input.id);
  // Other processes hear of it through the api_tokens trigger's NOTIFY; this one at once.
  forgetToken(input.id);
  return row;
}
