import { randomUUID } from "node:crypto";
import { transaction } from "@/db/client";
import type { messages } from "@/db/schema";
import type { ChannelNumber, InboundMessage } from "@/lib/channels/types";
import { config } from "@/lib/config";
import { optOutOnInbound } from "@/lib/contacts/opt-out";
import { sanitizeNumber } from "@/lib/phone";
import { routeReply } from "@/lib/routing/service";
import { queueWebhookDelivery, messageReceivedPayload } from "@/lib/outgoing-webhooks/queue";
import { inboundExists, insertInbound, moveContactNumber, upsertContact } from "./inbound-repo";

type MessageRow = typeof messages.$inferSelect;
export type Ingested = { message: MessageRow; replyTo: MessageRow | undefined };

class Duplicate extends Error {}

/** Where the dashboard loads an inbound attachment: our proxy, which fetches it from the channel. */
export function inboundMediaUrl(updateId: string) {
  return `${config.appUrl}/api/v1/updates/${updateId}/media`;
}

export type IngestOutcome =
  { ok: true; ingested: Ingested } | { ok: false; duplicate: true } | { ok: false; duplicate: false; error: unknown };

/**
 * The one inbound path (Cloud API webhooks and sandbox injections): each message is stored
 * once — a repeated wamid changes nothing — with its contact created or refreshed, its reply
 * attributed and routed (ruling 8), and a `message.received` outgoing webhook queued, in one transaction.
 * Throws when any message failed (the sandbox's single message); webhooks use `ingestEach`.
 */
export async function ingestInbound(number: ChannelNumber, batch: InboundMessage[]): Promise<Ingested[]> {
  const outcomes = await ingestEach(number, batch);
  const failures = outcomes.flatMap((o) => (!o.ok && !o.duplicate ? [o.error] : []));
  if (failures.length) throw new AggregateError(failures, `${failures.length} inbound messages failed`);
  return outcomes.flatMap((o) => (o.ok ? [o.ingested] : []));
}

/**
 * Each message in its own short transaction, so one that fails (rolled back alone) never costs
 * its neighbours, and the connection (PGlite has one) is held only for one message at a time.
 * The outcome of every message is returned, in order.
 */
export async function ingestEach(number: ChannelNumber, batch: InboundMessage[]): Promise<IngestOutcome[]> {
  const outcomes: IngestOutcome[] = [];
  for (const msg of batch) {
    try {
      const result = await transaction(async (tx) => {
        if (await inboundExists(tx, { waNumberId: number.id, providerMessageId: msg.providerMessageId })) throw new Duplicate();
        const waId = msg.from ? sanitizeNumber(msg.from) : null;
        const contact = await upsertContact(tx, {
          teamId: number.teamId,
          contact: {
            number: waId,
            customerId: waId ?? msg.userId ?? null,
            name: msg.profileName ?? null,
          },
        });
        if (!contact) throw new Error("contact upsert returned nothing");
        const route = await routeReply(tx, {
          teamId: number.teamId,
          waNumberId: number.id,
          contactId: contact.id,
          contextId: msg.contextId,
        });
        const updateId = randomUUID();
        let payload = msg.payload;
        if (msg.providerMediaId && !Array.isArray(payload)) payload = { ...payload, url: inboundMediaUrl(updateId) };
        const row = await insertInbound(tx, {
          teamId: number.teamId,
          waNumberId: number.id,
          contactId: contact.id,
          updateId,
          customerNumber: contact.customerNumber,
          customerId: contact.customerId,
          sender: "CUSTOMER",
          direction: "INBOUND",
          type: msg.type,
          status: "RECEIVED",
          payload,
          providerMessageId: msg.providerMessageId,
          replyToMessageId: route.replyTo?.id ?? null,
          routedTo: route.routedTo,
          createdAt: new Date(msg.timestamp * 1000),
          // Inbound rows are never jobs.
          nextAttemptAt: null,
        });
        if (!row) throw new Duplicate();
        // SALIR/STOP/BAJA (OPT_OUT_WORDS) as the whole message: no more MARKETING templates to them.
        await optOutOnInbound(tx, number.teamId, contact.id, msg.type, payload, row.createdAt);
        if (msg.type === "system" && !Array.isArray(payload) && payload.type === "user_changed_number" && payload.new_wa_id) {
          await moveContactNumber(tx, {
            teamId: number.teamId,
            contactId: contact.id,
            oldWaId: waId,
            newWaId: sanitizeNumber(String(payload.new_wa_id)),
          });
        }
        await queueWebhookDelivery(
          tx,
          route,
          number.teamId,
          "message.received",
          row.id,
          messageReceivedPayload(row, number.number, route.replyTo),
        );
        return { message: row, replyTo: route.replyTo };
      });
      outcomes.push({ ok: true, ingested: result });
    } catch (err) {
      // One bad item must not keep the rest of the batch from being stored.
      outcomes.push(err instanceof Duplicate ? { ok: false, duplicate: true } : { ok: false, duplicate: false, error: err });
    }
  }
  return outcomes;
}
