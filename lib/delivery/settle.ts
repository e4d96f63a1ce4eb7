import { transaction } from "@/db/client";
import type { ProviderError } from "@/db/schema";
import { withSecrets } from "@/lib/channels/credentials";
import type { ChannelAdapter, ChannelNumber, SendOutcome } from "@/lib/channels/types";
import { optOutOnProviderError } from "@/lib/contacts/opt-out";
import { backoffMs } from "./backoff";
import { adapterFor, walkingProviders } from "./channels";
import { claimStoppedWalks, findNumbersByIds, markFailed, reschedule, type Claim } from "./repo";
import { sendedBatcher } from "./sended-batch";
import { applyStatusUpdates, queueStatusWebhook } from "./status";

export type Failure = Extract<SendOutcome, { ok: false }>;

export type SettlerOptions = {
  /** Attempts before FAILED. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  /** A send that may have reached the provider is not retried sooner (its status webhook may adopt it). */
  uncertainGraceMs: number;
  /** Pace of the in-process status walks (the sandbox's). */
  sandboxStepMs: number;
  /** Stop writing at once (a crash simulation): nothing is settled after this. */
  killed: () => boolean;
};

/**
 * Settling claimed sends: the fenced transitions out of QUEUED (SENDED with the provider's id,
 * back to the queue with a backoff, FAILED), each with its status history row and its outgoing
 * `message.status` webhook (status.ts), and the status walks of in-process channels. Its only
 * state is the SENDED group commit (sended-batch.ts): the accepted sends waiting for the commit
 * in progress.
 */
export function createSettler(o: SettlerOptions) {
  const sended = sendedBatcher(o.killed);

  /** QUEUED → FAILED for good, with the provider's error. */
  async function fail(c: Claim, teamId: number, numberDigits: string, error: ProviderError) {
    await transaction(async (tx) => {
      const row = await markFailed(tx, c, teamId, error);
      if (row) await queueStatusWebhook(tx, row, "QUEUED", numberDigits);
      // 131050: the customer stopped marketing messages at WhatsApp; later MARKETING sends are refused here.
      if (row) await optOutOnProviderError(tx, teamId, row.contactId, error);
    });
  }

  /**
   * A send that did not go through: back to the queue after a backoff (full jitter, the
   * provider's Retry-After as a floor; no sooner than the uncertain grace when the request may
   * have reached the provider), or FAILED when permanent or out of attempts.
   */
  async function failure(c: Claim, teamId: number, numberDigits: string, f: Failure) {
    if (o.killed()) return;
    if (f.retryable && c.attempts < o.maxAttempts) {
      const delay = backoffMs(c.attempts, o.backoffBaseMs, o.backoffCapMs, f.retryAfterMs);
      await reschedule(c, f.uncertain ? Math.max(delay, o.uncertainGraceMs) : delay, f.error);
    } else {
      await fail(c, teamId, numberDigits, f.error);
    }
  }

  /**
   * The provider accepted the send: QUEUED → SENDED with its id, committed with the sends that
   * finish meanwhile (no added wait), then the adapter's own follow-up (the sandbox's walk).
   * False when the claim was settled elsewhere first (a lost lease, or the send's status webhook
   * adopted this very id).
   */
  async function accepted(
    c: Claim,
    teamId: number,
    number: ChannelNumber,
    adapter: ChannelAdapter,
    providerMessageId: string,
  ): Promise<boolean> {
    const row = await sended.add({ c, teamId, providerMessageId }, number.number);
    if (o.killed()) return false;
    if (!row) {
      console.warn(`[worker] message ${c.id} was accepted (${providerMessageId}) after its claim was settled elsewhere`);
      return false;
    }
    adapter.afterAccepted?.(number, providerMessageId, { report: applyStatusUpdates, stepMs: o.sandboxStepMs });
    return true;
  }

  /**
   * In-process status walks (the sandbox's) live in timers: a crash or restart stops them. Walks
   * with no step for a while are taken over here (leased, so by one worker), each from the
   * status it reached. Returns how many were resumed.
   */
  async function resumeWalks(teamIds?: number[]): Promise<number> {
    const staleMs = 3 * o.sandboxStepMs + 2000;
    const stopped = await claimStoppedWalks(walkingProviders, 1000, staleMs, staleMs, teamIds);
    if (!stopped.length || o.killed()) return 0;
    const numbers = new Map((await findNumbersByIds([...new Set(stopped.map((w) => w.waNumberId))])).map((n) => [n.id, withSecrets(n)]));
    let resumed = 0;
    for (const w of stopped) {
      const number = numbers.get(w.waNumberId);
      const adapter = number && adapterFor(number.provider);
      if (!number || !adapter?.afterAccepted) continue;
      adapter.afterAccepted(number, w.providerMessageId, { report: applyStatusUpdates, stepMs: o.sandboxStepMs, reached: w.status });
      resumed++;
    }
    return resumed;
  }

  return { fail, failure, accepted, resumeWalks };
}
export type Settler = ReturnType<typeof createSettler>;
