import "server-only";
import type { DbOrTx } from "@/db/client";
import type { RoutedTo, messages } from "@/db/schema";
import { findBot, findByProviderId, findCampaign, findDefaultBot, findLatestTemplate } from "./repo";

type MessageRow = typeof messages.$inferSelect;
export type RouteTarget = { kind: "bot" | "campaign"; id: number; webhookUrl: string | null; webhookSecret: string | null };
export type Route = { routedTo: RoutedTo; target: RouteTarget | null };

/**
 * Where replies to (and events of) an outbound message go, per ruling 8: CHATBOT → its bot_id;
 * CAMPAIGN with campaign_id → that campaign; CAMPAIGN without → the team's default bot.
 * `attribution` says how the outbound message was found, so the stored reason explains itself.
 */
export async function resolveRoute(
  tx: DbOrTx,
  teamId: number,
  sent: Pick<MessageRow, "responseHandler" | "botId" | "campaignId"> | undefined,
  attribution: string,
): Promise<Route> {
  if (sent?.responseHandler === "CHATBOT" && sent.botId) {
    const bot = await findBot(tx, { teamId, id: sent.botId });
    return {
      routedTo: { kind: "bot", id: sent.botId, reason: `${attribution}:response_handler_chatbot` },
      target: bot ? { kind: "bot", id: bot.id, webhookUrl: bot.webhookUrl, webhookSecret: bot.webhookSecret } : null,
    };
  }
  if (sent && sent.responseHandler !== "CHATBOT" && sent.campaignId) {
    const campaign = await findCampaign(tx, { teamId, id: sent.campaignId });
    return {
      routedTo: { kind: "campaign", id: sent.campaignId, reason: `${attribution}:campaign_id` },
      target: campaign
        ? { kind: "campaign", id: campaign.id, webhookUrl: campaign.webhookUrl, webhookSecret: campaign.webhookSecret }
        : null,
    };
  }
  const bot = await findDefaultBot(tx, teamId);
  return {
    routedTo: { kind: "bot", id: bot?.id ?? null, reason: `${attribution}:${bot ? "default_bot" : "no_default_bot"}` },
    target: bot ? { kind: "bot", id: bot.id, webhookUrl: bot.webhookUrl, webhookSecret: bot.webhookSecret } : null,
  };
}

/**
 * Attributes a customer's message to the template it answers: the quoted one (`context.id`)
 * when present and ours, else the latest template sent to that contact from that number.
 */
export async function routeReply(
  tx: DbOrTx,
  input: { teamId: number; waNumberId: number; contactId: number; contextId?: string | null },
): Promise<Route & { replyTo: MessageRow | undefined }> {
  let replyTo: MessageRow | undefined;
  let attribution = "none";
  if (input.contextId) {
    replyTo = await findByProviderId(tx, { teamId: input.teamId, waNumberId: input.waNumberId, providerMessageId: input.contextId });
    if (replyTo) attribution = "context";
  }
  if (!replyTo) {
    replyTo = await findLatestTemplate(tx, { teamId: input.teamId, waNumberId: input.waNumberId, contactId: input.contactId });
    if (replyTo) attribution = "latest_template";
  }
  return { ...(await resolveRoute(tx, input.teamId, replyTo, attribution)), replyTo };
}
