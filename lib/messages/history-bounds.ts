import type { HistoryWindow } from "./history-range";

/**
 * A history window as a range of message ids, so a page over the partitions of messages (by
 * RANGE (id), migration 0037) reads only the partitions that may hold the window, pruned by the
 * planner, also in a prepared statement's generic plan (docs/write-path.md, "History pages prune by id").
 *
 * The range comes from each partition's conservative created_at bounds
 * (message_partition_bounds, kept in the writers' transactions by
 * db/functions/message_partition_bounds.sql), cached here per process. The page statement itself
 * checks, in its own snapshot, that the range it was given covers every partition whose bounds
 * meet the window (messages_history_ids_cover); when the bounds have widened since they were
 * cached, it raises, the bounds are read again and the page asked again. So the cache only ever
 * costs a retry, never a row: a message whose created_at lies in the window is always inside the
 * range, whatever its id.
 */

/** Inclusive id bounds, as int4 (messages.id is a serial). */
export type IdRange = { lo: number; hi: number };

/** Every id: what a page falls back to, and what the statement's check can never reject. */
export const ALL_IDS: IdRange = { lo: -2147483648, hi: 2147483647 };

/** A partition's id range [lo, hi) and bounds of its rows' created_at (both null: no row). */
export type PartitionBounds = { lo: number; hi: number; minCreatedAt: Date | null; maxCreatedAt: Date | null };

/** SQLSTATE raised by messages_history_ids_cover when a range no longer covers its window. */
export const STALE_RANGE = "MH001";

// The window is wall-clock text in APP_TIMEZONE; the SQL makes it instants. Here it is widened by
// more than any time zone's offset (UTC-12 to UTC+14) instead, which can only take a partition more.
const ZONE_SLACK_MS = 26 * 3_600_000;

function wallUtcMs(text: string): number {
  return Date.parse(`${text.replace(" ", "T")}Z`);
}

/**
 * The ids of every partition whose bounds meet the window (widened by ZONE_SLACK_MS), with the
 * partitions between them. A window that meets no partition gets the lowest partition's first id
 * alone: still one partition to read, so the statement (and its check) runs rather than being
 * planned away.
 */
export function idRangeFor(bounds: PartitionBounds[], window: HistoryWindow): IdRange {
  const from = wallUtcMs(window.from) - ZONE_SLACK_MS;
  const to = window.toExclusive === null ? Infinity : wallUtcMs(window.toExclusive) + ZONE_SLACK_MS;
  let lo = Infinity;
  let hi = -Infinity;
  for (const b of bounds) {
    if (b.minCreatedAt === null || b.maxCreatedAt === null) continue;
    if (b.minCreatedAt.getTime() >= to || b.maxCreatedAt.getTime() < from) continue;
    lo = Math.min(lo, b.lo);
    hi = Math.max(hi, b.hi - 1);
  }
  if (lo === Infinity) {
    const first = Math.max(ALL_IDS.lo, Math.min(...bounds.map((b) => b.lo), 1));
    return { lo: first, hi: first };
  }
  return { lo: Math.max(lo, ALL_IDS.lo), hi: Math.min(hi, ALL_IDS.hi) };
}

/** Bounds kept this long are read again even without a failed check (new partitions, new days). */
const BOUNDS_TTL_MS = 60_000;

/**
 * Partition bounds read with `load` and kept for ttlMs (or until `fresh` asks again): the history's
 * id ranges below, and the conversation list's join floor (lib/conversations/recent-floor.ts).
 */
export class CachedBounds {
  private bounds: PartitionBounds[] | null = null;
  private readAt = 0;

  constructor(private readonly ttlMs = BOUNDS_TTL_MS) {}

  async get(load: () => Promise<PartitionBounds[]>, fresh = false): Promise<PartitionBounds[]> {
    if (fresh || !this.bounds || Date.now() - this.readAt > this.ttlMs) {
      this.bounds = await load();
      this.readAt = Date.now();
    }
    return this.bounds;
  }
}

/**
 * The process's cached bounds and the retry around a statement that checks its range: `run` gets
 * a range from the cache (reading the bounds with `load` when there are none or they are old);
 * if the statement says the range is stale, the bounds are read again and it runs once more; if
 * even that range is stale (bounds widened in between), it runs over every id.
 */
export class HistoryIdRanges {
  private readonly bounds: CachedBounds;

  constructor(
    private readonly isStale: (err: unknown) => boolean,
    ttlMs = BOUNDS_TTL_MS,
  ) {
    this.bounds = new CachedBounds(ttlMs);
  }

  async run<T>(load: () => Promise<PartitionBounds[]>, window: HistoryWindow, statement: (ids: IdRange) => Promise<T>): Promise<T> {
    try {
      return await statement(idRangeFor(await this.bounds.get(load), window));
    } catch (err) {
      if (!this.isStale(err)) throw err;
    }
    try {
      return await statement(idRangeFor(await this.bounds.get(load, true), window));
    } catch (err) {
      if (!this.isStale(err)) throw err;
    }
    return statement(ALL_IDS);
  }
}
