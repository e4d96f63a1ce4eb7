import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { currentHorizon, tailEvents, type LogCursor } from "./repo";
import type { StoredEvent } from "./schemas";

/**
 * This process's fan-out of the event log (docs/architecture.md, "Live events"; docs/write-path.md): one tail of the `events`
 * table for the whole process, however many SSE clients it serves, and each committed event
 * handed to the subscribers of its team whose filters match. Events written by any other web
 * process, worker or hand-written SQL on the same Postgres are read the same way.
 *
 * Writers announce nothing (a NOTIFY in a writing transaction takes an instance-wide lock at
 * commit). The tail polls every EVENTS_POLL_MS while anyone here is subscribed, reading from its
 * cursor only the events of transactions older than the oldest one still running, in
 * (xact_id, id) order: an event with a lower id whose transaction commits later than a higher one
 * is read after it, never skipped. A failed poll (the database away) simply tries again from
 * the same cursor, so nothing is lost across a lost connection either. Its price: a transaction
 * left open holds every stream back until it ends, so write transactions stay short.
 */
export type Subscriber = {
  teamId: number;
  waNumberId?: number;
  contactId?: number;
  /** Events in log order. Every subscriber without a filter gets the same array: cache by it. */
  deliver: (events: StoredEvent[]) => void;
};

type Bus = {
  subscribers: Map<number, Set<Subscriber>>;
  /** Where the tail reads next; undefined while nobody is subscribed (a new start reads the horizon). */
  cursor?: LogCursor;
  polling: boolean;
  /** Resolves the current poll loop's wait early (a new subscriber, or stop). */
  wake?: () => void;
  /** Live events waiting for the next flush, and when the last flush ran. */
  queue: StoredEvent[];
  flushTimer?: ReturnType<typeof setTimeout>;
  lastFlushAt: number;
  /** Reads of the log begun, who waits for one to be delivered (nextTailRead), and what runs after the next flush. */
  reads?: number;
  readWaiters?: { after: number; resolve: () => void }[];
  afterFlush?: (() => void)[];
};

// Dev reloads modules; the one tail must survive them, like the database handle.
const g = globalThis as unknown as { __waEventTail?: Bus };
const bus: Bus = (g.__waEventTail ??= { subscribers: new Map(), polling: false, queue: [], lastFlushAt: 0 });

/**
 * Live events reach the streams at most once per FLUSH_MS, as one batch: an event after a quiet
 * spell goes out at once, and under load each stream gets one write per interval instead of one
 * per event (1,000 streams × 50 events/s is 50,000 socket writes a second; batched, 20,000 at
 * most, whatever the event rate). The price is at most FLUSH_MS of latency under load.
 */
export const FLUSH_MS = 50;
/** Events read per poll at most; a full page is followed by the next at once. */
const TAIL_PAGE = 2_000;

export function matches(sub: Subscriber, event: StoredEvent): boolean {
  if (sub.teamId !== event.teamId) return false;
  if (sub.waNumberId !== undefined && event.waNumberId !== sub.waNumberId) return false;
  if (sub.contactId !== undefined && event.contactId !== sub.contactId) return false;
  return true;
}

function dispatch(events: StoredEvent[]) {
  bus.queue.push(...events);
  if (bus.flushTimer) return;
  const wait = bus.lastFlushAt + FLUSH_MS - Date.now();
  if (wait <= 0) flush();
  else bus.flushTimer = setTimeout(flush, wait);
}

function flush() {
  bus.flushTimer = undefined;
  bus.lastFlushAt = Date.now();
  // Already in log order: the tail reads it so.
  const queue = bus.queue;
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
  const after = bus.afterFlush;
  bus.afterFlush = undefined;
  after?.forEach((f) => f());
}

/** Read `n` of the log has ended: its waiters resolve once what it read has been delivered. */
function readEnded(n: number) {
  const waiters = bus.readWaiters ?? [];
  const due = waiters.filter((w) => n > w.after);
  if (!due.length) return;
  bus.readWaiters = waiters.filter((w) => n <= w.after);
  const resolve = () => due.forEach((w) => w.resolve());
  if (bus.flushTimer) (bus.afterFlush ??= []).push(resolve);
  else resolve();
}

/** One read of the log from the cursor; true when a full page came back (more is waiting). */
async function pollOnce(): Promise<boolean> {
  const teams = [...bus.subscribers.keys()];
  if (!teams.length || !bus.cursor) return false;
  const { horizon, events } = await tailEvents(await getDb(), { cursor: bus.cursor, teamIds: teams, limit: TAIL_PAGE });
  const full = events.length === TAIL_PAGE;
  const last = events[events.length - 1];
  bus.cursor = full ? { xact: last.xact!, id: last.id } : { xact: horizon, id: 0 };
  if (events.length) dispatch(events);
  return full;
}

async function pollLoop() {
  let failures = 0;
  while (bus.subscribers.size) {
    let full = false;
    const n = (bus.reads = (bus.reads ?? 0) + 1);
    try {
      bus.cursor ??= { xact: await currentHorizon(await getDb()), id: 0 };
      full = await pollOnce();
      failures = 0;
      readEnded(n);
    } catch (err) {
      // The database away: the same cursor is read again once it is back; nothing is lost.
      if (failures++ === 0) console.error(`[events] tail failed (${(err as { code?: string })?.code ?? "error"}); retrying`);
    }
    if (full) continue;
    const wait = failures ? Math.min(5000, config.eventsPollMs * 2 ** failures) : config.eventsPollMs;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      bus.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    bus.wake = undefined;
  }
  bus.polling = false;
  bus.cursor = undefined;
  readEnded(Infinity);
}

/**
 * Resolves once a read of the log that began after this call has ended and what it read has been
 * delivered (or the tail stopped: nobody is subscribed). The tail is woken to read at once. What a
 * check that an event was not delivered waits for, instead of a guessed delay.
 */
export function nextTailRead(): Promise<void> {
  if (!bus.polling) return Promise.resolve();
  const done = new Promise<void>((resolve) => (bus.readWaiters ??= []).push({ after: bus.reads ?? 0, resolve }));
  bus.wake?.();
  return done;
}

/**
 * Adds a subscriber; returns its unsubscribe once the tail's cursor is set, so every event
 * committed after this returns reaches it (the caller replays what came before from the log).
 */
export async function subscribe(sub: Subscriber): Promise<() => void> {
  // Reading the horizon first: a subscriber that arrives while nobody else is subscribed starts
  // the tail there, and a failure here (the database away) fails the subscription, not the tail.
  const start = bus.cursor ? undefined : await currentHorizon(await getDb());
  let set = bus.subscribers.get(sub.teamId);
  if (!set) bus.subscribers.set(sub.teamId, (set = new Set()));
  set.add(sub);
  if (!bus.cursor && start !== undefined) bus.cursor = { xact: start, id: 0 };
  if (!bus.polling) {
    bus.polling = true;
    void pollLoop();
  }
  return () => {
    set.delete(sub);
    if (!set.size) bus.subscribers.delete(sub.teamId);
  };
}

/** Open streams in this process (for the bench and tests). */
export function subscriberCount(): number {
  let n = 0;
  for (const set of bus.subscribers.values()) n += set.size;
  return n;
}
