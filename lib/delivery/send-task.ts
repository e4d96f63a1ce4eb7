import { getDb } from "@/db/client";
import type { ProviderError } from "@/db/schema";
import { SENDS_IN, broadcastMaySend } from "@/lib/broadcasts/lifecycle";
import { giveBackClaim } from "@/lib/broadcasts/messages-repo";
import { admitWithinLimit, tierLimit } from "@/lib/broadcasts/messaging-limit";
import { withSecrets } from "@/lib/channels/credentials";
import type { ChannelAdapter, ChannelNumber, SendOutcome as ProviderOutcome } from "@/lib/channels/types";
import { MARKETING_OPTED_OUT_AT_SEND, optOutOnProviderError } from "@/lib/contacts/opt-out";
import { adapterFor } from "./channels";
import type { TaskKind } from "./claim-loop";
import { batchLookups, buildOutbound, isFreeForm, type Lookups, type Outbound } from "./provider-message";
import { retryOrFail, skip, type Outcome } from "./outcome";
import type { Pacer } from "./pacing";
import {
  claimMessages,
  findNumbersByIds,
  loadMessages,
  markFailed,
  markSendedMany,
  releaseMany,
  rescheduleMany,
  type Claim,
  type MessageRow,
} from "./repo";
import { logFailure, type Settle, type Writes } from "./settle";
import { applyStatusUpdates, queueStatusWebhook, queueStatusWebhooks } from "./status";

/**
 * The send task: one message's life from its claim to its last status, step by step.
 *
 * 1. Queued. A send (lib/messages/send-service.ts) or a broadcast (lib/broadcasts/enqueue.ts)
 *    inserts the row QUEUED with next_attempt_at; the row is its own delivery job.
 * 2. Claimed. `claim` → claimMessages (repo.ts): a lease (locked_until) and a fence (attempts + 1,
 *    which every later write checks), at most about a second of sends per number; a send a crash
 *    left uncertain only after the uncertain grace, and never one a parked status names (the
 *    double-send guard: that status proves the send reached the provider). The same statement
 *    reads consent: a MARKETING template to a contact who opted out since it was queued.
 * 3. Loaded and built. `runBatch` → loadMessages and findNumbersByIds (one query each per batch),
 *    `prepare` (still QUEUED under this claim? refused by the contact's opt-out: FAILED, never
 *    sent; attempts left?), buildOutbound (provider-message.ts: the template or reply, its
 *    attachment uploaded once per number).
 * 3b. Within the messaging limit. `withinLimit` → admitWithinLimit (lib/broadcasts/messaging-limit.ts):
 *    a broadcast message that would open a conversation beyond what is left of its number's
 *    limit goes back to the queue, due when the rolling window frees room (not failed, the
 *    attempt uncounted); the others are stamped as counted.
 * 4. Paced. `sendGroup` → pacer.reserve (pacing.ts: leases stretched over the slots, one slot
 *    reservation per number on wa_numbers.next_send_at); `sendAt` → pacer.waitTurn.
 * 5. Last check. A broadcast paused or cancelled since the claim, or its contact opted out of its
 *    MARKETING template since then: the claim is given back (held; the next claim fails the latter).
 * 6. Sent. adapter.sendTemplate / sendMessage (lib/channels).
 * 7. Settled. `sendAt` returns the outcome (outcome.ts: ok / retry / fail / release), the claim
 *    loop's one settle path (settle.ts, group commits) writes it through `sendWrites` below:
 *    SENDED with the provider's id, its history row and `message.status` webhook; back to the
 *    queue after a backoff (no sooner than the uncertain grace when it may have reached the
 *    provider); FAILED, opting the contact out of marketing on 131050; or released uncounted.
 * 8. Statuses. The sandbox walks its statuses in-process (adapter.afterAccepted; a stopped walk is
 *    resumed by walks.ts); Meta's status webhooks land in status.ts (grouped by status-batch.ts),
 *    which also adopts the wamid of a send whose SENDED a crash never committed, and parks a
 *    status that cannot apply yet (parked-statuses.ts).
 */

/** A claimed send as its settle needs it: the fence, and what its status webhook and events carry. */
export type Sending = Claim & { teamId: number; numberDigits: string };
export type SendOutcome = Outcome<{ providerMessageId: string }, ProviderError>;
type Failure = Extract<ProviderOutcome, { ok: false }>;

export type SendTaskOptions = {
  concurrency: number;
  leaseMs: number;
  claimAheadSec: number;
  uncertainGraceMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  sandboxStepMs: number;
  teamIds?: number[];
  pacer: Pacer;
  /** Aborted when the worker stops: ends the slot waits at once. */
  stopping: AbortSignal;
  state: () => "running" | "stopping" | "killed";
  /** When this worker started (uncertain sends are claimed only a grace after it). */
  startedAt: () => number;
};

/** Step 7's writers: each outcome of a send, fenced by its claim (repo.ts), in the settle's transaction. */
export const sendWrites: Writes<Sending, SendOutcome> = {
  async ok(tx, xs) {
    const rows = await markSendedMany(
      tx,
      xs.map(({ item, outcome }) => ({ c: item, teamId: item.teamId, providerMessageId: outcome.providerMessageId })),
    );
    const digits = new Map(xs.map(({ item }) => [item.id, item.numberDigits]));
    await queueStatusWebhooks(
      tx,
      rows.map((row) => ({ row, numberDigits: digits.get(row.id) ?? "" })),
      "QUEUED",
    );
    return rows.map((r) => r.id);
  },
  retry: (tx, xs) =>
    rescheduleMany(
      tx,
      xs.map(({ item, outcome }) => ({ c: item, delayMs: outcome.afterMs, error: outcome.reason })),
    ),
  async fail(tx, xs) {
    const moved: number[] = [];
    for (const { item, outcome } of xs) {
      const row = await markFailed(tx, { claim: item, teamId: item.teamId, error: outcome.reason });
      if (!row) continue;
      await queueStatusWebhook(tx, row, "QUEUED", item.numberDigits);
      // 131050: the customer stopped marketing messages at WhatsApp; later MARKETING sends are refused here.
      await optOutOnProviderError(tx, item.teamId, row.contactId, outcome.reason);
      moved.push(row.id);
    }
    return moved;
  },
  async release(tx, xs) {
    const moved = await releaseMany(
      tx,
      xs.filter((x) => !x.outcome.held).map((x) => x.item),
    );
    // Held by its broadcast: parked while the broadcast does not send, else due again
    // (giveBackClaim, which does not say whether it moved the row).
    for (const { item } of xs.filter((x) => x.outcome.held)) {
      await giveBackClaim(tx, { messageId: item.id, attempts: item.attempts, sending: SENDS_IN });
      moved.push(item.id);
    }
    return moved;
  },
};

/**
 * A send (or its build) that did not go through: retried after a backoff while attempts remain
 * (no sooner than the uncertain grace when the request may have reached the provider: its status
 * webhook may adopt it), else failed.
 */
export function sendFailureOutcome(
  c: Claim,
  f: Omit<Failure, "ok">,
  o: { maxAttempts: number; backoffBaseMs: number; backoffCapMs: number; uncertainGraceMs: number },
): SendOutcome {
  return retryOrFail(
    c.attempts,
    { maxAttempts: o.maxAttempts, baseMs: o.backoffBaseMs, capMs: o.backoffCapMs },
    { retryable: f.retryable, reason: f.error, retryAfterMs: f.retryAfterMs, floorMs: f.uncertain ? o.uncertainGraceMs : undefined },
  );
}

/**
 * Step 7 and 8 for one send: settles its outcome and, once SENDED is committed, hands it to the
 * adapter's own follow-up (the sandbox's status walk). Resolves whether the row moved.
 */
export async function settleSend(
  settle: Settle<Sending, SendOutcome>,
  r: { c: Sending; number: ChannelNumber; adapter: ChannelAdapter },
  outcome: SendOutcome,
  o: { sandboxStepMs: number; killed: () => boolean },
): Promise<boolean> {
  const moved = await settle(r.c, outcome);
  if (moved && outcome.kind === "ok" && !o.killed()) {
    r.adapter.afterAccepted?.(r.number, outcome.providerMessageId, { report: applyStatusUpdates, stepMs: o.sandboxStepMs });
  }
  return moved;
}

/** The send kind of claimed work (worker.ts registers it). */
export function sendTask(o: SendTaskOptions): TaskKind<Claim, Sending, SendOutcome> {
  const { pacer } = o;
  const failed = (c: Claim, f: Omit<Failure, "ok">) => sendFailureOutcome(c, f, o);
  const killed = () => o.state() === "killed";

  type Ready = { c: Sending; m: MessageRow; number: ChannelNumber; adapter: ChannelAdapter; message: Outbound };

  /** Step 2: claims due sends, noting this worker's own reckoning of when each lease ends. */
  async function claim(limit: number): Promise<Claim[]> {
    const claimedAt = Date.now();
    // Sends whose outcome a crash left unknown are claimed only once this worker has run for
    // the grace itself: their status webhooks (which prove a send and adopt its wamid) could not
    // land while the deployment was down, and Meta is retrying them only now.
    const takeUncertain = Date.now() - o.startedAt() >= o.uncertainGraceMs;
    const claims = await claimMessages(await getDb(), {
      limit,
      leaseMs: o.leaseMs,
      aheadSec: o.claimAheadSec,
      teamIds: o.teamIds,
      uncertainGraceMs: o.uncertainGraceMs,
      takeUncertain,
    });
    return claims.map((c) => ({ ...c, leaseEnd: claimedAt + o.leaseMs }));
  }

  /**
   * Step 3: checks a claimed message and builds its send; undefined when it was settled here
   * (no longer this claim's, its number gone, out of attempts, or a build that failed).
   */
  async function prepare(
    c: Claim,
    m: MessageRow | undefined,
    number: ChannelNumber | undefined,
    lookups: Lookups,
    settle: Settle<Sending, SendOutcome>,
  ): Promise<Ready | undefined> {
    if (!m || m.status !== "QUEUED" || m.attempts !== c.attempts) return void (await settle(c, skip));
    const s: Sending = { ...c, teamId: m.teamId, numberDigits: number?.number ?? "" };
    // Opted out of marketing since this MARKETING template was queued (the claim read it): failed
    // through the one settle path like any failure (its history row, message.status, the stats).
    if (c.marketingRefused) return void (await settle(s, { kind: "fail", reason: { ...MARKETING_OPTED_OUT_AT_SEND } }));
    if (!number) return void (await settle(s, { kind: "fail", reason: { code: null, title: "The sending number no longer exists" } }));
    if (c.attempts > o.maxAttempts) {
      // Claimed again after crashes ate every attempt: stop here rather than risk yet another send.
      const reason = m.error ?? { code: null, title: `Gave up after ${o.maxAttempts} attempts` };
      return void (await settle(s, { kind: "fail", reason }));
    }
    const adapter = adapterFor(number.provider);
    const built = await buildOutbound(m, number, adapter, lookups);
    if (!built.ok) return void (await settle(s, failed(c, built)));
    return { c: s, m, number, adapter, message: built.message };
  }

  /**
   * Step 4: one number's share of a claim: one lease statement and one slot reservation for all
   * its messages (pacer.reserve), instead of a locked, flushed UPDATE per message. Each message
   * then leaves at its own slot and is settled as it ends.
   */
  async function sendGroup(items: Ready[], settle: Settle<Sending, SendOutcome>) {
    const state = o.state();
    if (state === "killed") return;
    if (state !== "running") return void (await Promise.all(items.map((r) => settle(r.c, { kind: "release" }))));
    const slotted = await pacer.reserve(items);
    // A claim lost to another worker meanwhile (its slot simply goes unused): nothing to write.
    const kept = new Set(slotted.map((s) => s.r.c.id));
    for (const r of items) if (!kept.has(r.c.id)) void settle(r.c, skip);
    await Promise.all(
      slotted.map(async ({ r, slotAt }) => {
        try {
          await settleSend(settle, r, await sendAt(r, slotAt), { sandboxStepMs: o.sandboxStepMs, killed });
        } catch (err) {
          logFailure("messages", r.c.id, "failed", err);
          await settle(r.c, skip);
        }
      }),
    );
  }

  /** Steps 4 to 6 for one message: its slot, the last check, the send; returns its outcome. */
  async function sendAt(ready: Ready, slotAt: number): Promise<SendOutcome> {
    const { c, m, number, adapter, message } = ready;
    const turn = await pacer.waitTurn(ready, slotAt, o.stopping, o.state);
    if (turn === "stopping") return { kind: "release" };
    if (turn !== "send") return skip;
    // A broadcast paused or cancelled since the claim: the message goes back parked, unsent; its
    // contact opted out since the claim: back due, and the next claim fails it (it reads consent).
    // Checked at the last moment (after the slot wait), in the one statement broadcast sends already
    // pay, so only a send already leaving can outrun the change.
    if (m.broadcastId != null && !(await broadcastMaySend(c.id, c.attempts))) return { kind: "release", held: true };
    const outcome = isFreeForm(message) ? await adapter.sendMessage(number, message) : await adapter.sendTemplate(number, message);
    // Killed between the provider's accept and our commit, the settle writes nothing: the send's
    // status webhook will tell (status.ts adopts its wamid), and the claim waits the uncertain grace for it.
    if (!outcome.ok) return failed(c, outcome);
    return { kind: "ok", providerMessageId: outcome.providerMessageId };
  }

  /**
   * Step 3b: the number's messaging limit (lib/broadcasts/messaging-limit.ts). Of one number's
   * broadcast messages, those that would open a conversation beyond what is left of its limit go
   * back to the queue, due when the window frees room (written by the gate itself; nothing more
   * to settle); the rest, and every message that is no broadcast's, go on. A gate that failed
   * gives the broadcast messages back untouched.
   */
  async function withinLimit(items: Ready[], settle: Settle<Sending, SendOutcome>): Promise<Ready[]> {
    // A number without a limit to keep (no tier known, or unlimited, as of this batch's read of
    // it) costs no gate transaction; the gate reads the tier again under its lock.
    const gated = items.filter((r) => r.m.broadcastId != null && tierLimit(r.number.messagingLimitTier) != null);
    if (!gated.length) return items;
    const held = new Set(gated.map((r) => r.c.id));
    let admitted: Set<number>;
    try {
      admitted = await admitWithinLimit({
        teamId: gated[0].m.teamId,
        waNumberId: gated[0].number.id,
        items: gated.map((r) => ({ id: r.c.id, attempts: r.c.attempts, contactId: r.m.contactId })),
      });
    } catch (err) {
      logFailure("messages", undefined, "messaging limit gate failed", err);
      await Promise.all(gated.map((r) => settle(r.c, { kind: "release" })));
      return items.filter((r) => !held.has(r.c.id));
    }
    for (const r of gated) if (!admitted.has(r.c.id)) void settle(r.c, skip);
    return items.filter((r) => !held.has(r.c.id) || admitted.has(r.c.id));
  }

  /**
   * Step 3 for a whole claim: one query for the batch's messages and one for their numbers,
   * templates read once per batch, then one slot reservation per number. Each message counts as
   * in flight until it is settled, so a paced group's tail does not hold back claims for other numbers.
   */
  async function runBatch(claims: Claim[], settle: Settle<Sending, SendOutcome>) {
    const db = await getDb();
    const rows = await loadMessages(
      db,
      claims.map((c) => c.id),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const numbers = await findNumbersByIds(db, [...new Set(rows.map((r) => r.waNumberId))]);
    // Credentials are decrypted once per number and batch, not once per message.
    const numberById = new Map(numbers.map((n) => [n.id, withSecrets(n)]));
    const lookups = batchLookups(db);
    const prepared = await Promise.all(
      claims.map((c) => {
        const m = byId.get(c.id);
        return prepare(c, m, m ? numberById.get(m.waNumberId) : undefined, lookups, settle).catch(async (err) => {
          logFailure("messages", c.id, "failed", err);
          await settle(c, skip);
          return undefined;
        });
      }),
    );
    const groups = new Map<number, Ready[]>();
    for (const r of prepared) if (r) groups.set(r.number.id, [...(groups.get(r.number.id) ?? []), r]);
    await Promise.all(
      [...groups.values()].map(async (items) => {
        try {
          await sendGroup(await withinLimit(items, settle), settle);
        } catch (err) {
          logFailure("messages", undefined, "number group failed", err);
        }
      }),
    );
  }

  return {
    name: "messages",
    concurrency: o.concurrency,
    refillAt: Math.floor(o.concurrency / 2),
    claim,
    run: runBatch,
    writes: sendWrites,
  };
}
