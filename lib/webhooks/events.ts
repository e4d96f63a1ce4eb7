import type { DbOrTx } from "@/db/client";
import type { messages } from "@/db/schema";
import { toHistoryRecord } from "@/lib/messages/record";
import type { Route } from "@/lib/routing/service";
import { insertDelivery } from "./deliveries-repo";

type MessageRow = typeof messages.$inferSelect;

/**
 * Queues an event for the routed bot's or campaign's webhook URL, inside the caller's
 * transaction: the event exists exactly when the change it reports was committed.
 */
export async function enqueueEvent(
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

export function receivedEventData(m: MessageRow, waNumber: string, replyTo: MessageRow | undefined) {
  return {
    update_id: m.updateId,
    wa_number: waNumber,
    reply_to_update_id: replyTo?.updateId ?? null,
    routed_to: m.routedTo,
    message: toHistoryRecord(m),
  };
}

export function statusEventData(m: MessageRow, waNumber: string, previous: string) {
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
