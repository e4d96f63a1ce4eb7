import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";

/**
 * Passwords use scrypt from Node's own crypto (memory-hard, no native addon to build):
 * N=2^15, r=8, p=1 (32 MiB per hash), stored as `scrypt$N$r$p$salt$hash`.
 */
const N = 1 << 15;
const R = 8;
const P = 1;
const KEYLEN = 32;

/**
 * Async scrypt runs on libuv's thread pool (4 threads by default), which file reads, DNS lookups
 * and the rest of crypto share. At most `PASSWORD_HASH_CONCURRENCY` hashes (default 2) run at once
 * per process, so a flood of sign-ins can never occupy the whole pool; the others wait in line.
 * On the request path (`failFast`) a line already `QUEUE_PER_SLOT` times the slots long answers
 * 503 at once instead of queueing more work than a second or two can clear.
 */
const QUEUE_PER_SLOT = 4;
let running = 0;
const waiting: (() => void)[] = [];

export const HASH_BUSY_MESSAGE = "El servicio está ocupado. Intente de nuevo en unos segundos.";

async function withHashSlot<T>(failFast: boolean, run: () => Promise<T>): Promise<T> {
  const slots = config.passwordHashConcurrency;
  if (running >= slots) {
    if (failFast && waiting.length >= slots * QUEUE_PER_SLOT) throw new ApiError(503, HASH_BUSY_MESSAGE, undefined, { "Retry-After": "1" });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await run();
  } finally {
    // The slot passes straight to the next in line (running stays the same), or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number, failFast = false): Promise<Buffer> {
  const opts: ScryptOptions = { N: n, r, p, maxmem: 128 * n * r * 2 };
  return withHashSlot(
    failFast,
    () =>
      new Promise((resolve, reject) =>
        scryptCb(password.normalize("NFKC"), salt, KEYLEN, opts, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, N, R, P);
  return ["scrypt", N, R, P, salt.toString("base64"), hash.toString("base64")].join("$");
}

/**
 * Checks in progress, by a keyed digest of (`sharedBy`, stored hash, password): identical
 * concurrent checks (one agent's sign-in sent from many tabs or retried in a burst) share one
 * scrypt instead of filling the hash queue and getting 503s. Same inputs, same answer; an entry
 * lives only while its hash runs, and the digest's key is this process's, so it is no password
 * fingerprint. Sign-in passes the email as `sharedBy`: unknown emails all use one dummy hash, and
 * without it parallel guesses at many unknown emails would share a hash where known ones do not,
 * which timing would tell apart.
 */
const inFlight = new Map<string, Promise<boolean>>();
const inFlightKey = randomBytes(32);

/** `failFast`: on the request path, 503 at once when the hash queue is full (see withHashSlot). */
export function verifyPassword(password: string, stored: string, opts: { failFast?: boolean; sharedBy?: string } = {}): Promise<boolean> {
  const id = createHmac("sha256", inFlightKey)
    .update(`${opts.sharedBy ?? ""}\0${stored}\0`)
    .update(password)
    .digest("base64");
  const running = inFlight.get(id);
  if (running) return running;
  const check = checkPassword(password, stored, opts).finally(() => inFlight.delete(id));
  inFlight.set(id, check);
  return check;
}

async function checkPassword(password: string, stored: string, opts: { failFast?: boolean }): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split("$");
  if (alg !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p), opts.failFast);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A stored-hash string with today's parameters that no password matches (random bytes, not a hash).
 * Sign-in checks unknown emails against it, so they cost exactly one scrypt like known ones and
 * the answer's timing does not tell which emails exist.
 */
export function unmatchableHash(): string {
  return ["scrypt", N, R, P, randomBytes(16).toString("base64"), randomBytes(KEYLEN).toString("base64")].join("$");
}
