import { getHandle } from "@/db/client";
import { config } from "@/lib/config";
import { findEvents, listEventsAfter, pruneEventsBefore } from "./repo";
import type { StoredEvent } from "./schemas";

/**
 * This process's fan-out of the event log (DESIGN section 14): one LISTEN on `wa_events` for the
 * whole process, however many SSE clients it serves, and each committed event handed to the
 * subscribers of its team whose filters match. Events written by any other web process or worker
 * on the same Postgres arrive the same way; on PGlite, NOTIFY stays inside its one process.
 */
export type Subscriber = {
  teamId: number;
  waNumberId?: number;
  contactId?: number;
  /** Events in id order. Every subscriber without a filter gets the same array: cache by it. */
  deliver: (events: StoredEvent[]) => void;
};

type Bus = {
  subscribers: Map<number, Set<Subscriber>>;
  /** Highest event id seen per team, to catch up after the LISTEN connection comes back. */
  lastSeen: Map<number, number>;
  listening?: Promise<void>;
  listenedOnce: boolean;
  /** Live events waiting for the next flush, and when the last flush ran. */
  queue: StoredEvent[];
  flushTimer?: ReturnType<typeof setTimeout>;
  lastFlushAt: number;
};

// Dev reloads modules; the one listener must survive them, like the database handle.
const g = globalThis as unknown as { __waEventBus?: Bus };
const bus: Bus = (g.__waEventBus ??= { subscribers: new Map(), lastSeen: new Map(), listenedOnce: false, queue: [], lastFlushAt: 0 });

/**
 * Live events reach the streams at most once per FLUSH_MS, as one batch: an event after a quiet
 * spell goes out at once, and under load each stream gets one write per interval instead of one
 * per event (1,000 streams × 50 events/s is 50,000 socket writes a second; batched, 20,000 at
 * most, whatever the event rate). The price is at most FLUSH_MS of latency under load.
 */
export const FLUSH_MS = 50;

export const EVENTS_CHANNEL = "wa_events";

export function matches(sub: Subscriber, event: StoredEvent): boolean {
  if (sub.teamId !== event.teamId) return false;
  if (sub.waNumberId !== undefined && event.waNumberId !== sub.waNumberId) return false;
  if (sub.contactId !== undefined && event.contactId !== sub.contactId) return false;
  return true;
}

function dispatch(event: StoredEvent) {
  const seen = bus.lastSeen.get(event.teamId) ?? 0;
  if (event.id > seen) bus.lastSeen.set(event.teamId, event.id);
  bus.queue.push(event);
  if (bus.flushTimer) return;
  const wait = bus.lastFlushAt + FLUSH_MS - Date.now();
  if (wait <= 0) flush();
  else bus.flushTimer = setTimeout(flush, wait);
}

function flush() {
  bus.flushTimer = undefined;
  bus.lastFlushAt = Date.now();
  const queue = bus.queue.sort((a, b) => a.id - b.id);
  bus.queue = [];
  const byTeam = new Map<number, StoredEvent[]>();
  for (const event of queue) {
    const list = byTeam.get(event.teamId);
    if (list) list.push(event);
    else byTeam.set(event.teamId, [event]);
  }
  for (const [teamId, events] of byTeam) {
    for (const sub of bus.subscribers.get(teamId) ?? []) {
      const unfiltered = sub.waNumberId === undefined && sub.contactId === undefined;
      const mine = unfiltered ? events : events.filter((e) => matches(sub, e));
      if (!mine.length) continue;
      try {
        sub.deliver(mine);
      } catch (err) {
        console.error("[events] a subscriber failed", err instanceof Error ? err.message : err);
      }
    }
  }
}

type Notice = { id?: unknown; team_id?: unknown; type?: unknown; wa_number_id?: unknown; contact_id?: unknown; data?: unknown };

async function onNotify(payload: string) {
  let notice: Notice;
  try {
    notice = JSON.parse(payload) as Notice;
  } catch {
    return;
  }
  const id = Number(notice.id);
  const teamId = Number(notice.team_id);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(teamId)) return;
  // Nobody here listens for that team: nothing to do (its events stay in the log for replay).
  if (!bus.subscribers.get(teamId)?.size) return;
  if (typeof notice.type === "string") {
    dispatch({
      id,
      teamId,
      type: notice.type,
      waNumberId: notice.wa_number_id == null ? null : Number(notice.wa_number_id),
      contactId: notice.contact_id == null ? null : Number(notice.contact_id),
      data: notice.data,
    });
    return;
  }
  for (const event of await findEvents(teamId, [id])) dispatch(event);
}

/** After a reconnect of the LISTEN connection: what each subscribed team missed meanwhile. */
async function catchUp() {
  for (const [teamId, subs] of bus.subscribers) {
    if (!subs.size) continue;
    const after = bus.lastSeen.get(teamId);
    if (after === undefined) continue;
    for (const event of await listEventsAfter(teamId, after, {}, 10_000)) dispatch(event);
  }
}

function ensureListening(): Promise<void> {
  bus.listening ??= (async () => {
    const handle = await getHandle();
    await handle.listen(
      EVENTS_CHANNEL,
      (payload) => void onNotify(payload).catch((err) => console.error("[events] notify failed", err instanceof Error ? err.message : err)),
      () => {
        if (bus.listenedOnce)
          void catchUp().catch((err) => console.error("[events] catch-up failed", err instanceof Error ? err.message : err));
        bus.listenedOnce = true;
      },
    );
  })().catch((err) => {
    bus.listening = undefined;
    throw err;
  });
  return bus.listening;
}

/** Adds a subscriber once this process listens; returns its unsubscribe. */
export async function subscribe(sub: Subscriber): Promise<() => void> {
  await ensureListening();
  let set = bus.subscribers.get(sub.teamId);
  if (!set) bus.subscribers.set(sub.teamId, (set = new Set()));
  set.add(sub);
  return () => {
    set.delete(sub);
    if (!set.size) {
      bus.subscribers.delete(sub.teamId);
      bus.lastSeen.delete(sub.teamId);
    }
  };
}

/** Open streams in this process (for the bench and tests). */
export function subscriberCount(): number {
  let n = 0;
  for (const set of bus.subscribers.values()) n += set.size;
  return n;
}

/**
 * Deletes events past the retention (EVENTS_RETENTION_HOURS, at least 24) in batches, every
 * few minutes, in every process that calls it (web and worker alike; SKIP LOCKED shares the work).
 */
export function startEventPruner(everyMs = 10 * 60_000): () => void {
  const prune = async () => {
    const before = new Date(Date.now() - config.eventsRetentionHours * 3600_000);
    for (let i = 0; i < 100; i++) if ((await pruneEventsBefore(before, 5_000)) === 0) break;
  };
  const timer = setInterval(
    () => void prune().catch((err) => console.error("[events] prune failed", err instanceof Error ? err.message : err)),
    everyMs,
  );
  timer.unref();
  return () => clearInterval(timer);
}
