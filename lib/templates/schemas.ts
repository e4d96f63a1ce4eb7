import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";
import type { HeaderFormat, TemplateButton, TemplateComponent } from "@/db/schema/templates";

export type { HeaderFormat, TemplateButton, TemplateComponent };

/**
 * A button's position in Meta's template, when not its position in `buttons`: a template synced
 * from Meta keeps only QUICK_REPLY and URL buttons, and Meta numbers buttons over all of them
 * (phone number, copy code, flow…). Shown so a client can give `button_params` the right index.
 */
const metaButtonIndexField = z.number().int().min(0).max(9).optional().meta({
  description:
    "Posición del botón en la plantilla de Meta (desde 0), solo cuando difiere de su posición en buttons: una plantilla sincronizada cuyos otros botones (teléfono, copiar código…) no se listan. Es el index de button_params.",
});

/** Template structure of spec 2.1, shared by the API, the admin CLI, the form and OpenAPI. */
export const templateButtonSchema = z.union([
  z.object({ type: z.literal("QUICK_REPLY"), text: z.string(), payload: z.string().optional(), index: metaButtonIndexField }),
  z.object({
    type: z.literal("URL"),
    text: z.string(),
    url: z.string(),
    example: z.array(z.string()).optional(),
    index: metaButtonIndexField,
  }),
]);

/** The button's number in Meta's template (the `index` of its send-time component and of `button_params`). */
export function metaButtonIndex(button: TemplateButton, position: number): number {
  return button.index ?? position;
}

/** The components without the buttons' `index`: the 2.1 structure as stored in a sent message's payload. */
export function withoutButtonIndexes(components: TemplateComponent[]): TemplateComponent[] {
  return components.map((c) => (c.type === "BUTTONS" ? { ...c, buttons: c.buttons.map(({ index: _index, ...b }) => b) } : c));
}

export const headerFormatSchema = z.enum(["TEXT", "IMAGE", "DOCUMENT", "VIDEO"]);

export const templateComponentSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("HEADER"),
    format: headerFormatSchema,
    text: z.string().optional(),
    example: z.object({ header_handle: z.array(z.string()).optional(), header_text: z.array(z.string()).optional() }).optional(),
  }),
  z.object({
    type: z.literal("BODY"),
    text: z.string(),
    example: z.object({ body_text: z.array(z.array(z.string())) }).optional(),
  }),
  z.object({ type: z.literal("FOOTER"), text: z.string() }),
  z.object({ type: z.literal("BUTTONS"), buttons: z.array(templateButtonSchema) }),
]);
// The stored types live with the schema (db/schema/templates.ts); these zod schemas describe the
// same shapes: the checks below (each type assignable to the other) fail to compile when a field
// is added as required, removed, renamed or retyped on one side only.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type _HeaderFormatInSync = Assert<Same<z.infer<typeof headerFormatSchema>, HeaderFormat>>;
type _ButtonInSync = Assert<Same<z.infer<typeof templateButtonSchema>, TemplateButton>>;
type _ComponentInSync = Assert<Same<z.infer<typeof templateComponentSchema>, TemplateComponent>>;
type Assert<T extends true> = T;

export const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.string(),
    category: z.string(),
    language: z.string(),
    rejected_reason: z.string(),
    components: z.array(templateComponentSchema),
  })
  .meta({ id: "Template" });
export type Template = z.infer<typeof templateSchema>;

/** What `admin template:add --file` and template sync accept. */
export const templateInputSchema = z.object({
  id: z.string().optional(),
  name: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[a-z0-9_]+$/),
  language: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/),
  category: z.enum(["UTILITY", "MARKETING", "AUTHENTICATION"]),
  status: z.string().default("APPROVED"),
  rejected_reason: z.string().default("NONE"),
  components: z.array(templateComponentSchema).min(1),
  default_media_path: z.string().nullish(),
  wa_number: z.string().nullish(),
});
export type TemplateInput = z.infer<typeof templateInputSchema>;

/** The keys `{{n}}` used in a template text, in order of first appearance. */
export function placeholderKeys(text: string | undefined): string[] {
  if (!text) return [];
  const keys: string[] = [];
  for (const m of text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)) if (!keys.includes(m[1])) keys.push(m[1]);
  return keys;
}

/** Replaces `{{key}}` with its value; unknown keys stay as written. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * A template as listed by `GET /message_templates`: the 2.1 structure plus its default attachment,
 * Meta's quality score, the number it belongs to (null: every number of the team) and when it last
 * changed.
 */
export const templateListItemSchema = templateSchema
  .extend({
    default_media_path: z.string().nullable(),
    quality_score: z.string().meta({ description: "Calidad según Meta: GREEN, YELLOW, RED o UNKNOWN" }),
    wa_number: z.string().nullable().meta({
      description: "El número de la plantilla (la cuenta de WhatsApp Business de la que se sincronizó); null: de todos los números",
    }),
    updated_at: z.string().meta({ description: "ISO 8601 (UTC): el último cambio de la plantilla" }),
  })
  .meta({ id: "TemplateListItem" });
export type TemplateListItem = z.infer<typeof templateListItemSchema>;

export const listTemplatesQuery = pageQuery({ max: 100, fallback: 50 })
  .extend({
    search: z.string().trim().max(512, "El campo search no puede tener más de 512 caracteres.").optional(),
    wa_number: z.string().trim().min(1, "El campo wa_number no puede estar vacío.").max(32).optional(),
    status: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z_]{1,40}$/, "El campo status debe ser un estado de Meta, como APPROVED o PAUSED.")
      .optional()
      .meta({ description: "Solo las plantillas con este estado (APPROVED, PENDING, REJECTED, PAUSED, DISABLED, DELETED…)" }),
    sendable: z
      .enum(["0", "1"], { error: "El campo sendable debe ser 0 o 1." })
      .transform((v) => v === "1")
      .optional()
      .meta({ description: "1: solo las plantillas que se pueden enviar (APPROVED); las demás muestran su status y rejected_reason" }),
  })
  .meta({ id: "ListTemplatesQuery" });
export type ListTemplatesQuery = z.infer<typeof listTemplatesQuery>;

export const listTemplatesResponse = listResponse(templateListItemSchema).meta({ id: "ListTemplatesResponse" });
export type TemplateInputRaw = z.input<typeof templateInputSchema>;
