import type { DbOrTx } from "@/db/client";
import type { messages } from "@/db/schema";
import { toHistoryRecord } from "@/lib/messages/record";
import type { Route } from "@/lib/routing/service";
import { insertDelivery } from "./deliveries-repo";

type MessageRow = typeof messages.$inferSelect;

/**
 * Queues one outgoing webhook delivery (a `webhook_deliveries` row the worker POSTs, deliver.ts)
 * for the routed bot's or campaign's webhook URL, inside the caller's transaction: the delivery
 * exists exactly when the change it reports was committed. `event` is the wire name integrators
 * read in the body and in `X-Webhook-Event`; it is not a row of the live event log (lib/events).
 */
export async function queueWebhookDelivery(
  tx: DbOrTx,
  route: Route,
  teamId: number,
  event: "message.received" | "message.status",
  messageId: number,
  data: Record<string, unknown>,
) {
  const target = route.target;
  if (!target?.webhookUrl) return;
  await insertDelivery(tx, {
    teamId,
    targetKind: target.kind,
    targetId: target.id,
    url: target.webhookUrl,
    event,
    messageId,
    payload: { event, occurred_at: new Date().toISOString(), data },
  });
}

/** The `data` of a `message.received` delivery. */
export function messageReceivedPayload(m: MessageRow, waNumber: string, replyTo: MessageRow | undefined) {
  return {
    update_id: m.updateId,
    wa_number: waNumber,
    reply_to_update_id: replyTo?.updateId ?? null,
    routed_to: m.routedTo,
    message: toHistoryRecord(m),
  };
}

/** The `data` of a `message.status` delivery. */
export function messageStatusPayload(m: MessageRow, waNumber: string, previous: string) {
  return {
    update_id: m.updateId,
    wa_number: waNumber,
    customer_number: m.customerNumber,
    status: m.status,
    previous_status: previous,
    error: m.error ?? null,
    provider_message_id: m.providerMessageId,
    timestamp: Math.floor(new Date(m.statusUpdatedAt).getTime() / 1000),
  };
}
