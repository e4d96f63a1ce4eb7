import "server-only";
import { getHandle } from "@/db/client";
import { findNumber } from "@/lib/numbers/repo";
import { findTemplateForNumber, type TemplateRow } from "@/lib/templates/repo";

/**
 * The sending numbers and templates this process has seen, so that a send reads neither from the
 * database (two of the round trips of a template send: docs/write-path.md, "A send's round trips").
 * Built as lib/auth/token-cache.ts is.
 *
 * It stays right across replicas because every change a send depends on (a number's digits, team
 * or switch-off, its deletion; any template inserted, changed in what a send reads, or deleted),
 * however it is made (the API, Meta's webhooks, the sync, the admin CLI, a hand-written UPDATE),
 * is announced by triggers on wa_numbers and templates (db/functions/send_catalog_announce.sql)
 * with NOTIFY on `wa_catalog` and the team's id; this process LISTENs on its one listening
 * connection and drops the team's entries within milliseconds of the commit. The cache is only
 * consulted once that LISTEN is up, is emptied every time it (re)connects (announcements made
 * while it was down are lost), and trusts an entry for CATALOG_CACHE_MS at most, which bounds the
 * staleness if the connection died without anyone noticing yet. Misses (an unknown number or
 * template) are never cached: the 422 path reads the database each time.
 *
 * This process's own writes drop the team at once (forgetSendCatalog), without waiting for their
 * NOTIFY. Called inside the writing transaction, the drop also holds the team out of the cache
 * until that NOTIFY comes (at most CATALOG_CACHE_MS): a send reading between the drop and the
 * commit would otherwise cache what is about to change. A read that a drop overtook is not kept.
 */
export const CATALOG_CHANNEL = "wa_catalog";
export const CATALOG_CACHE_MS = 10_000;
const MAX_ENTRIES = 10_000;

type NumberRow = NonNullable<Awaited<ReturnType<typeof findNumber>>>;
/** What a send reads of its number: no send slot, health or credentials, which change without notice. */
export type SendingNumber = Pick<NumberRow, "id" | "teamId" | "number" | "disabledAt">;
type Entry = { teamId: number; value: SendingNumber | TemplateRow; cachedAt: number };
type Handle = Awaited<ReturnType<typeof getHandle>>;
/**
 * `handle`: the database handle the LISTEN runs on; a new one (after closeDb) starts over.
 * `generation`: moves with every drop, so a read that began before one is not kept.
 * `held`: teams kept out of the cache until their NOTIFY (or the time given) after an own write.
 */
type Cache = { entries: Map<string, Entry>; handle?: Handle; up: boolean; generation: number; held: Map<number, number> };

// Dev reloads modules; the cache and its LISTEN must survive them, like the database handle.
const g = globalThis as unknown as { __waSendCatalog?: Cache };
const cache: Cache = (g.__waSendCatalog ??= { entries: new Map(), up: false, generation: 0, held: new Map() });

const numberKey = (teamId: number, digits: string) => `n\u0000${teamId}\u0000${digits}`;
const templateKey = (teamId: number, waNumberId: number, name: string) => `t\u0000${teamId}\u0000${waNumberId}\u0000${name}`;

function dropTeam(teamId: number) {
  cache.generation++;
  for (const [key, entry] of cache.entries) if (entry.teamId === teamId) cache.entries.delete(key);
}

function dropAll() {
  cache.generation++;
  cache.entries.clear();
  cache.held.clear();
}

/**
 * Drops the team's numbers and templates after this process changed one, and keeps them out of
 * the cache until the change's NOTIFY arrives (the write may not have committed yet).
 */
export function forgetSendCatalog(teamId: number) {
  dropTeam(teamId);
  cache.held.set(teamId, Date.now() + CATALOG_CACHE_MS);
}

function onNotify(payload: string) {
  const teamId = Number(payload);
  // Anything unexpected on the channel: forget everything rather than guess.
  if (!Number.isSafeInteger(teamId)) return dropAll();
  dropTeam(teamId);
  cache.held.delete(teamId);
}

function ensureListening(handle: Handle) {
  if (cache.handle === handle) return;
  cache.handle = handle;
  cache.up = false;
  dropAll();
  handle
    .listen(CATALOG_CHANNEL, onNotify, () => {
      if (cache.handle !== handle) return;
      dropAll();
      cache.up = true;
    })
    .catch((err) => {
      if (cache.handle === handle) cache.handle = undefined;
      console.error("[send-catalog] listen failed", err instanceof Error ? err.message : err);
    });
}

/** The entry under `key` when it may be trusted, else `load()` from the database (kept when it may be). */
async function cached<T extends SendingNumber | TemplateRow>(
  teamId: number,
  key: string,
  load: (db: Handle["db"]) => Promise<T | undefined>,
): Promise<T | undefined> {
  const handle = await getHandle();
  ensureListening(handle);
  const now = Date.now();
  const hit = cache.up ? cache.entries.get(key) : undefined;
  if (hit && now - hit.cachedAt < CATALOG_CACHE_MS) return hit.value as T;
  const generation = cache.generation;
  const row = await load(handle.db);
  if (!row) {
    cache.entries.delete(key);
    return undefined;
  }
  const heldUntil = cache.held.get(teamId);
  if (heldUntil !== undefined && heldUntil <= now) cache.held.delete(teamId);
  const held = heldUntil !== undefined && heldUntil > now;
  if (cache.up && !held && cache.generation === generation) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(key, { teamId, value: row, cachedAt: now });
  }
  return row;
}

/** The team's number with these digits (sanitized), if registered: from the cache when it may be trusted. */
export function findSendingNumber(teamId: number, digits: string): Promise<SendingNumber | undefined> {
  return cached(teamId, numberKey(teamId, digits), async (db) => {
    const row = await findNumber(db, { teamId, number: digits });
    return row && { id: row.id, teamId: row.teamId, number: row.number, disabledAt: row.disabledAt };
  });
}

/** The template `name` usable from the number (its own first, then team-wide): from the cache when it may be trusted. */
export function findSendTemplate(teamId: number, waNumberId: number, name: string): Promise<TemplateRow | undefined> {
  return cached(teamId, templateKey(teamId, waNumberId, name), (db) => findTemplateForNumber(db, { teamId, waNumberId, name }));
}
