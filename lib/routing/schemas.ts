import { z } from "@/lib/http/zod-es";
import { botSettingsSchema } from "@/lib/bots/schemas";
import { campaignSettingsSchema } from "@/lib/campaigns/schemas";

/** Where an inbound message was routed (a bot or a campaign) and why. */
export const routedToSchema = z
  .object({ kind: z.enum(["bot", "campaign"]), id: z.number().int().nullable(), reason: z.string() })
  .meta({ id: "RoutedTo" });

/**
 * The rules resolveRoute (lib/routing/service.ts) applies, in its order: the first that matches
 * takes the reply. Each `reason` it stores is `<attribution>:<rule>`, with these names.
 */
export const ROUTING_RULES = [
  {
    rule: "response_handler_chatbot",
    description: "El mensaje respondido se envió con response_handler CHATBOT y un bot_id: lo toma ese bot.",
  },
  { rule: "campaign_id", description: "El mensaje respondido se envió con un campaign_id (y no como CHATBOT): lo toma esa campaña." },
  { rule: "default_bot", description: "En cualquier otro caso lo toma el bot predeterminado del equipo." },
  { rule: "no_default_bot", description: "Sin bot predeterminado, la respuesta no va a ningún bot ni campaña." },
] as const;
export type RoutingRule = (typeof ROUTING_RULES)[number]["rule"];

/** How routeReply finds the message a reply answers, in its order. */
export const ROUTING_ATTRIBUTIONS = [
  { attribution: "context", description: "El mensaje que el cliente cita (context.id), si es nuestro y de ese número." },
  { attribution: "latest_template", description: "Si no, la última plantilla enviada a ese cliente desde ese número." },
  { attribution: "none", description: "Si no hay ninguna, no se atribuye a un mensaje." },
] as const;
export type RoutingAttribution = (typeof ROUTING_ATTRIBUTIONS)[number]["attribution"];

const ruleNames = ROUTING_RULES.map((r) => r.rule) as [RoutingRule, ...RoutingRule[]];
const attributionNames = ROUTING_ATTRIBUTIONS.map((a) => a.attribution) as [RoutingAttribution, ...RoutingAttribution[]];

/** GET /api/v1/routing: the rules in the order the code applies them, and the bots and campaigns they name. */
export const routingRulesResponse = z
  .object({
    message: z.string(),
    data: z.object({
      rules: z.array(z.object({ order: z.number().int(), rule: z.enum(ruleNames), description: z.string() })),
      attribution: z.array(z.object({ order: z.number().int(), attribution: z.enum(attributionNames), description: z.string() })),
      default_bot_id: z.number().int().nullable(),
      bots: z.array(botSettingsSchema),
      campaigns: z.array(campaignSettingsSchema),
    }),
  })
  .meta({ id: "RoutingRulesResponse" });
export type RoutingRules = z.infer<typeof routingRulesResponse>["data"];

/** POST /api/v1/routing/test: a reply that is not stored, only routed. */
export const routingTestInput = z
  .object({
    wa_number: z
      .string()
      .trim()
      .min(1, "El campo wa_number es obligatorio.")
      .max(32, "El campo wa_number no puede tener más de 32 caracteres."),
    from: z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ]{6,19}$/, "El campo from debe ser un número de teléfono."),
    text: z.string().max(4096, "El campo text no puede tener más de 4096 caracteres.").optional().default(""),
    context_update_id: z.uuid("El campo context_update_id debe ser un UUID.").optional(),
  })
  .meta({ id: "RoutingTestInput" });
export type RoutingTestInput = z.input<typeof routingTestInput>;

export const routingTestResult = z
  .object({
    routed_to: routedToSchema,
    attribution: z.enum(attributionNames),
    rule: z.enum(ruleNames),
    target: z
      .object({ kind: z.enum(["bot", "campaign"]), id: z.number().int(), name: z.string(), webhook_url: z.string().nullable() })
      .nullable(),
    reply_to: z.object({ update_id: z.string().nullable(), type: z.string(), created_at: z.string() }).nullable(),
    contact_found: z.boolean(),
    explanation: z.string(),
  })
  .meta({ id: "RoutingTestResult" });
export type RoutingTestResultDto = z.infer<typeof routingTestResult>;
export const routingTestResponse = z.object({ message: z.string(), data: routingTestResult }).meta({ id: "RoutingTestResponse" });
