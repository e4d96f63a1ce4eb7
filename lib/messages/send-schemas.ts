import { z } from "@/lib/http/zod-es";
import { isValidNumber, sanitizeNumber } from "@/lib/phone";

// Exact texts of the contract (spec 4.1, ruling 8).
export const RESPONSE_HANDLER_INVALID = "El atributo response_handler debe ser CAMPAIGN o CHATBOT";
export const BOT_ID_REQUIRED = "El atributo bot_id es requerido cuando response_handler es CHATBOT";
export const botNotFound = (id: number) => `El bot con el ID: ${id} no existe!`;
export const campaignNotFound = (id: number) => `La campaña con el ID: ${id} no existe!`;

export const DESTINATION_INVALID = "El campo destination debe ser un número de teléfono válido: de 8 a 15 dígitos con el código de país.";
export const duplicateBodyKey = (key: string) => `El parámetro {{${key}}} está repetido en body_params.`;
export const paramValueFormat = (key: string) =>
  `El valor del parámetro {{${key}}} no puede contener saltos de línea, tabulaciones ni más de 4 espacios seguidos.`;
export const duplicateButtonIndex = (index: number) => `El botón ${index} está repetido en button_params.`;
export const buttonValueFormat = (index: number) =>
  `El valor del botón ${index} no puede contener espacios, saltos de línea ni tabulaciones.`;
export const BUTTON_INDEX_INVALID = "El índice de cada botón de button_params debe ser un número entero de 0 a 9.";

const fieldName = (path: readonly PropertyKey[] | undefined) => (path ?? []).map(String).join(".");

/** A non-blank string; an empty one reads "obligatorio" like a missing one. */
const requiredText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: (iss) => `El campo ${fieldName(iss.path)} es obligatorio.` })
    .max(max, { error: (iss) => `El campo ${fieldName(iss.path)} no puede tener más de ${max} caracteres.` });

/** An integer id; a digit string is accepted too, as form-encoding clients send one. */
const idField = (field: string) =>
  z.union(
    [
      z.number().int(),
      z
        .string()
        .regex(/^-?\d{1,12}$/)
        .transform(Number),
    ],
    { error: `El campo ${field} debe ser un número entero.` },
  );

// The channel rejects parameter values with these, so they are refused before queueing.
const BAD_PARAM_TEXT = /[\n\t]| {5,}/;

export const paramSchema = z.object({
  key: requiredText(32),
  value: z
    .string()
    .min(1, { error: (iss) => `El campo ${fieldName(iss.path)} es obligatorio.` })
    .max(1024, { error: (iss) => `El campo ${fieldName(iss.path)} no puede tener más de 1024 caracteres.` }),
});

/**
 * The value of a URL button with a variable (`https://…/pedidos/{{1}}`): `index` is the button's
 * position in the template's BUTTONS component (0-based, as the Cloud API numbers it).
 */
export const buttonParamSchema = z.object({
  index: z.union([z.number().int().min(0).max(9), z.string().regex(/^\d$/).transform(Number)], { error: BUTTON_INDEX_INVALID }),
  value: z
    .string()
    .min(1, { error: (iss) => `El campo ${fieldName(iss.path)} es obligatorio.` })
    .max(1024, { error: (iss) => `El campo ${fieldName(iss.path)} no puede tener más de 1024 caracteres.` }),
});

export const destinationField = requiredText(32).transform(sanitizeNumber).refine(isValidNumber, DESTINATION_INVALID);
export const headerParamField = paramSchema.nullish();
export const bodyParamsField = z
  .array(paramSchema)
  .max(100)
  .nullish()
  .transform((v) => v ?? []);

export const buttonParamsField = z
  .array(buttonParamSchema)
  .max(10)
  .nullish()
  .transform((v) => v ?? [])
  .meta({
    description:
      "Valor de cada botón URL con variable de la plantilla (https://…/pedidos/{{1}}): index es la posición del botón en la plantilla de Meta (desde 0): su posición en BUTTONS, o su index cuando la plantilla lo lista (plantilla sincronizada con botones que no se listan). Requerido para esos botones; rechazado para los demás.",
  });

/** The fields every recipient of a send shares (one send, or a bulk send). */
export const sharedSendFields = {
  wa_number: requiredText(32),
  template_name: requiredText(512),
  // Blank means "not given" (the template's default attachment), as form clients send "".
  media_path: z
    .string()
    .trim()
    .max(1024, "El campo media_path no puede tener más de 1024 caracteres.")
    .nullish()
    .transform((v) => v || null),
  response_handler: z
    .enum(["CAMPAIGN", "CHATBOT"], { error: RESPONSE_HANDLER_INVALID })
    .nullish()
    .transform((v) => v ?? "CAMPAIGN"),
  campaign_id: idField("campaign_id").nullish(),
  bot_id: idField("bot_id").nullish(),
  sent_group: z.string().trim().max(255, "El campo sent_group no puede tener más de 255 caracteres.").nullish(),
};

type Check = z.core.$RefinementCtx;
type ParamValues = {
  header_param?: { key: string; value: string } | null;
  body_params: { key: string; value: string }[];
  button_params?: { index: number; value: string }[];
};

export function checkHandler(v: { response_handler: string; bot_id?: number | null }, ctx: Check) {
  if (v.response_handler === "CHATBOT" && v.bot_id == null) {
    ctx.addIssue({ code: "custom", path: ["bot_id"], message: BOT_ID_REQUIRED });
  }
}

/** Repeated body keys and values the channel would reject, for one recipient's parameters. */
export function checkParams(v: ParamValues, ctx: Check) {
  const seen = new Set<string>();
  v.body_params.forEach((p, i) => {
    if (seen.has(p.key)) ctx.addIssue({ code: "custom", path: ["body_params", i, "key"], message: duplicateBodyKey(p.key) });
    seen.add(p.key);
    if (BAD_PARAM_TEXT.test(p.value)) {
      ctx.addIssue({ code: "custom", path: ["body_params", i, "value"], message: paramValueFormat(p.key) });
    }
  });
  if (v.header_param && BAD_PARAM_TEXT.test(v.header_param.value)) {
    ctx.addIssue({ code: "custom", path: ["header_param", "value"], message: paramValueFormat(v.header_param.key) });
  }
  const buttons = new Set<number>();
  (v.button_params ?? []).forEach((b, i) => {
    if (buttons.has(b.index)) ctx.addIssue({ code: "custom", path: ["button_params", i, "index"], message: duplicateButtonIndex(b.index) });
    buttons.add(b.index);
    // The value becomes part of a link: whitespace would break it.
    if (/\s/.test(b.value)) ctx.addIssue({ code: "custom", path: ["button_params", i, "value"], message: buttonValueFormat(b.index) });
  });
}

// Key order is the order errors are reported in.
export const sendTemplateInput = z
  .object({
    wa_number: sharedSendFields.wa_number,
    destination: destinationField,
    template_name: sharedSendFields.template_name,
    header_param: headerParamField,
    body_params: bodyParamsField,
    button_params: buttonParamsField,
    media_path: sharedSendFields.media_path,
    response_handler: sharedSendFields.response_handler,
    campaign_id: sharedSendFields.campaign_id,
    bot_id: sharedSendFields.bot_id,
    sent_group: sharedSendFields.sent_group,
  })
  .superRefine((v, ctx) => {
    checkHandler(v, ctx);
    checkParams(v, ctx);
  })
  .meta({ id: "SendTemplateRequest" });
export type SendTemplateInput = z.output<typeof sendTemplateInput>;

export const sendTemplateResponse = z
  .object({ message: z.string(), data: z.object({ update_id: z.string() }) })
  .meta({ id: "SendTemplateResponse" });
export type SendTemplateResponse = z.infer<typeof sendTemplateResponse>;
