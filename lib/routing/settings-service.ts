import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { listBotSettings } from "@/lib/bots/service";
import { listCampaignSettings } from "@/lib/campaigns/service";
import { ApiError } from "@/lib/http/errors";
import { CONTEXT_NOT_FOUND } from "@/lib/meta-webhooks/sandbox-inbound-service";
import { providerIdByUpdateId } from "@/lib/meta-webhooks/repo";
import { requireNumber } from "@/lib/numbers/service";
import { sanitizeNumber } from "@/lib/phone";
import { findBot, findCampaign, findContactIdByNumber } from "./repo";
import {
  ROUTING_ATTRIBUTIONS,
  ROUTING_RULES,
  routingTestInput,
  type RoutingAttribution,
  type RoutingRule,
  type RoutingRules,
  type RoutingTestInput,
  type RoutingTestResultDto,
} from "./schemas";
import { routeReply } from "./service";

/** GET /api/v1/routing: the rules as resolveRoute applies them, with the team's bots and campaigns. */
export async function getRoutingRules({ ctx }: { ctx: AuthContext }): Promise<RoutingRules> {
  const [bots, campaigns] = await Promise.all([listBotSettings(ctx.teamId), listCampaignSettings(ctx.teamId)]);
  return {
    rules: ROUTING_RULES.map((r, i) => ({ order: i + 1, ...r })),
    attribution: ROUTING_ATTRIBUTIONS.map((a, i) => ({ order: i + 1, ...a })),
    // The same pick as findDefaultBot: the oldest flagged bot (the list is oldest first).
    default_bot_id: bots.find((b) => b.is_default)?.id ?? null,
    bots,
    campaigns,
  };
}

/**
 * "Which would take this reply?": routes a customer's message with the inbound path's own
 * routeReply, reading only (nothing is stored, no webhook queued). The text does not change the
 * destination (no rule reads it); it is asked so the question reads like the reply it tries.
 * An unknown customer routes like one with no template sent (no message to attribute).
 */
export async function testRouting({ ctx, input }: { ctx: AuthContext; input: RoutingTestInput }): Promise<RoutingTestResultDto> {
  const parsed = routingTestInput.parse(input);
  const number = await requireNumber(ctx, parsed.wa_number);
  const db = await getDb();
  let contextId: string | null = null;
  if (parsed.context_update_id) {
    const quoted = await providerIdByUpdateId(db, { teamId: ctx.teamId, waNumberId: number.id, updateId: parsed.context_update_id });
    if (!quoted) throw ApiError.invalid("context_update_id", CONTEXT_NOT_FOUND);
    contextId = quoted.providerMessageId;
  }
  const contactId = await findContactIdByNumber(db, { teamId: ctx.teamId, number: sanitizeNumber(parsed.from) });
  // Contact ids start at 1: 0 finds no template, exactly as for a customer never written to.
  const route = await routeReply(db, { teamId: ctx.teamId, waNumberId: number.id, contactId: contactId ?? 0, contextId });
  const [attribution, rule] = route.routedTo.reason.split(":") as [RoutingAttribution, RoutingRule];
  const named = route.target
    ? route.target.kind === "bot"
      ? await findBot(db, { teamId: ctx.teamId, id: route.target.id })
      : await findCampaign(db, { teamId: ctx.teamId, id: route.target.id })
    : undefined;
  const target =
    route.target && named ? { kind: route.target.kind, id: route.target.id, name: named.name, webhook_url: route.target.webhookUrl } : null;
  return {
    routed_to: route.routedTo,
    attribution,
    rule,
    target,
    reply_to: route.replyTo
      ? { update_id: route.replyTo.updateId, type: route.replyTo.type, created_at: route.replyTo.createdAt.toISOString() }
      : null,
    contact_found: contactId !== undefined,
    explanation: explain(attribution, rule, target),
  };
}

const ATTRIBUTION_TEXT: Record<RoutingAttribution, string> = {
  context: "Responde al mensaje que cita",
  latest_template: "Responde a la última plantilla enviada a ese cliente desde ese número",
  none: "No responde a ningún mensaje enviado desde ese número",
};

/** The answer in a sentence, in the API's language (the page words it from `rule` and `attribution`). */
function explain(attribution: RoutingAttribution, rule: RoutingRule, target: RoutingTestResultDto["target"]): string {
  const who = target ? `${target.kind === "bot" ? "el bot" : "la campaña"} «${target.name}»` : null;
  const how: Record<RoutingRule, string> = {
    response_handler_chatbot: `se envió como CHATBOT, así que la toma ${who ?? "su bot, que ya no existe"}.`,
    campaign_id: `se envió con su campaña, así que la toma ${who ?? "su campaña, que ya no existe"}.`,
    default_bot: `la toma el bot predeterminado, ${who ?? "que ya no existe"}.`,
    no_default_bot: "el equipo no tiene bot predeterminado, así que no la toma nadie.",
  };
  return `${ATTRIBUTION_TEXT[attribution]}: ${how[rule]}`;
}
