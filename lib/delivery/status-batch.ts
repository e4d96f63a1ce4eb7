import type { ChannelNumber, StatusUpdate } from "@/lib/channels/types";
import { applyStatusBatch, receiveStatus, type StatusOutcome } from "./status";

/**
 * Group commit for status webhooks (docs/write-path.md, "The cheapest status write we could make"). Meta sends one status per webhook at its
 * rate, hundreds a second per number; one transaction each would pay a BEGIN, a COMMIT (a disk
 * flush) and a statement per status. Here every request's statuses join a process-wide queue
 * together; at most MAX_IN_FLIGHT transactions apply it, each taking all that waits (up to
 * MAX_BATCH) in one statement (applyStatusBatch). Alone, a status is applied at once, as before;
 * under load the batches grow by themselves while the previous ones commit. Each caller's
 * promise settles only after the transaction holding its status committed, so a 200 still means
 * stored. When a batch fails, nothing of it was stored and each status is taken again on its own
 * (receiveStatus: its own transaction, deadlock retries, parked as `retry`), so one bad status
 * costs its neighbours nothing but the retry.
 */
const MAX_IN_FLIGHT = 2;
const MAX_BATCH = 200;

type Outcome = StatusOutcome | "parked";
type Settled = PromiseSettledResult<Outcome>;

/** One request's statuses: never split between transactions, so they apply in their order. */
type Waiting = {
  items: { number: ChannelNumber; update: StatusUpdate }[];
  done: (results: Settled[]) => void;
  /** Aborted when the request's client has gone: its statuses are then dropped unapplied. */
  signal?: AbortSignal;
};

/** The reason of a status dropped from the queue because its request's client had gone. */
export class StatusAbandonedError extends Error {
  constructor() {
    super("status dropped: its webhook's client had gone before its batch began");
    this.name = "StatusAbandonedError";
  }
}

const queue: Waiting[] = [];
let inFlight = 0;

/**
 * Applies or parks each status, grouped with whatever else is arriving; settles once committed,
 * one result per status (rejected: that status failed on its own transaction too).
 */
export function receiveStatusesGrouped(items: { number: ChannelNumber; update: StatusUpdate }[], signal?: AbortSignal): Promise<Settled[]> {
  if (!items.length) return Promise.resolve([]);
  return new Promise((done) => {
    queue.push({ items, done, signal });
    pump();
  });
}

/**
 * Settles the waiting requests whose client has gone without applying their statuses: a backlog
 * of retries would otherwise be worked through for clients no longer listening (Meta redelivers
 * what got no answer).
 */
function dropAbandoned() {
  for (let i = queue.length - 1; i >= 0; i--) {
    const w = queue[i];
    if (!w.signal?.aborted) continue;
    queue.splice(i, 1);
    w.done(w.items.map(() => ({ status: "rejected", reason: new StatusAbandonedError() })));
  }
}

function pump() {
  if (inFlight < MAX_IN_FLIGHT) dropAbandoned();
  while (inFlight < MAX_IN_FLIGHT && queue.length) {
    let size = queue[0].items.length;
    let take = 1;
    while (take < queue.length && size + queue[take].items.length <= MAX_BATCH) size += queue[take++].items.length;
    const batch = queue.splice(0, take);
    inFlight++;
    void flush(batch).finally(() => {
      inFlight--;
      pump();
    });
  }
}

async function flush(batch: Waiting[]) {
  let outcomes: StatusOutcome[];
  try {
    outcomes = await applyStatusBatch(batch.flatMap((w) => w.items));
  } catch {
    for (const w of batch) {
      const results: Settled[] = [];
      for (const { number, update } of w.items) {
        try {
          results.push({ status: "fulfilled", value: await receiveStatus(number, update) });
        } catch (reason) {
          results.push({ status: "rejected", reason });
        }
      }
      w.done(results);
    }
    return;
  }
  let at = 0;
  for (const w of batch) w.done(w.items.map(() => ({ status: "fulfilled", value: outcomes[at++] })));
}
