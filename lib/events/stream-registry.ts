import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { stillActiveTokenIds, stillLiveSessionIds } from "@/lib/auth/repo";
import { watchTokenChanges } from "@/lib/auth/token-cache";
import { ApiError } from "@/lib/http/errors";
import { deleteExpiredLeases, dropLeases, renewLeases, takeLease } from "./stream-lease-repo";

/**
 * The event streams open in this process, by the credential that opened them (an API token or an
 * agent session). A stream must not outlive its credential (docs/operations.md, "Security"), and one credential may hold
 * only so many:
 *
 * - A revoked token ends its streams at once: the `wa_auth` NOTIFY (migration 0019), heard by the
 *   token cache, triggers a check right away (so does a revocation made in this process).
 * - Every STREAM_CHECK_MS, one query per kind re-checks every credential with open streams: a
 *   session signed out or expired, an agent removed, a token revoked while the LISTEN was down
 *   all end their streams within that period. Nothing is checked while no stream is open.
 * - At most MAX_STREAMS_PER_CREDENTIAL streams per holder, across every process: an API token, or
 *   an agent whatever the number of its sessions. One more is refused with 429 and Retry-After
 *   (closing the oldest instead would let two tabs evict each other forever as EventSource
 *   reconnects). Counted in Postgres (`open_streams`, docs/auth-limits.md): each stream holds a
 *   lease its process renews every STREAM_RENEW_MS and deletes when the stream closes; the leases
 *   of a process that died stop counting after STREAM_LEASE_S.
 */
export const MAX_STREAMS_PER_CREDENTIAL = 20;
export const STREAM_CHECK_MS = 500;
export const STREAM_LEASE_S = 30;
export const STREAM_RENEW_MS = 10_000;
export const STREAMS_RETRY_AFTER_S = 30;
export const TOO_MANY_STREAMS = `Demasiados flujos de eventos abiertos con esta credencial (máximo ${MAX_STREAMS_PER_CREDENTIAL}).`;

type Credential = { kind: "token" | "session"; id: number; teamId: number };
type Entry = { credential: Credential; end: () => void; lease: { id: number; holder: string } };
type Registry = {
  byKey: Map<string, Set<Entry>>;
  timer?: ReturnType<typeof setInterval>;
  renewTimer?: ReturnType<typeof setInterval>;
  checking?: Promise<void>;
  again: boolean;
  unwatch?: () => void;
};

// Dev reloads modules; the streams and their timer must survive them, like the database handle.
const g = globalThis as unknown as { __waStreams?: Registry };
const registry: Registry = (g.__waStreams ??= { byKey: new Map(), again: false });

function credentialOf(ctx: AuthContext): Credential {
  return ctx.actor.kind === "token"
    ? { kind: "token", id: ctx.actor.tokenId, teamId: ctx.teamId }
    : { kind: "session", id: ctx.actor.sessionId, teamId: ctx.teamId };
}
const keyOf = (c: Credential) => `${c.kind}:${c.id}`;
/** Who the cap counts for: an agent's sessions all count as the agent. */
export const holderOf = (ctx: AuthContext) => (ctx.actor.kind === "token" ? `token:${ctx.actor.tokenId}` : `agent:${ctx.actor.agentId}`);

/**
 * Registers a stream of `ctx`'s credential; `end` closes it. Throws the 429 when its holder
 * already holds the maximum in all processes together. The answer releases the slot (call it when
 * the stream closes; calling it again does nothing).
 */
export async function registerStream(ctx: AuthContext, end: () => void): Promise<() => void> {
  const credential = credentialOf(ctx);
  const holder = holderOf(ctx);
  const leaseId = await transaction((tx) => takeLease(tx, { holder, max: MAX_STREAMS_PER_CREDENTIAL, leaseSeconds: STREAM_LEASE_S }));
  if (leaseId === null) throw new ApiError(429, TOO_MANY_STREAMS, undefined, { "retry-after": String(STREAMS_RETRY_AFTER_S) });
  const key = keyOf(credential);
  const set = registry.byKey.get(key) ?? new Set<Entry>();
  const entry: Entry = { credential, end, lease: { id: leaseId, holder } };
  set.add(entry);
  registry.byKey.set(key, set);
  start();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    set.delete(entry);
    if (!set.size && registry.byKey.get(key) === set) registry.byKey.delete(key);
    if (!registry.byKey.size) stop();
    // Not awaited: a stream closes at once; should the delete fail, the lease runs out by itself.
    getDb()
      .then((db) => dropLeases(db, [leaseId]))
      .catch(() => {});
  };
}

/** How many streams this process holds for `ctx`'s credential (tests, diagnostics). */
export function openStreamCount(ctx: AuthContext): number {
  return registry.byKey.get(keyOf(credentialOf(ctx)))?.size ?? 0;
}

function start() {
  if (registry.timer) return;
  registry.timer = setInterval(() => void checkNow(), STREAM_CHECK_MS);
  registry.timer.unref?.();
  registry.renewTimer = setInterval(() => void renewNow(), STREAM_RENEW_MS);
  registry.renewTimer.unref?.();
  registry.unwatch = watchTokenChanges(() => void checkNow());
}

function stop() {
  clearInterval(registry.timer);
  clearInterval(registry.renewTimer);
  registry.timer = undefined;
  registry.renewTimer = undefined;
  registry.unwatch?.();
  registry.unwatch = undefined;
}

/** Renews the leases of every stream open here, and deletes those of processes long gone. */
async function renewNow(): Promise<void> {
  const leases = [...registry.byKey.values()].flatMap((set) => [...set].map((e) => e.lease));
  try {
    const db = await getDb();
    await renewLeases(db, { leases, leaseSeconds: STREAM_LEASE_S });
    await deleteExpiredLeases(db);
  } catch (err) {
    // The database is away: the leases may run out meanwhile, and the next renewal writes them again.
    console.error("[events] stream lease renewal failed", err instanceof Error ? err.message : err);
  }
}

/** Re-checks every credential with open streams (one query per kind) and ends the streams of the dead ones. */
export function checkNow(): Promise<void> {
  // One check at a time; a request for another while one runs is served by one more after it.
  if (registry.checking) {
    registry.again = true;
    return registry.checking;
  }
  registry.checking = (async () => {
    try {
      do {
        registry.again = false;
        await checkOnce();
      } while (registry.again);
    } catch (err) {
      // The database is away: the streams stay until it answers (each request is refused meanwhile).
      console.error("[events] stream credential check failed", err instanceof Error ? err.message : err);
    } finally {
      registry.checking = undefined;
    }
  })();
  return registry.checking;
}

async function checkOnce() {
  const tokens: Credential[] = [];
  const sessions: Credential[] = [];
  for (const set of registry.byKey.values()) {
    const first = set.values().next().value;
    if (first) (first.credential.kind === "token" ? tokens : sessions).push(first.credential);
  }
  if (!tokens.length && !sessions.length) return;
  const db = await getDb();
  const [liveTokens, liveSessions] = await Promise.all([stillActiveTokenIds(db, tokens), stillLiveSessionIds(db, sessions)]);
  const dead = [...tokens.filter((t) => !liveTokens.has(t.id)), ...sessions.filter((s) => !liveSessions.has(s.id))];
  for (const credential of dead) {
    for (const entry of [...(registry.byKey.get(keyOf(credential)) ?? [])]) entry.end();
  }
}
