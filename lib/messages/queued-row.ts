import type { AuthContext } from "@/lib/auth/context";
import { DUE_NOW, type OutboundRow } from "./outbound-repo";

/**
 * The one builder of an outbound message's QUEUED row, for every path that queues one: the single
 * send and the bulk send (send-service.ts, send-bulk-service.ts), the free-form reply
 * (reply-service.ts) and the broadcast (lib/broadcasts/enqueue.ts, whose shared columns are this
 * row). The row is the message and, with next_attempt_at, its delivery job (lib/delivery claims
 * due QUEUED rows). What inserting it sets off (conversation, rollups, `message.created`), trigger
 * by trigger in the order they fire, is listed in db/functions/README.md; the insert itself is one
 * of outbound-repo.ts's two statements.
 */
export function outboundRow(
  ctx: AuthContext,
  m: {
    waNumberId: number;
    contact: { id: number; customerNumber: string | null; customerId: string | null };
    updateId: string;
    type: OutboundRow["type"];
    payload: unknown;
    sendParams: Record<string, unknown> | null;
    mediaPath?: string | null;
    template?: { id: number; name: string; language: string };
    routing?: {
      sent_group?: string | null;
      response_handler?: "CAMPAIGN" | "CHATBOT" | null;
      campaign_id?: number | null;
      bot_id?: number | null;
    };
    replyToMessageId?: number | null;
    broadcastId?: number | null;
  },
): OutboundRow {
  // Ruling 12: an agent's send is AGENT with their id and name; a token's is SYSTEM, 0, null.
  const agent = ctx.actor.kind === "agent" ? ctx.actor : null;
  return {
    teamId: ctx.teamId,
    waNumberId: m.waNumberId,
    contactId: m.contact.id,
    updateId: m.updateId,
    customerNumber: m.contact.customerNumber,
    customerId: m.contact.customerId,
    sender: agent ? "AGENT" : "SYSTEM",
    agentId: agent ? agent.agentId : 0,
    agentName: agent ? agent.agentName : null,
    direction: "OUTBOUND",
    type: m.type,
    status: "QUEUED",
    payload: m.payload as Record<string, unknown>,
    templateId: m.template?.id ?? null,
    templateName: m.template?.name ?? null,
    templateLanguage: m.template?.language ?? null,
    sendParams: m.sendParams ?? null,
    mediaPath: m.mediaPath ?? null,
    sentGroup: m.routing?.sent_group ?? null,
    responseHandler: m.routing?.response_handler ?? null,
    campaignId: m.routing?.campaign_id ?? null,
    botId: m.routing?.bot_id ?? null,
    replyToMessageId: m.replyToMessageId ?? null,
    broadcastId: m.broadcastId ?? null,
    // The delivery job: due now (a scheduled broadcast sets its own time).
    nextAttemptAt: DUE_NOW,
  };
}
