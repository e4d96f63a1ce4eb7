import { transaction, type DbOrTx } from "@/db/client";
import type { messages, MessageStatus } from "@/db/schema";
import type { ChannelNumber, StatusUpdate } from "@/lib/channels/types";
import { optOutOnProviderError } from "@/lib/contacts/opt-out";
import { resolveRoute, type Route } from "@/lib/routing/service";
import { queueWebhookDelivery, messageStatusPayload } from "@/lib/outgoing-webhooks/queue";
import { isRetryableTxError } from "@/db/errors";
import { parkStatus } from "./parked-statuses-repo";
import {
  adoptProviderId,
  findUnconfirmedSend,
  moveKnownStatus,
  moveKnownStatuses,
  type StatusMove,
  type StatusMoveResult,
} from "./status-repo";

const MAP: Record<string, MessageStatus> = { sent: "SENT", delivered: "DELIVERED", read: "READED", failed: "FAILED" };
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tries of one status's transaction on a deadlock or serialization failure before it is parked. */
const TX_TRIES = 3;

/**
 * From which statuses each one may be reached (docs/architecture.md, "Message lifecycle": SENDED < SENT < DELIVERED < READED,
 * FAILED from any point before it was read). Anything else is "backwards" and only recorded.
 */
const ALLOWED_FROM: Record<string, MessageStatus[]> = {
  SENT: ["SENDED"],
  DELIVERED: ["SENDED", "SENT"],
  READED: ["SENDED", "SENT", "DELIVERED"],
  FAILED: ["QUEUED", "SENDED", "SENT", "DELIVERED"],
};

/**
 * What became of one status: applied; ignored (recorded in message_status_history but not applied: a
 * status older than the stored one, or of an inbound message); or not applicable yet —
 * `leased` (it names our update_id but a worker still holds that message's claim) or `unknown`
 * (no message of the number has its provider id yet).
 */
export type StatusOutcome = "applied" | "ignored" | "leased" | "unknown";

/**
 * The one status path: Cloud API webhooks and the sandbox walk both land here. Each status is
 * its own transaction, which either applies it (a guarded UPDATE, so concurrent or reordered
 * callbacks can never move a message backwards, with its message_status_history row and, when applied,
 * a `message.status` delivery for the routed target) or parks it in parked_statuses with its
 * reason (docs/write-path.md, "Durable before acknowledged"). A webhook answers 200 only after that
 * commit, so nothing it acknowledged lives only in memory. A deadlock or serialization failure
 * is tried again from the same status, and parked as `retry` if it keeps failing; parked rows
 * are applied by lib/delivery/parked-statuses.ts as soon as they can be. Returns how many applied.
 */
export async function applyStatusUpdates(number: ChannelNumber, updates: StatusUpdate[]): Promise<number> {
  let applied = 0;
  for (const u of updates) if ((await receiveStatus(number, u)) === "applied") applied++;
  return applied;
}

export async function receiveStatus(number: ChannelNumber, u: StatusUpdate): Promise<StatusOutcome | "parked"> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(async (tx) => {
        const outcome = await applyStatus(tx, number, u);
        if (outcome === "leased" || outcome === "unknown") await parkStatus(tx, { number, u, reason: outcome });
        return outcome;
      });
    } catch (err) {
      if (!isRetryableTxError(err)) throw err;
      if (attempt >= TX_TRIES) {
        await transaction((tx) => parkStatus(tx, { number, u, reason: "retry" }));
        return "parked";
      }
    }
  }
}

/**
 * Applies one status in the caller's transaction, if it can be now.
 *
 * A status whose wamid we do not know yet but whose callback data is one of our update_ids
 * belongs to a send whose answer was never committed (a crash between Meta's accept and our
 * commit, or a timeout after the send reached Meta): once no worker's claim holds that message
 * any more, its wamid is adopted (QUEUED → SENDED), so the send is not repeated (claims skip a
 * message a parked status names, lib/delivery/repo.ts). While a claim still holds it, the worker
 * usually commits the wamid within the second: the status is `leased` and waits parked.
 */
export async function applyStatus(
  tx: DbOrTx,
  number: ChannelNumber,
  u: StatusUpdate,
  known?: StatusMoveResult,
  routes: RouteCache = routeCache(),
): Promise<StatusOutcome> {
  const move = moveOf(u);
  let { current, updated } = known ?? (await moveKnownStatus(tx, { number, s: move }));
  if (!current && u.callbackData && UUID_RE.test(u.callbackData)) {
    const unconfirmed = await findUnconfirmedSend(tx, { number, updateId: u.callbackData.toLowerCase() });
    if (unconfirmed?.leased) return "leased";
    const adopted = unconfirmed && (await adoptProviderId(tx, { id: unconfirmed.message.id, providerMessageId: u.providerMessageId }));
    if (adopted) {
      await queueStatusWebhook(tx, adopted, "QUEUED", number.number);
      ({ current, updated } = await moveKnownStatus(tx, { number, s: move }));
    }
  }
  if (!current) return "unknown";
  if (current.direction !== "OUTBOUND") return "ignored";
  // Meta usually reports 131050 ("stopped marketing messages") in a failed status, not on the send.
  if (updated?.status === "FAILED") await optOutOnProviderError(tx, updated.teamId, updated.contactId, updated.error);
  if (updated) {
    const route = await routes(tx, current);
    await queueWebhookDelivery(
      tx,
      route,
      current.teamId,
      "message.status",
      current.id,
      messageStatusPayload(updated, number.number, current.status),
    );
  }
  return updated ? "applied" : "ignored";
}

/** What a status webhook asks of the message it names (moveKnownStatus's input). */
function moveOf(u: StatusUpdate): StatusMove {
  const next = MAP[u.status];
  const from = next ? ALLOWED_FROM[next] : undefined;
  return {
    providerMessageId: u.providerMessageId,
    next: from ? next : undefined,
    from: from ?? [],
    error: next === "FAILED" ? (u.error ?? { code: null, title: "failed" }) : undefined,
    label: next ?? u.status,
    raw: u.raw,
  };
}

/**
 * Many statuses, possibly of different webhooks and numbers, in ONE transaction: one statement
 * moves every message it can (moveKnownStatuses), then each status is finished as applyStatus
 * finishes it (adoption, parking, opt-out, the routed target's delivery), with one route lookup
 * per routing of the batch. A second status of a message already in the statement waits for the
 * next statement of the same transaction, so both apply in their order. Any failure fails the
 * whole batch; the caller (status-batch.ts) then takes each status on its own (receiveStatus).
 */
export async function applyStatusBatch(items: { number: ChannelNumber; update: StatusUpdate }[]): Promise<StatusOutcome[]> {
  return transaction(async (tx) => {
    const outcomes: StatusOutcome[] = new Array(items.length);
    const routes = routeCache();
    let pending = items.map((_, i) => i);
    while (pending.length) {
      const seen = new Set<string>();
      const round: number[] = [];
      const later: number[] = [];
      for (const i of pending) {
        const key = `${items[i].number.id}\u0000${items[i].update.providerMessageId}`;
        (seen.has(key) ? later : round).push(i);
        seen.add(key);
      }
      const moved = await moveKnownStatuses(
        tx,
        round.map((i) => ({ number: items[i].number, move: moveOf(items[i].update) })),
      );
      for (const [k, i] of round.entries()) {
        const { number, update } = items[i];
        const outcome = await applyStatus(tx, number, update, moved[k], routes);
        if (outcome === "leased" || outcome === "unknown") await parkStatus(tx, { number, u: update, reason: outcome });
        outcomes[i] = outcome;
      }
      pending = later;
    }
    return outcomes;
  });
}

type RouteCache = (tx: DbOrTx, row: typeof messages.$inferSelect) => Promise<Route>;

/** resolveRoute, looked up once per routing (team, handler, bot, campaign) for one transaction. */
function routeCache(): RouteCache {
  const routes = new Map<string, Promise<Route>>();
  return (tx, row) => {
    const key = JSON.stringify([row.teamId, row.responseHandler, row.botId, row.campaignId]);
    let route = routes.get(key);
    if (!route) routes.set(key, (route = resolveRoute(tx, row.teamId, row, "outbound")));
    return route;
  };
}

/** A status change made by the worker itself (SENDED, FAILED) reaches integrators like webhook ones. */
export async function queueStatusWebhook(tx: DbOrTx, updated: typeof messages.$inferSelect, previous: string, numberDigits: string) {
  const route = await resolveRoute(tx, updated.teamId, updated, "outbound");
  await queueWebhookDelivery(
    tx,
    route,
    updated.teamId,
    "message.status",
    updated.id,
    messageStatusPayload(updated, numberDigits, previous),
  );
}

/**
 * queueStatusWebhook for many rows in one transaction: rows routed alike (same team, handler, bot
 * and campaign) share one route lookup.
 */
export async function queueStatusWebhooks(
  tx: DbOrTx,
  updated: { row: typeof messages.$inferSelect; numberDigits: string }[],
  previous: string,
) {
  const routes = routeCache();
  for (const { row, numberDigits } of updated) {
    await queueWebhookDelivery(
      tx,
      await routes(tx, row),
      row.teamId,
      "message.status",
      row.id,
      messageStatusPayload(row, numberDigits, previous),
    );
  }
}
