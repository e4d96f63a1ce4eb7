import { z } from "@/lib/http/zod-es";

/**
 * A template draft written in the editor (/templates/new) and submitted with
 * `POST /api/v1/message_templates`: one schema for the form, the handler and the OpenAPI document,
 * holding Meta's own rules so Meta's review is not the first to find a mistake
 * (docs/features/template-editor.md). Client-safe: no server module is imported here.
 *
 * Meta's rules, from its documentation:
 * - Templates, components and limits:
 *   https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates/components
 *   (name: lowercase letters, digits and underscores, at most 512; header text at most 60 with at
 *   most one variable; body at most 1024; footer at most 60 without variables; button text at most
 *   25; up to 10 buttons; quick replies grouped before or after the other buttons; at most 2 URL
 *   buttons, 1 phone number, 1 copy code; a URL may have one variable, appended at its end).
 * - Parameter formats (positional `{{1}}` or named `{{first_name}}`, one format per template;
 *   positional ones numbered 1, 2, 3… without gaps; a sample for every variable; a body may not
 *   start or end with a variable):
 *   https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates#parameter-formats
 * - Media headers need a sample (`header_handle`, a handle of the Resumable Upload API):
 *   https://developers.facebook.com/docs/graph-api/guides/upload
 * - Copy code buttons: https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates/marketing-templates/copy-code-templates
 *
 * AUTHENTICATION templates are left out: Meta fixes their text (a one-time password with its own
 * button kinds), so there is nothing to write in an editor; they are made in Meta's manager and
 * arrive with the sync.
 */

export const TEMPLATE_NAME_MAX = 512;
export const HEADER_TEXT_MAX = 60;
export const BODY_TEXT_MAX = 1024;
export const FOOTER_TEXT_MAX = 60;
export const BUTTON_TEXT_MAX = 25;
export const BUTTONS_MAX = 10;
export const URL_BUTTONS_MAX = 2;
export const COPY_CODE_MAX = 15;
export const URL_MAX = 2000;
export const SAMPLE_MAX = 1024;

export const DRAFT_CATEGORIES = ["MARKETING", "UTILITY"] as const;
export const DRAFT_HEADER_FORMATS = ["NONE", "TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"] as const;
export const DRAFT_BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE"] as const;

/** `{{…}}` as written (anything between the braces), to tell a malformed variable from text. */
const ANY_VARIABLE = /\{\{([^{}]*)\}\}/g;
const POSITIONAL = /^[1-9][0-9]*$/;
const NAMED = /^[a-z][a-z0-9_]*$/;

export type VariableFormat = "POSITIONAL" | "NAMED";

/** The variables of a text in order of first appearance, and any written in neither of Meta's forms. */
export function variablesOf(text: string | undefined): { keys: string[]; malformed: string[]; count: number } {
  const keys: string[] = [];
  const malformed: string[] = [];
  let count = 0;
  for (const m of (text ?? "").matchAll(ANY_VARIABLE)) {
    count++;
    const key = m[1];
    if (!POSITIONAL.test(key) && !NAMED.test(key)) malformed.push(m[0]);
    else if (!keys.includes(key)) keys.push(key);
  }
  return { keys, malformed, count };
}

export const formatOf = (key: string): VariableFormat => (POSITIONAL.test(key) ? "POSITIONAL" : "NAMED");

const MSG = {
  name: "El campo name solo puede tener letras minúsculas, números y guiones bajos.",
  language: "El campo language debe ser un código de idioma de Meta, como es, es_MX o en_US.",
  category: "El campo category debe ser MARKETING o UTILITY.",
  malformed: (field: string, v: string) =>
    `El campo ${field} tiene una variable no válida (${v}): use {{1}}, {{2}}… o un nombre en minúsculas como {{nombre}}.`,
  mixed: "La plantilla no puede mezclar variables numeradas ({{1}}) y con nombre ({{nombre}}).",
  sequence: (field: string, keys: string) => `Las variables del campo ${field} deben ir numeradas en orden desde {{1}} (tiene ${keys}).`,
  edge: "El campo body.text no puede empezar ni terminar con una variable.",
  sample: (field: string, key: string) => `Falta el ejemplo de la variable {{${key}}} en ${field}.`,
  headerOneVariable: "El campo header.text admite como máximo una variable.",
  headerMedia: "El encabezado de imagen, video o documento necesita un ejemplo: un identificador de Meta o una URL http(s).",
  footerVariables: "El campo footer no puede tener variables.",
  buttonsMax: `La plantilla no puede tener más de ${BUTTONS_MAX} botones.`,
  urlButtonsMax: `La plantilla no puede tener más de ${URL_BUTTONS_MAX} botones URL.`,
  oneOf: (kind: string) => `La plantilla no puede tener más de un botón ${kind}.`,
  grouping: "Los botones de respuesta rápida deben ir juntos, antes o después de los demás botones.",
  urlVariable: "La URL del botón admite una sola variable, {{1}}, y solo al final.",
  urlExample: "El botón URL con variable necesita un ejemplo: la URL completa con un valor en lugar de {{1}}.",
  urlExamplePrefix: "El ejemplo del botón URL debe empezar como su URL (la parte antes de {{1}}).",
  url: "El campo url debe ser una URL http(s) válida.",
  phone: "El campo phone_number debe ser un número de teléfono con código de país, como +5215512345678.",
};

const buttonText = z
  .string()
  .trim()
  .min(1, "El texto del botón es obligatorio.")
  .max(BUTTON_TEXT_MAX, `El texto del botón no puede tener más de ${BUTTON_TEXT_MAX} caracteres.`);

export const draftButtonSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("QUICK_REPLY"), text: buttonText }),
  z.object({
    type: z.literal("URL"),
    text: buttonText,
    url: z
      .string()
      .trim()
      .max(URL_MAX)
      .regex(/^https?:\/\/[^\s]+$/i, MSG.url),
    example: z.string().trim().max(URL_MAX).optional().meta({
      description: "Con {{1}} en la url: la URL completa de ejemplo, con un valor en lugar de {{1}} (como Meta la pide).",
    }),
  }),
  z.object({
    type: z.literal("PHONE_NUMBER"),
    text: buttonText,
    phone_number: z
      .string()
      .trim()
      .regex(/^\+?[1-9][0-9]{6,19}$/, MSG.phone),
  }),
  z.object({
    type: z.literal("COPY_CODE"),
    example: z
      .string()
      .trim()
      .min(1, "El código de ejemplo es obligatorio.")
      .max(COPY_CODE_MAX, `El código de ejemplo no puede tener más de ${COPY_CODE_MAX} caracteres.`)
      .meta({ description: "El código de oferta de ejemplo (Meta fija el texto del botón)." }),
  }),
]);
export type DraftButton = z.infer<typeof draftButtonSchema>;

const sample = z.string().trim().max(SAMPLE_MAX, `El ejemplo no puede tener más de ${SAMPLE_MAX} caracteres.`);

export const draftHeaderSchema = z.discriminatedUnion("format", [
  z.object({ format: z.literal("NONE") }),
  z.object({
    format: z.literal("TEXT"),
    text: z
      .string()
      .trim()
      .min(1, "El campo header.text es obligatorio.")
      .max(HEADER_TEXT_MAX, `El campo header.text no puede tener más de ${HEADER_TEXT_MAX} caracteres.`),
    example: sample.optional().meta({ description: "El ejemplo de su variable, si tiene una." }),
  }),
  z.object({
    format: z.enum(["IMAGE", "VIDEO", "DOCUMENT"]),
    example: z.string().trim().min(1, MSG.headerMedia).max(URL_MAX).meta({
      description:
        "El ejemplo que Meta revisa: el identificador de una subida de Meta (Resumable Upload API, 4::…) o una URL http(s) del archivo.",
    }),
  }),
  z.object({ format: z.literal("LOCATION") }),
]);
export type DraftHeader = z.infer<typeof draftHeaderSchema>;

export const templateDraftSchema = z
  .object({
    wa_number: z.string().trim().min(1, "El campo wa_number es obligatorio.").max(32).meta({
      description: "El número a cuya cuenta de WhatsApp Business se envía la plantilla (la del sandbox la aprueba sola).",
    }),
    name: z
      .string()
      .trim()
      .min(1, "El campo name es obligatorio.")
      .max(TEMPLATE_NAME_MAX, `El campo name no puede tener más de ${TEMPLATE_NAME_MAX} caracteres.`)
      .regex(/^[a-z0-9_]+$/, MSG.name),
    language: z
      .string()
      .trim()
      .regex(/^[a-z]{2,3}(_[A-Z]{2,4})?$/, MSG.language),
    category: z.enum(DRAFT_CATEGORIES, { error: MSG.category }),
    header: draftHeaderSchema.default({ format: "NONE" }),
    body: z.object({
      text: z
        .string()
        .trim()
        .min(1, "El campo body.text es obligatorio.")
        .max(BODY_TEXT_MAX, `El campo body.text no puede tener más de ${BODY_TEXT_MAX} caracteres.`),
      examples: z.record(z.string(), sample).default({}).meta({
        description: 'Un ejemplo por variable del cuerpo, por su clave: {"1": "Ana"} o {"nombre": "Ana"}.',
      }),
    }),
    footer: z.string().trim().max(FOOTER_TEXT_MAX, `El campo footer no puede tener más de ${FOOTER_TEXT_MAX} caracteres.`).optional(),
    buttons: z.array(draftButtonSchema).max(BUTTONS_MAX, MSG.buttonsMax).default([]),
  })
  .superRefine((d, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const body = variablesOf(d.body.text);
    const header = d.header.format === "TEXT" ? variablesOf(d.header.text) : { keys: [], malformed: [], count: 0 };
    for (const v of body.malformed) issue(["body", "text"], MSG.malformed("body.text", v));
    for (const v of header.malformed) issue(["header", "text"], MSG.malformed("header.text", v));
    if (header.count > 1) issue(["header", "text"], MSG.headerOneVariable);
    // One parameter format for the whole template (Meta's `parameter_format`).
    const formats = new Set([...body.keys, ...header.keys].map(formatOf));
    if (formats.size > 1) issue(["body", "text"], MSG.mixed);
    if (formats.size === 1 && formats.has("POSITIONAL")) {
      const sorted = [...body.keys].map(Number).sort((a, b) => a - b);
      if (sorted.some((n, i) => n !== i + 1))
        issue(["body", "text"], MSG.sequence("body.text", body.keys.map((k) => `{{${k}}}`).join(", ")));
      if (header.keys.length && header.keys[0] !== "1") issue(["header", "text"], MSG.sequence("header.text", `{{${header.keys[0]}}}`));
    }
    if (/^\{\{[^{}]*\}\}/.test(d.body.text) || /\{\{[^{}]*\}\}$/.test(d.body.text)) issue(["body", "text"], MSG.edge);
    for (const key of body.keys) if (!d.body.examples[key]?.trim()) issue(["body", "examples", key], MSG.sample("body.text", key));
    if (d.header.format === "TEXT" && header.keys.length && !d.header.example?.trim()) {
      issue(["header", "example"], MSG.sample("header.text", header.keys[0]));
    }
    if (d.footer && variablesOf(d.footer).count) issue(["footer"], MSG.footerVariables);
    checkButtons(d.buttons, issue);
  });

function checkButtons(buttons: DraftButton[], issue: (path: (string | number)[], message: string) => void) {
  const count = (type: DraftButton["type"]) => buttons.filter((b) => b.type === type).length;
  if (count("URL") > URL_BUTTONS_MAX) issue(["buttons"], MSG.urlButtonsMax);
  if (count("PHONE_NUMBER") > 1) issue(["buttons"], MSG.oneOf("PHONE_NUMBER"));
  if (count("COPY_CODE") > 1) issue(["buttons"], MSG.oneOf("COPY_CODE"));
  // Quick replies in one run: QR QR URL or URL QR QR, never QR URL QR.
  const runs = buttons.map((b) => b.type === "QUICK_REPLY").filter((q, i, all) => i === 0 || q !== all[i - 1]).length;
  if (runs > 2) issue(["buttons"], MSG.grouping);
  buttons.forEach((b, i) => {
    if (b.type !== "URL") return;
    const vars = variablesOf(b.url);
    if (!vars.count) return;
    if (vars.count > 1 || vars.keys[0] !== "1" || !b.url.endsWith("{{1}}")) return issue(["buttons", i, "url"], MSG.urlVariable);
    if (!b.example) return issue(["buttons", i, "example"], MSG.urlExample);
    const fixed = b.url.slice(0, -"{{1}}".length);
    if (!b.example.startsWith(fixed) || b.example.length === fixed.length) issue(["buttons", i, "example"], MSG.urlExamplePrefix);
  });
}

export type TemplateDraft = z.infer<typeof templateDraftSchema>;
export type TemplateDraftInput = z.input<typeof templateDraftSchema>;

/** The draft's parameter format (Meta's `parameter_format`): named when any variable has a name. */
export function draftParameterFormat(d: Pick<TemplateDraft, "body" | "header">): VariableFormat {
  const keys = [...variablesOf(d.body.text).keys, ...(d.header.format === "TEXT" ? variablesOf(d.header.text).keys : [])];
  return keys.some((k) => formatOf(k) === "NAMED") ? "NAMED" : "POSITIONAL";
}
