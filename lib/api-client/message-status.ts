import type { Message } from "./types";

/** Ticks only move forward on the client too: shared by the inbox thread and the live viewer. */

// A status never moves backwards (docs/architecture.md, "Message lifecycle"); FAILED can come from any point.
const STATUS_RANK: Record<string, number> = { QUEUED: 1, SENDED: 2, SENT: 3, DELIVERED: 4, READED: 5, FAILED: 6, RECEIVED: 0 };

/**
 * The fetched copy of a cached message, unless the cache already holds a later status: a head
 * fetched before a `message.status` event may land after it (it waits for the thread to be idle),
 * and must not take the tick back.
 */
export function laterOf(cached: Message, fetched: Message | undefined): Message {
  if (!fetched) return cached;
  const had = STATUS_RANK[cached.status ?? ""] ?? 0;
  const got = STATUS_RANK[fetched.status ?? ""] ?? 0;
  return had > got ? { ...fetched, status: cached.status, error: cached.error ?? fetched.error } : fetched;
}

/** Whether `status` is an earlier tick than `than` (a copy holding it must not overwrite one holding `than`). */
export function isBehind(status: string | null | undefined, than: string | null | undefined): boolean {
  return (STATUS_RANK[status ?? ""] ?? 0) < (STATUS_RANK[than ?? ""] ?? 0);
}
