import "server-only";
import { getDb, transaction, type DbOrTx } from "@/db/client";
import { ApiError } from "@/lib/http/errors";
import { PROGRESS_EVERY_MS, announce } from "./announce";
import { statsOf } from "./dtos";
import {
  claimMaySend,
  failQueued,
  giveBackClaim,
  hasQueued,
  parkQueued,
  queuedRoutings,
  unparkQueued,
  type CancelWebhook,
} from "./messages-repo";
import { resolveRoute } from "@/lib/routing/service";
import {
  NOW,
  dueForProgress,
  lockBroadcast,
  lockForSweep,
  lockSendingOfTemplate,
  templateOfBroadcast,
  updateBroadcast,
  type BroadcastRow,
} from "./repo";
import { isSendableStatus, templateNotApproved } from "@/lib/templates/sendable";
import { BROADCAST_NOT_FOUND, cannotCancel, cannotPause, cannotResume, type BroadcastStatus } from "./schemas";

/**
 * A broadcast's life. Every change of its status is in this file:
 *
 *   SCHEDULED ──start──▶ SENDING ──finish──▶ DONE
 *        pause ↓ ↑ resume   pause ↓ ↑ resume
 *               PAUSED             (resume: back to SCHEDULED while its time is ahead, else SENDING)
 *   SCHEDULED, SENDING, PAUSED ──cancel──▶ CANCELLED
 *
 * pause, resume and cancel are asked for (the API's POST routes: requestTransition). start (the
 * scheduled time has come) and finish (the whole audience is enqueued and nothing is QUEUED) fall
 * due by themselves: the sweep applies them (sweepBroadcasts, run by the delivery worker about once
 * a second), and so does a write that holds the row anyway (a request, the end of an enqueue).
 * A read never moves a broadcast: GET answers what is stored.
 *
 * Each transition locks the broadcast row first, then touches its messages (the enqueue batches
 * take the same lock first, so a change waits for at most one batch), and announces the result
 * (`broadcast.updated`) in the same transaction.
 */

type Transition = { from: readonly BroadcastStatus[]; to: readonly BroadcastStatus[]; by: "request" | "due" };

/** Every transition, the states it leaves from and goes to, and what sets it off. */
export const TRANSITIONS = {
  start: { from: ["SCHEDULED"], to: ["SENDING"], by: "due" },
  finish: { from: ["SENDING"], to: ["DONE"], by: "due" },
  pause: { from: ["SCHEDULED", "SENDING"], to: ["PAUSED"], by: "request" },
  resume: { from: ["PAUSED"], to: ["SENDING", "SCHEDULED"], by: "request" },
  cancel: { from: ["SCHEDULED", "SENDING", "PAUSED"], to: ["CANCELLED"], by: "request" },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TRANSITIONS;
export type RequestedTransition = { [K in TransitionName]: (typeof TRANSITIONS)[K]["by"] extends "request" ? K : never }[TransitionName];

export function allows(name: TransitionName, status: BroadcastStatus): boolean {
  return (TRANSITIONS[name].from as readonly BroadcastStatus[]).includes(status);
}

/**
 * The states whose messages may leave. SCHEDULED too: its messages are due only from its time on
 * (the claim takes due rows only), and one claimed before the sweep has started the broadcast is
 * sent, not held back a second.
 */
export const SENDS_IN = ["SCHEDULED", "SENDING"] as const satisfies readonly BroadcastStatus[];

/** The 409 text of a transition asked for in a state it does not leave from (the contract's wording). */
const REFUSED: Record<RequestedTransition, (s: BroadcastStatus) => string> = {
  pause: cannotPause,
  resume: cannotResume,
  cancel: cannotCancel,
};

/** What each asked-for transition does, on the locked row; returns the row after it. */
const REQUESTED: Record<RequestedTransition, (tx: DbOrTx, row: BroadcastRow, now: number) => Promise<BroadcastRow>> = {
  /** Its queued messages leave the queue: the worker sends none of them. */
  async pause(tx, row) {
    await parkQueued(tx, { teamId: row.teamId, id: row.id });
    return updateBroadcast(tx, { teamId: row.teamId, id: row.id, values: { status: "PAUSED" } });
  },
  /**
   * Its messages are due again (at its time if that is still ahead), paced as always. Not while
   * its template cannot be sent (paused, disabled… by Meta): 409 naming the template's status.
   */
  async resume(tx, row, now) {
    const template = await templateOfBroadcast(tx, row);
    if (template && !isSendableStatus(template.status)) {
      throw ApiError.conflict(templateNotApproved(template.name, template.status, template.rejectedReason));
    }
    const future = row.scheduledAt && row.scheduledAt.getTime() > now ? row.scheduledAt : null;
    await unparkQueued(tx, { teamId: row.teamId, id: row.id, at: future ?? new Date(now) });
    return updateBroadcast(tx, {
      teamId: row.teamId,
      id: row.id,
      values: {
        status: future ? "SCHEDULED" : "SENDING",
        startedAt: future ? null : (row.startedAt ?? new Date(now)),
        pausedReason: null,
      },
    });
  },
  /** What is not sent yet is never sent (FAILED "Difusión cancelada"). */
  async cancel(tx, row) {
    await failQueued(tx, { teamId: row.teamId, id: row.id, webhooks: await cancelWebhooks(tx, row) });
    return updateBroadcast(tx, { teamId: row.teamId, id: row.id, values: { status: "CANCELLED", finishedAt: NOW } });
  },
};

/**
 * Pause, resume or cancel one broadcast of the team: 404 when it is not the team's, 409 (with the
 * contract's text) when its stored status does not allow it. What the change makes due (a resumed
 * broadcast with nothing left QUEUED is DONE) is applied in the same transaction.
 */
export async function requestTransition(teamId: number, id: number, name: RequestedTransition): Promise<void> {
  await transaction(async (tx) => {
    const row = await lockBroadcast(tx, { teamId, id });
    if (!row) throw ApiError.notFound(BROADCAST_NOT_FOUND);
    if (!allows(name, row.status)) throw ApiError.conflict(REFUSED[name](row.status));
    const changed = await REQUESTED[name](tx, row, Date.now());
    const { row: after } = await advance(tx, changed);
    await announce(tx, after);
  });
}

/**
 * Meta made the template unsendable (paused, disabled…: lib/templates/meta-updates.ts): each of its
 * broadcasts that may still send is paused like an agent's pause (its queued messages leave the
 * queue), with the reason kept (`paused_reason`) and announced, in the caller's transaction. It is
 * not resumed by itself when Meta approves the template again: an agent resumes it
 * (docs/features/templates-and-number-health.md says why). Returns how many were paused.
 */
export async function pauseForTemplate(tx: DbOrTx, { teamId, templateId, reason }: { teamId: number; templateId: number; reason: string }) {
  const rows = await lockSendingOfTemplate(tx, { teamId, templateId });
  for (const row of rows) {
    await parkQueued(tx, { teamId, id: row.id });
    const after = await updateBroadcast(tx, { teamId, id: row.id, values: { status: "PAUSED", pausedReason: reason } });
    await announce(tx, after);
  }
  return rows.length;
}

const startDue = (row: BroadcastRow, now: number) => allows("start", row.status) && !!row.scheduledAt && row.scheduledAt.getTime() <= now;

/** What each transition that falls due does, on the locked row: the row after it, or null when it is not due. */
const DUE: Record<
  Exclude<TransitionName, RequestedTransition>,
  (tx: DbOrTx, row: BroadcastRow, now: number) => Promise<BroadcastRow | null>
> = {
  /** Its time has come. Started at its time, however late the sweep got to it. */
  async start(tx, row, now) {
    if (!startDue(row, now)) return null;
    return updateBroadcast(tx, { teamId: row.teamId, id: row.id, values: { status: "SENDING", startedAt: row.scheduledAt } });
  },
  /** The whole audience is enqueued and nothing is QUEUED. */
  async finish(tx, row) {
    if (!allows("finish", row.status) || !row.enqueuedAt || (await hasQueued(tx, { teamId: row.teamId, id: row.id }))) return null;
    return updateBroadcast(tx, { teamId: row.teamId, id: row.id, values: { status: "DONE", finishedAt: NOW } });
  },
};

/**
 * The transitions due by themselves, on a locked row, in order (a broadcast started late may
 * finish in the same pass), and, for a cancelled broadcast, failing the messages a worker held
 * during the cancel once they are given back. Returns the row after them and whether anything
 * changed.
 */
export async function advance(tx: DbOrTx, row: BroadcastRow, now = Date.now()): Promise<{ row: BroadcastRow; changed: boolean }> {
  let current = row;
  let changed = false;
  for (const name of ["start", "finish"] as const) {
    const next = await DUE[name](tx, current, now);
    if (next) [current, changed] = [next, true];
  }
  if (current.status === "CANCELLED" && (await hasQueued(tx, { teamId: row.teamId, id: row.id }))) {
    changed = (await failQueued(tx, { teamId: row.teamId, id: row.id, webhooks: await cancelWebhooks(tx, row) })) > 0 || changed;
  }
  return { row: current, changed };
}

/**
 * Where the cancelled messages' `message.status` deliveries go: each routing of the broadcast's
 * queued messages resolved by the one routing rule (resolveRoute), kept when its bot or campaign
 * has a webhook URL. The rows themselves are failed and reported in SQL (failQueued), so a
 * cancelled broadcast of 100,000 recipients never passes through this process.
 */
async function cancelWebhooks(tx: DbOrTx, row: BroadcastRow): Promise<CancelWebhook[]> {
  const out: CancelWebhook[] = [];
  for (const key of await queuedRoutings(tx, { teamId: row.teamId, id: row.id })) {
    const { target } = await resolveRoute(tx, row.teamId, key, "outbound");
    if (target?.webhookUrl) out.push({ ...key, targetKind: target.kind, targetId: target.id, url: target.webhookUrl });
  }
  return out;
}

/** Whether a row may have something due (a cheap test before advance's queries). */
export function mayAdvance(row: BroadcastRow, now = Date.now()): boolean {
  if (row.status === "SCHEDULED") return startDue(row, now);
  if (row.status === "SENDING") return !!row.enqueuedAt;
  // A worker gives a held message back within its lease; ten minutes covers any lease.
  return row.status === "CANCELLED" && !!row.finishedAt && now - row.finishedAt.getTime() < 10 * 60_000;
}

/**
 * One sweep (the delivery worker runs it about once a second): each broadcast still moving gets
 * its due transitions and, when its status or counts changed since its last event, a
 * `broadcast.updated`. A broadcast another process is sweeping is skipped (SKIP LOCKED); one
 * announced less than PROGRESS_EVERY_MS ago is looked at only when a transition may be due
 * (dueForProgress), so counts are announced at most about once a second per broadcast whatever the
 * number of workers, and a status change waits for the next sweep only.
 */
export async function sweepBroadcasts(teamIds?: number[]): Promise<number> {
  const due = await dueForProgress(await getDb(), { minAgeMs: PROGRESS_EVERY_MS, limit: 50, teamIds });
  let announced = 0;
  for (const { teamId, id } of due) {
    announced += await transaction(async (tx) => {
      const locked = await lockForSweep(tx, { teamId, id });
      if (!locked) return 0;
      const { row } = mayAdvance(locked) ? await advance(tx, locked) : { row: locked };
      const counts = (await statsOf(tx, teamId, [row])).get(row.id)!.counts;
      if (JSON.stringify([row.status, counts]) === row.progressKey) {
        await updateBroadcast(tx, { teamId, id, values: { progressAt: NOW } });
        return 0;
      }
      await announce(tx, row, counts);
      return 1;
    });
  }
  return announced;
}

/** An enqueue goes on in every state but CANCELLED (a paused broadcast's messages are enqueued parked). */
export const enqueueGoesOn = (status: BroadcastStatus) => status !== "CANCELLED";

/** When a message enqueued now is due: never while paused (the resume sets it), at the scheduled time while that is ahead, else now. */
export function messagesDue(row: BroadcastRow, now = Date.now()): "parked" | "now" | Date {
  if (row.status === "PAUSED") return "parked";
  if (row.scheduledAt && row.scheduledAt.getTime() > now) return row.scheduledAt;
  return "now";
}

/**
 * The whole audience is in (enqueue.ts, once per broadcast): from now on the broadcast finishes
 * once nothing is QUEUED, which may be at once (every recipient rejected), so that is applied here;
 * and its real counts are announced (the create announces nothing, as nothing was enqueued yet)
 * rather than left to the next sweep.
 */
export async function audienceEnqueued(teamId: number, id: number): Promise<void> {
  await transaction(async (tx) => {
    const row = await lockBroadcast(tx, { teamId, id });
    if (!row || row.enqueuedAt) return;
    const marked = await updateBroadcast(tx, { teamId, id, values: { enqueuedAt: NOW } });
    const { row: after } = await advance(tx, marked);
    await announce(tx, after);
  });
}

// ---- The delivery worker's fence: its last check before a broadcast message leaves, and its give-back ----

/**
 * Whether a claimed broadcast message may leave now: still QUEUED under this claim, and its
 * broadcast in a state that sends (a pause or cancel committed since the claim stops it here), and
 * its contact not opted out of its MARKETING template since the claim (messages-repo.ts claimMaySend).
 */
export async function broadcastMaySend(messageId: number, attempts: number): Promise<boolean> {
  return claimMaySend(await getDb(), { messageId, attempts, sending: SENDS_IN });
}

/** Gives a stopped claim back, the attempt uncounted: parked while its broadcast does not send, else due again (messages-repo.ts giveBackClaim). */
export async function parkClaim(messageId: number, attempts: number): Promise<void> {
  await giveBackClaim(await getDb(), { messageId, attempts, sending: SENDS_IN });
}
