import { getDb, transaction, type DbOrTx, type Tx } from "@/db/client";
import { randomSecret, sha256Hex } from "@/lib/crypto/hash";
import { insertToken, revokeToken, type NewTokenRow } from "./repo";
import { forgetToken } from "./token-cache";
import { SCOPES, type Scope } from "./permissions";

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

export type MintInput = Omit<NewTokenRow, "tokenHash" | "prefix"> & { token?: string };

/**
 * Writes a new token with `db` (the caller's transaction, when it records more with it) and
 * returns its id and the secret, which is never stored and never shown again. The admin CLI and
 * `POST /api/v1/tokens` both make them here, in the same format.
 */
export async function mintToken(db: DbOrTx, { token = newToken(), ...input }: MintInput) {
  const row = await insertToken(db, { ...input, tokenHash: hashToken(token), prefix: token.slice(0, 8) });
  return { id: row.id, token };
}

/** A new token; `scopes` defaults to every scope (lib/auth/permissions.ts). */
export async function createToken({
  input,
}: {
  input: { teamId: number; name?: string; token?: string; scopes?: readonly Scope[]; expiresAt?: Date | null };
}) {
  return mintToken(await getDb(), { ...input, name: input.name ?? "api", scopes: [...(input.scopes ?? SCOPES)] });
}

/**
 * Runs a change that ends or narrows token `id` (a revocation, a roll) in one transaction, then
 * ends it everywhere: the UPDATE's trigger tells every other process at commit (their caches drop
 * it, their event streams of it end: db/functions/api_tokens_announce_change.sql), and this
 * process learns it at once, its open streams of the token included (lib/events/stream-registry.ts).
 */
export async function changingToken<T>(id: number, change: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await transaction(change);
  forgetToken(id);
  return result;
}

/** The admin CLI's revocation (any team's token, by id). */
export async function revokeTokenById({ input }: { input: { id: number } }) {
  return changingToken(input.id, (tx) => revokeToken(tx, { id: input.id }));
}
