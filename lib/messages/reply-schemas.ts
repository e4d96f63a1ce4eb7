import { z } from "@/lib/http/zod-es";

/**
 * Free-form replies (POST /api/v1/messages/{channel}/send): the types a business may send inside
 * the customer-service window, each `payload` in its 2.5 shape (media by `media_path` instead of
 * `url`). One schema per type, a discriminated union on `type`. The limits are WhatsApp's.
 */

// Exact texts (every limit has its own).
export const TEXT_TOO_LONG = "El texto no puede superar 4096 caracteres.";
export const TEXT_REQUIRED = "El texto del mensaje es obligatorio.";
export const CAPTION_TOO_LONG = "El pie de foto (caption) no puede superar 1024 caracteres.";
export const FILENAME_TOO_LONG = "El nombre del archivo (filename) no puede superar 240 caracteres.";
export const MEDIA_PATH_REQUIRED = "El campo payload.media_path es obligatorio: súbalo primero con /api/v1/media-upload.";
export const LATITUDE_INVALID = "La latitud debe ser un número entre -90 y 90.";
export const LONGITUDE_INVALID = "La longitud debe ser un número entre -180 y 180.";
export const LOCATION_TEXT_TOO_LONG = "El nombre y la dirección de la ubicación no pueden superar 1000 caracteres cada uno.";
export const CONTACTS_REQUIRED = "Debe enviar al menos un contacto.";
export const CONTACTS_TOO_MANY = "No se pueden enviar más de 10 contactos en un mensaje.";
export const CONTACT_NAME_REQUIRED = "Cada contacto debe tener name.formatted_name.";
export const QUICK_REPLY_TEXT_REQUIRED = "El texto del mensaje (content.text) es obligatorio.";
export const QUICK_REPLY_TEXT_TOO_LONG = "El texto del mensaje (content.text) no puede superar 1024 caracteres.";
export const HEADER_TOO_LONG = "El encabezado no puede superar 60 caracteres.";
export const OPTIONS_COUNT = "Debe enviar de 1 a 3 opciones de respuesta rápida.";
export const OPTION_TITLE_REQUIRED = "El título de cada opción es obligatorio.";
export const OPTION_TITLE_TOO_LONG = "El título de cada opción no puede superar 20 caracteres.";
export const OPTION_ID_TOO_LONG = "El id de cada opción no puede superar 256 caracteres.";
export const OPTION_ID_REPEATED = "Los id de las opciones no pueden repetirse.";
export const LIST_BODY_REQUIRED = "El cuerpo de la lista (body) es obligatorio.";
export const LIST_BODY_TOO_LONG = "El cuerpo de la lista (body) no puede superar 4096 caracteres.";
export const LIST_BUTTON_REQUIRED = "El botón de la lista (button) es obligatorio.";
export const LIST_BUTTON_TOO_LONG = "El botón de la lista (button) no puede superar 20 caracteres.";
export const LIST_SECTIONS_REQUIRED = "La lista debe tener al menos una sección con una fila.";
export const LIST_ROWS_TOO_MANY = "La lista no puede tener más de 10 filas en total.";
export const LIST_SECTION_TITLE_TOO_LONG = "El título de cada sección no puede superar 24 caracteres.";
export const LIST_SECTION_TITLE_REQUIRED = "Con más de una sección, cada sección debe tener título.";
export const LIST_ROW_TITLE_REQUIRED = "El título de cada fila es obligatorio.";
export const LIST_ROW_TITLE_TOO_LONG = "El título de cada fila no puede superar 24 caracteres.";
export const LIST_ROW_DESCRIPTION_TOO_LONG = "La descripción de cada fila no puede superar 72 caracteres.";
export const LIST_ROW_ID_REQUIRED = "El id de cada fila es obligatorio.";
export const LIST_ROW_ID_TOO_LONG = "El id de cada fila no puede superar 200 caracteres.";
export const LIST_ROW_ID_REPEATED = "Los id de las filas no pueden repetirse.";
export const REPLY_TYPE_INVALID =
  "El campo type debe ser uno de: text, image, video, audio, document, sticker, location, contacts, quick_reply, list.";
export const CONTEXT_UPDATE_ID_INVALID = "El campo context_update_id debe ser un update_id válido.";

const text = (required: string, max: number, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(max, tooLong);
const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => v || null);

const mediaPath = z
  .string({ error: MEDIA_PATH_REQUIRED })
  .trim()
  .min(1, MEDIA_PATH_REQUIRED)
  .max(1024, "El campo payload.media_path no puede tener más de 1024 caracteres.");
const caption = optionalText(1024, CAPTION_TOO_LONG);
const filename = optionalText(240, FILENAME_TOO_LONG);

/** A coordinate as a number or a numeric string (2.5 stores them as strings). */
const coordinate = (limit: number, message: string) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d{1,3}(\.\d+)?$/)
          .transform(Number),
      ],
      { error: message },
    )
    .refine((n) => Number.isFinite(n) && Math.abs(n) <= limit, message);

const typed = <T extends string, P extends z.ZodType>(type: T, payload: P) => z.object({ type: z.literal(type), payload });

export const textPayload = z.object({
  text: text(TEXT_REQUIRED, 4096, TEXT_TOO_LONG),
  preview_url: z.boolean({ error: "El campo payload.preview_url debe ser verdadero o falso." }).optional().default(false),
});
export const imagePayload = z.object({ media_path: mediaPath, caption });
export const videoPayload = z.object({ media_path: mediaPath, caption, filename });
export const audioPayload = z.object({ media_path: mediaPath });
export const documentPayload = z.object({ media_path: mediaPath, caption, filename });
export const stickerPayload = z.object({ media_path: mediaPath });
export const locationPayload = z.object({
  latitude: coordinate(90, LATITUDE_INVALID),
  longitude: coordinate(180, LONGITUDE_INVALID),
  name: optionalText(1000, LOCATION_TEXT_TOO_LONG),
  address: optionalText(1000, LOCATION_TEXT_TOO_LONG),
});

/** One shared contact (2.5 `contacts`); only name.formatted_name is required, as by WhatsApp. */
const sharedContact = z
  .object({
    name: z
      .object(
        { formatted_name: z.string({ error: CONTACT_NAME_REQUIRED }).trim().min(1, CONTACT_NAME_REQUIRED).max(512) },
        { error: CONTACT_NAME_REQUIRED },
      )
      .catchall(z.unknown()),
    addresses: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
    birthday: z.string().max(10).optional(),
    emails: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
    org: z.record(z.string(), z.unknown()).optional(),
    phones: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
    urls: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
  })
  .strip();
export const contactsPayload = z.array(sharedContact, { error: CONTACTS_REQUIRED }).min(1, CONTACTS_REQUIRED).max(10, CONTACTS_TOO_MANY);

export const quickReplyPayload = z
  .object({
    content: z.object({
      type: z.literal("text").optional().default("text"),
      header: optionalText(60, HEADER_TOO_LONG),
      text: text(QUICK_REPLY_TEXT_REQUIRED, 1024, QUICK_REPLY_TEXT_TOO_LONG),
    }),
    options: z
      .array(
        z.object({
          type: z.literal("text").optional().default("text"),
          title: text(OPTION_TITLE_REQUIRED, 20, OPTION_TITLE_TOO_LONG),
          id: optionalText(256, OPTION_ID_TOO_LONG),
        }),
        { error: OPTIONS_COUNT },
      )
      .min(1, OPTIONS_COUNT)
      .max(3, OPTIONS_COUNT),
  })
  // An option without an id answers with its position ("1", "2", "3").
  .transform((p) => ({ ...p, options: p.options.map((o, i) => ({ type: o.type, title: o.title, id: o.id ?? String(i + 1) })) }))
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.options.forEach((o, i) => {
      if (seen.has(o.id)) ctx.addIssue({ code: "custom", path: ["options", i, "id"], message: OPTION_ID_REPEATED });
      seen.add(o.id);
    });
  });

export const listPayload = z
  .object({
    title: optionalText(60, HEADER_TOO_LONG),
    body: text(LIST_BODY_REQUIRED, 4096, LIST_BODY_TOO_LONG),
    button: text(LIST_BUTTON_REQUIRED, 20, LIST_BUTTON_TOO_LONG),
    items: z
      .array(
        z.object({
          title: optionalText(24, LIST_SECTION_TITLE_TOO_LONG),
          rows: z
            .array(
              z.object({
                id: text(LIST_ROW_ID_REQUIRED, 200, LIST_ROW_ID_TOO_LONG),
                title: text(LIST_ROW_TITLE_REQUIRED, 24, LIST_ROW_TITLE_TOO_LONG),
                description: optionalText(72, LIST_ROW_DESCRIPTION_TOO_LONG),
              }),
              { error: LIST_SECTIONS_REQUIRED },
            )
            .min(1, LIST_SECTIONS_REQUIRED),
        }),
        { error: LIST_SECTIONS_REQUIRED },
      )
      .min(1, LIST_SECTIONS_REQUIRED)
      .max(10, LIST_ROWS_TOO_MANY),
  })
  .superRefine((p, ctx) => {
    const rows = p.items.flatMap((s, i) => s.rows.map((r, j) => ({ r, path: ["items", i, "rows", j, "id"] })));
    if (rows.length > 10) ctx.addIssue({ code: "custom", path: ["items"], message: LIST_ROWS_TOO_MANY });
    if (p.items.length > 1) {
      p.items.forEach((s, i) => {
        if (!s.title) ctx.addIssue({ code: "custom", path: ["items", i, "title"], message: LIST_SECTION_TITLE_REQUIRED });
      });
    }
    const seen = new Set<string>();
    for (const { r, path } of rows) {
      if (seen.has(r.id)) ctx.addIssue({ code: "custom", path, message: LIST_ROW_ID_REPEATED });
      seen.add(r.id);
    }
  });

export const replyMessage = z.discriminatedUnion(
  "type",
  [
    typed("text", textPayload),
    typed("image", imagePayload),
    typed("video", videoPayload),
    typed("audio", audioPayload),
    typed("document", documentPayload),
    typed("sticker", stickerPayload),
    typed("location", locationPayload),
    typed("contacts", contactsPayload),
    typed("quick_reply", quickReplyPayload),
    typed("list", listPayload),
  ],
  { error: REPLY_TYPE_INVALID },
);
export type ReplyMessage = z.output<typeof replyMessage>;
export type ReplyMediaMessage = Extract<ReplyMessage, { type: "image" | "video" | "audio" | "document" | "sticker" }>;

const requiredField = (field: string) =>
  z
    .string({ error: `El campo ${field} es obligatorio.` })
    .trim()
    .min(1, `El campo ${field} es obligatorio.`)
    .max(200, `El campo ${field} no puede tener más de 200 caracteres.`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Fields besides the message; key order is the order errors are reported in. */
export const replyEnvelope = z.object({
  wa_number: requiredField("wa_number").meta({ description: "Company number registered to the caller's team.", example: "573001234567" }),
  customer_source: requiredField("customer_source").meta({
    description: "The customer's phone number or their customer_id (as in the history, 4.5).",
    example: "573009876543",
  }),
  context_update_id: z
    .string({ error: CONTEXT_UPDATE_ID_INVALID })
    .trim()
    .regex(UUID, CONTEXT_UPDATE_ID_INVALID)
    .nullish()
    .transform((v) => v?.toLowerCase() ?? null)
    .meta({ description: "update_id of a message of this conversation the reply answers (shown quoted in WhatsApp)." }),
});

export const sendReplyInput = z.intersection(replyEnvelope, replyMessage).meta({
  id: "SendReplyRequest",
  description:
    "A free-form message inside the 24-hour customer-service window. `payload` has the 2.5 shape of `type`; media types take `media_path` (from /api/v1/media-upload) instead of `url`.",
});
export type SendReplyInput = z.output<typeof sendReplyInput>;
