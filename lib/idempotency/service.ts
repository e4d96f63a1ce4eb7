import "server-only";
import { getDb, type DbOrTx } from "@/db/client";
import { ApiError } from "@/lib/http/errors";
import { sha256Hex } from "@/lib/crypto/hash";
import { config } from "@/lib/config";
import { deleteKeysOlderThan, findKey, insertKeyIfAbsent, type StoredKey } from "./repo";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const MAX_KEY_LENGTH = 200;
export const KEY_EMPTY = "El encabezado Idempotency-Key no puede estar vacío.";
export const KEY_TOO_LONG = `El encabezado Idempotency-Key no puede tener más de ${MAX_KEY_LENGTH} caracteres.`;
export const KEY_REUSED = "La clave Idempotency-Key ya se usó con una solicitud distinta; use una clave nueva para cada envío.";

export type Idempotency = { key: string; requestHash: string };
export type StoredResponse = { status: number; body: unknown };

/** JSON with object keys sorted at every level, so key order never changes a request's hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The request's Idempotency-Key (null without the header) and the hash of what it stands for.
 * `scope` (method and route) is hashed in, so one key reused on another endpoint is a mismatch,
 * never a replay of the wrong response.
 */
export function idempotencyOf(req: Request, scope: string, body: unknown): Idempotency | null {
  const raw = req.headers.get(IDEMPOTENCY_HEADER);
  if (raw === null) return null;
  const key = raw.trim();
  if (!key) throw ApiError.invalid(IDEMPOTENCY_HEADER, KEY_EMPTY);
  if (key.length > MAX_KEY_LENGTH) throw ApiError.invalid(IDEMPOTENCY_HEADER, KEY_TOO_LONG);
  return { key, requestHash: sha256Hex(`${scope}\n${canonicalJson(body)}`) };
}

/** The stored answer of `idem`'s key, or 422 when the key was used with another request. */
export function replayOf(stored: StoredKey, idem: Idempotency): StoredResponse {
  if (stored.requestHash !== idem.requestHash) throw ApiError.invalid(IDEMPOTENCY_HEADER, KEY_REUSED);
  return { status: stored.statusCode ?? 200, body: stored.response };
}

/** The first response for this key, if a request with it already succeeded (cheap, outside any transaction). */
export async function findReplay(teamId: number, idem: Idempotency | null): Promise<StoredResponse | undefined> {
  if (!idem) return undefined;
  void sweepExpiredKeys();
  const stored = await findKey(await getDb(), { teamId, key: idem.key, ttlHours: config.idempotencyTtlHours });
  return stored && replayOf(stored, idem);
}

/**
 * The key's claim for a write that records it in its own statement (a single send, a bulk send,
 * a reply: lib/messages/outbound-repo.ts), with `response` to store; the caller
 * answers a stored one with replayOf. Sweeps expired keys as findReplay does.
 */
export function claimOf(idem: Idempotency, response: StoredResponse) {
  void sweepExpiredKeys();
  return {
    key: idem.key,
    requestHash: idem.requestHash,
    statusCode: response.status,
    response: response.body,
    ttlHours: config.idempotencyTtlHours,
  };
}

/**
 * Inside the transaction that performs the request: records `response` under the key, or, if a
 * concurrent request took the key first, returns that request's response (the caller must then
 * do nothing). Only successes reach this point, so a rejected request never burns its key.
 */
export async function claimOrReplay(
  tx: DbOrTx,
  teamId: number,
  idem: Idempotency,
  response: StoredResponse,
): Promise<StoredResponse | undefined> {
  const ttl = config.idempotencyTtlHours;
  const claimed = await insertKeyIfAbsent(tx, {
    values: { teamId, key: idem.key, requestHash: idem.requestHash, statusCode: response.status, response: response.body },
    ttlHours: ttl,
  });
  if (claimed) return undefined;
  const stored = await findKey(tx, { teamId, key: idem.key, ttlHours: ttl });
  if (!stored) throw new Error("idempotency key vanished after a conflict");
  return replayOf(stored, idem);
}

// Expired keys are deleted by the first keyed send of every 10 minutes in each process, so the
// table holds about a TTL's worth of keys; without keyed sends nothing new is stored to sweep.
const SWEEP_EVERY_MS = 10 * 60_000;
let lastSweep = 0;

/** Fire-and-forget sweep (at most once per interval per process); `force` for tests and the CLI. */
export function sweepExpiredKeys(force = false): Promise<number> {
  const now = Date.now();
  if (!force && now - lastSweep < SWEEP_EVERY_MS) return Promise.resolve(0);
  lastSweep = now;
  return getDb()
    .then((db) => deleteKeysOlderThan(db, config.idempotencyTtlHours))
    .catch(() => 0);
}
