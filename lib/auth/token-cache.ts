import { getHandle } from "@/db/client";
import { findActiveTokenByHash } from "./repo";

/**
 * The active API tokens this process has seen, by hash, so that an authenticated request costs no
 * database read for its token (one round trip of the two a list page makes).
 *
 * It stays right across replicas because every change that can end a token (revocation, a new
 * hash or team, deletion) is announced by a trigger on api_tokens (migration 0019) with NOTIFY on
 * `wa_auth`, and this process LISTENs on its one listening connection (the one the event bus
 * uses): the entry is dropped within milliseconds of the commit. The cache is only consulted once
 * that LISTEN is up, is emptied every time it (re)connects (announcements made while it was down
 * are lost), and trusts an entry for TOKEN_CACHE_MS at most, which bounds the staleness if the
 * connection died without anyone noticing yet. Unknown or revoked tokens are never cached; an
 * expired one is (its expiry is checked on every use, cached or not: authenticate.ts).
 */
export const AUTH_CHANNEL = "wa_auth";
export const TOKEN_CACHE_MS = 10_000;
const MAX_ENTRIES = 10_000;

/** A token not revoked; whether it has expired (or its roll's overlap ended) is checked on each use. */
export type ActiveToken = { id: number; teamId: number; scopes: string[]; expiresAt: Date | null; overlapEndsAt: Date | null };
type Entry = ActiveToken & { cachedAt: number };
type Handle = Awaited<ReturnType<typeof getHandle>>;
/** `handle`: the database handle the LISTEN runs on; a new one (after closeDb) starts over. */
type Cache = { entries: Map<string, Entry>; handle?: Handle; up: boolean };

// Dev reloads modules; the cache and its one LISTEN must survive them, like the database handle.
const g = globalThis as unknown as { __waTokenCache?: Cache };
const cache: Cache = (g.__waTokenCache ??= { entries: new Map(), up: false });

/**
 * Who else wants to hear that a token may have ended (its id; null: any token may have): open
 * event streams end at once instead of at their next periodic check (lib/events/stream-registry.ts).
 */
type TokenWatcher = (id: number | null) => void;
const gw = globalThis as unknown as { __waTokenWatchers?: Set<TokenWatcher> };
const watchers: Set<TokenWatcher> = (gw.__waTokenWatchers ??= new Set());

export function watchTokenChanges(watcher: TokenWatcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

function tell(id: number | null) {
  for (const w of watchers) {
    try {
      w(id);
    } catch (err) {
      console.error("[auth] token watcher failed", err instanceof Error ? err.message : err);
    }
  }
}

/** Drops every cached token with this id (after a revocation in this process, or its NOTIFY). */
export function forgetToken(id: number) {
  for (const [hash, entry] of cache.entries) if (entry.id === id) cache.entries.delete(hash);
  tell(id);
}

function onNotify(payload: string) {
  const id = Number(payload);
  // Anything unexpected on the channel: forget everything rather than guess.
  if (Number.isSafeInteger(id)) forgetToken(id);
  else {
    cache.entries.clear();
    tell(null);
  }
}

function ensureListening(handle: Handle) {
  if (cache.handle === handle) return;
  cache.handle = handle;
  cache.up = false;
  cache.entries.clear();
  handle
    .listen(AUTH_CHANNEL, onNotify, () => {
      if (cache.handle !== handle) return;
      cache.entries.clear();
      cache.up = true;
      // Announcements made while the LISTEN was down are lost: whoever watches re-checks all.
      tell(null);
    })
    .catch((err) => {
      if (cache.handle === handle) cache.handle = undefined;
      console.error("[auth] token cache listen failed", err instanceof Error ? err.message : err);
    });
}

/** The active token with this hash, from the cache when it may be trusted, else from the database. */
export async function findActiveToken(tokenHash: string): Promise<ActiveToken | undefined> {
  const handle = await getHandle();
  ensureListening(handle);
  const now = Date.now();
  const hit = cache.up ? cache.entries.get(tokenHash) : undefined;
  if (hit && now - hit.cachedAt < TOKEN_CACHE_MS) return hit;
  const row = await findActiveTokenByHash(handle.db, tokenHash);
  if (!row) {
    cache.entries.delete(tokenHash);
    return undefined;
  }
  if (cache.up) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(tokenHash, { ...row, cachedAt: now });
  }
  return row;
}
