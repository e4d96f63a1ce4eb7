import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { requireNumber } from "@/lib/numbers/service";
import { subscribe } from "./bus";
import { registerOpenStream } from "./open-streams";
import { eventCursor, listEventsAfter, type EventFilter, type LogCursor } from "./repo";
import { registerStream } from "./stream-registry";
import type { EventStreamQuery, StoredEvent } from "./schemas";

/** Proxies close a silent connection after 30–60 s; a comment line every 15 s keeps it open. */
export const HEARTBEAT_MS = 15_000;
/** A reconnect is replayed from the log up to this many events; past it the client refetches. */
export const MAX_REPLAY = 10_000;
const REPLAY_PAGE = 1_000;
const LIVE_DEDUPE = 500;
/** A client this many chunks behind is dropped; it reconnects with Last-Event-ID and catches up. */
const MAX_QUEUED_CHUNKS = 5_000;

const encoder = new TextEncoder();

function frame(event: StoredEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

// A live batch goes to every matching stream of the process: it is serialized and encoded once,
// not once per stream (the bus hands the same array to every stream without a filter).
const encodedBatches = new WeakMap<StoredEvent[], Uint8Array>();
function encodedBatch(batch: StoredEvent[]): Uint8Array {
  let bytes = encodedBatches.get(batch);
  if (!bytes) encodedBatches.set(batch, (bytes = encoder.encode(batch.map(frame).join(""))));
  return bytes;
}

/** Ids already written to one stream, so the live feed and a replay never repeat an event. */
class RecentIds {
  private ids = new Set<number>();
  constructor(private capacity: number) {}
  shrinkTo(capacity: number) {
    this.capacity = capacity;
    if (this.ids.size > capacity) this.ids = new Set([...this.ids].slice(-capacity));
  }
  has(id: number) {
    return this.ids.has(id);
  }
  add(id: number) {
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }
}

/**
 * The caller's team's events as a Server-Sent Events body: live from this process's tail of the log, and,
 * given the last id the client saw (`Last-Event-ID`), first what it missed from the log. Live
 * events that arrive during the replay wait and follow it, so nothing is lost or repeated. If
 * the log can no longer fill the gap (pruned, or too long), an `event: reset` tells the client
 * to refetch what it shows before going on.
 *
 * The stream is registered under the caller's credential (stream-registry.ts): it ends when that
 * token is revoked or that session ends, and a token or agent holding too many streams, in all
 * processes together, gets a 429.
 */
export async function openEventStream({
  ctx,
  input,
  lastEventId,
  signal,
  heartbeatMs = HEARTBEAT_MS,
}: {
  ctx: AuthContext;
  input: EventStreamQuery;
  lastEventId?: number;
  signal: AbortSignal;
  heartbeatMs?: number;
}): Promise<ReadableStream<Uint8Array>> {
  // The slot is taken first (in Postgres, serialized per holder), so concurrent opens cannot pass the cap together.
  let end = () => {};
  const release = await registerStream(ctx, () => end());
  try {
    return await openRegisteredStream({ ctx, input, lastEventId, signal, heartbeatMs, release, onEnd: (close) => (end = close) });
  } catch (err) {
    release();
    throw err;
  }
}

async function openRegisteredStream({
  ctx,
  input,
  lastEventId,
  signal,
  heartbeatMs,
  release,
  onEnd,
}: {
  ctx: AuthContext;
  input: EventStreamQuery;
  lastEventId?: number;
  signal: AbortSignal;
  heartbeatMs: number;
  release: () => void;
  onEnd: (close: () => void) => void;
}): Promise<ReadableStream<Uint8Array>> {
  const filter: EventFilter = { contactId: input.contact_id };
  if (input.wa_number) filter.waNumberId = (await requireNumber(ctx, input.wa_number)).id;
  const from = lastEventId ?? input.last_event_id;

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let unsubscribe = () => {};
  let unregister = () => {};
  // Ids already written: every replayed one while the replay and the live events that waited
  // behind it are merged, then only the last few hundred (a LISTEN catch-up may repeat those).
  let pending: StoredEvent[] | null = from === undefined ? null : [];
  const sent = new RecentIds(pending ? MAX_REPLAY + 2_000 : LIVE_DEDUPE);
  const settle = () => sent.shrinkTo(LIVE_DEDUPE);

  const heartbeat = setInterval(() => write(": ping\n\n"), heartbeatMs);
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    unregister();
    release();
    try {
      controller.close();
    } catch {}
  };
  const write = (chunk: string | Uint8Array) => {
    if (closed) return;
    controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    if ((controller.desiredSize ?? 0) < -MAX_QUEUED_CHUNKS) close();
  };
  // One chunk per batch: a replay page is one enqueue, not a thousand. A live batch none of
  // whose events this stream has seen (the usual case) is written as the shared encoding.
  const send = (batch: StoredEvent[]) => {
    if (!batch.length) return;
    const fresh = batch.filter((event) => !sent.has(event.id));
    for (const event of fresh) sent.add(event.id);
    if (fresh.length === batch.length) write(encodedBatch(batch));
    else if (fresh.length) write(fresh.map(frame).join(""));
  };

  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel: close,
  });
  signal.addEventListener("abort", close, { once: true });
  // The credential ended (revoked, signed out, expired): the stream ends with it.
  onEnd(close);

  try {
    unsubscribe = await subscribe({
      teamId: ctx.teamId,
      ...filter,
      deliver: (events) => (pending ? pending.push(...events) : send(events)),
    });
  } catch (err) {
    close();
    throw err;
  }
  if (signal.aborted) close();
  write("retry: 3000\n: connected\n\n");
  // A shutdown ends the stream with a short retry hint: the client reconnects to another process.
  if (!closed)
    unregister = registerOpenStream((retryMs) => {
      write(`retry: ${retryMs}\n: server shutting down\n\n`);
      close();
    });

  if (from !== undefined && !closed) {
    const cursor = from > 0 ? await eventCursor(await getDb(), { teamId: ctx.teamId, id: from }) : undefined;
    const complete = !!cursor && (await replay(ctx.teamId, cursor, filter, send));
    if (!complete) write(`event: reset\ndata: {}\n\n`);
    const waiting = pending ?? [];
    pending = null;
    // In the tail's (log) order; those the replay already sent are skipped by id.
    send(waiting);
    settle();
  }
  return stream;
}

/**
 * Sends the log after `from` in the order the live tail reads it ((xact_id, id): an event that
 * committed after the one the client saw last comes after it, whatever its id); false when more
 * than MAX_REPLAY events were missed.
 */
async function replay(teamId: number, from: LogCursor, filter: EventFilter, send: (batch: StoredEvent[]) => void): Promise<boolean> {
  let after = from;
  for (let total = 0; total < MAX_REPLAY; total += REPLAY_PAGE) {
    const page = await listEventsAfter(await getDb(), { teamId, cursor: after, filter, limit: REPLAY_PAGE });
    send(page);
    if (page.length < REPLAY_PAGE) return true;
    const last = page[page.length - 1];
    after = { xact: last.xact!, id: last.id };
  }
  return false;
}
