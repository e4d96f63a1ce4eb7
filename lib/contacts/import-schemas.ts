import { z } from "@/lib/http/zod-es";
import { labelSchema } from "@/lib/labels/schemas";

/** The largest CSV POST /api/v1/contacts/import accepts (bytes): ~150,000 typical rows. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The longest one record (row) may be; a longer one is rejected, its neighbours still read. */
export const IMPORT_MAX_RECORD_BYTES = 4096;
/** Rows written per transaction (and per NDJSON progress line). */
export const IMPORT_BATCH_ROWS = 2000;
/** With `rejected_rows=1`: rejected rows kept (with their cells) in the report; the rest are only counted. */
export const IMPORT_REPORT_MAX_REJECTED = 1000;
/** With `create_missing_labels=1`: labels one import creates at most (a wrong column would otherwise make thousands). */
export const IMPORT_MAX_NEW_LABELS = 50;
/** A dry run lists at most this many missing labels (`missing_labels_total` counts them all). */
export const IMPORT_PREVIEW_MAX_LABELS = 100;

export const IMPORT_TOO_LARGE = "El archivo CSV no puede superar 10 MB.";
export const IMPORT_CONTENT_TYPE = "El encabezado Content-Type debe ser text/csv.";
export const IMPORT_NOT_UTF8 = "El archivo debe estar codificado en UTF-8.";
export const IMPORT_EMPTY = "El archivo está vacío.";
export const IMPORT_NO_NUMBER_COLUMN = "El archivo debe tener una columna number (o customer_number) en la primera línea.";

/**
 * Why a row was rejected, as a code (`rejected_rows=1` adds it to each rejected row, so a client
 * can word it in its own language); `reason` is always the Spanish text below.
 */
export const IMPORT_REJECT_CODES = [
  "number_missing",
  "number_invalid",
  "number_repeated",
  "customer_id_repeated",
  "customer_id_taken",
  "name_too_long",
  "customer_id_too_long",
  "unreadable",
  "bad_characters",
] as const;
export type ImportRejectCode = (typeof IMPORT_REJECT_CODES)[number];

// Reasons of a rejected row (each with its 1-based line; the header is line 1).
export const ROW_NUMBER_MISSING = "Falta el número de teléfono.";
export const ROW_NUMBER_INVALID = "El número de teléfono no es válido.";
export const rowNumberRepeated = (line: number) => `El número ya aparece en la línea ${line} del archivo.`;
export const rowCustomerIdRepeated = (line: number) => `El customer_id ya aparece en la línea ${line} del archivo.`;
export const ROW_CUSTOMER_ID_TAKEN = "El customer_id ya pertenece a otro contacto.";
export const ROW_NAME_TOO_LONG = "El nombre no puede tener más de 200 caracteres.";
export const ROW_CUSTOMER_ID_TOO_LONG = "El customer_id no puede tener más de 100 caracteres.";
export const ROW_UNREADABLE = "La fila no se pudo leer (comillas sin cerrar o fila demasiado larga).";
export const ROW_BAD_CHARACTERS = "La fila contiene caracteres no válidos.";
// Warnings: the row was imported, something in it was not.
export const ROW_OPT_OUT_UNKNOWN = "El valor de marketing_opt_out no se reconoce (use sí o no); se ignoró.";
export const rowLabelUnknown = (title: string) => `La etiqueta «${title}» no existe; se omitió.`;
export const rowLabelCap = (titles: string[]) => `El contacto no puede tener más de 5 etiquetas; se omitieron: ${titles.join(", ")}.`;
/**
 * A warning's kind, for clients that show it in their own language (the dashboard's English):
 * `labels` names the labels it concerns. The Spanish `reason` stays the contract's text.
 */
export const IMPORT_WARNING_CODES = [
  "marketing_opt_out_unknown",
  "label_unknown",
  "label_title_invalid",
  "label_too_many_new",
  "label_cap",
] as const;
export type ImportWarningCode = (typeof IMPORT_WARNING_CODES)[number];
export type ImportWarning = { line: number; reason: string; code: ImportWarningCode; labels?: string[] };
/** `create_missing_labels=1`: a title the labels API would refuse (its own text as the reason). */
export const rowLabelNotCreated = (title: string, reason: string) =>
  `La etiqueta «${title}» no se pudo crear (${reason.replace(/\.$/, "")}); se omitió.`;
export const rowLabelTooManyNew = (title: string) =>
  `La etiqueta «${title}» no se creó: una importación crea como máximo ${IMPORT_MAX_NEW_LABELS} etiquetas; se omitió.`;

/** The Spanish reason of a rejected row's code (`first_line`: where a repeated number or customer_id first appeared). */
export function rejectReason(code: ImportRejectCode, firstLine?: number): string {
  switch (code) {
    case "number_missing":
      return ROW_NUMBER_MISSING;
    case "number_invalid":
      return ROW_NUMBER_INVALID;
    case "number_repeated":
      return rowNumberRepeated(firstLine ?? 0);
    case "customer_id_repeated":
      return rowCustomerIdRepeated(firstLine ?? 0);
    case "customer_id_taken":
      return ROW_CUSTOMER_ID_TAKEN;
    case "name_too_long":
      return ROW_NAME_TOO_LONG;
    case "customer_id_too_long":
      return ROW_CUSTOMER_ID_TOO_LONG;
    case "unreadable":
      return ROW_UNREADABLE;
    case "bad_characters":
      return ROW_BAD_CHARACTERS;
  }
}

export const importIssueSchema = z
  .object({
    line: z.number().int(),
    reason: z.string(),
    code: z
      .enum(IMPORT_REJECT_CODES)
      .optional()
      .meta({ description: "Solo en las filas rechazadas con `rejected_rows=1`: el motivo como código" }),
    first_line: z
      .number()
      .int()
      .optional()
      .meta({ description: "Con `code` number_repeated o customer_id_repeated: la línea donde apareció primero" }),
    row: z
      .array(z.string())
      .nullable()
      .optional()
      .meta({
        description:
          "Solo con `rejected_rows=1`: las celdas de la fila tal como se leyeron (caracteres de control cambiados por U+FFFD); " +
          "null si la fila no se pudo leer o era demasiado larga",
      }),
  })
  .meta({ id: "ContactImportIssue" });
export type ImportIssue = z.infer<typeof importIssueSchema>;

export const importWarningSchema = z
  .object({
    line: z.number().int(),
    reason: z.string(),
    code: z.enum(IMPORT_WARNING_CODES).meta({ description: "El aviso como código (el texto de `reason` en otro idioma)" }),
    labels: z
      .array(z.string())
      .optional()
      .meta({ description: "Con los códigos de etiquetas: los títulos de las etiquetas que el aviso nombra" }),
  })
  .meta({ id: "ContactImportWarning" });

export const importResultSchema = z
  .object({
    processed: z.number().int().meta({ description: "Filas de datos leídas (sin el encabezado)" }),
    created: z.number().int(),
    updated: z.number().int(),
    rejected: z.array(importIssueSchema),
    warnings: z.array(importWarningSchema),
    labels_created: z
      .array(labelSchema)
      .optional()
      .meta({ description: "Solo con `create_missing_labels=1`: las etiquetas que creó esta importación" }),
    columns: z
      .array(z.string())
      .optional()
      .meta({ description: "Solo con `rejected_rows=1`: el encabezado del archivo (las columnas de `row`)" }),
    rejected_total: z
      .number()
      .int()
      .optional()
      .meta({
        description: `Solo con \`rejected_rows=1\`: todas las filas rechazadas; \`rejected\` guarda las ${IMPORT_REPORT_MAX_REJECTED} primeras`,
      }),
  })
  .meta({ id: "ContactImportResult" });
export type ImportResult = z.infer<typeof importResultSchema>;

export const importResponse = z.object({ message: z.string(), data: importResultSchema }).meta({ id: "ContactImportResponse" });
export type ImportResponse = z.infer<typeof importResponse>;

/** `Accept: application/x-ndjson`: one progress line per batch, then the final one. */
export const importProgressLine = z
  .object({ type: z.literal("progress"), processed: z.number().int() })
  .meta({ id: "ContactImportProgress" });
export const importDoneLine = z
  .object({ type: z.literal("done"), message: z.string(), data: importResultSchema })
  .meta({ id: "ContactImportDone" });
/** A failure after the stream started (the status is already 200): the import stopped there. */
export const importErrorLine = z.object({ type: z.literal("error"), message: z.string() }).meta({ id: "ContactImportError" });
export const importStreamLine = z.discriminatedUnion("type", [importProgressLine, importDoneLine, importErrorLine]);
export type ImportStreamLine = z.infer<typeof importStreamLine>;

/** 0/1 (or true/false) in the import's query string. */
const flag = (field: string) =>
  z
    .enum(["0", "1", "true", "false"], { error: `El parámetro ${field} debe ser 0, 1, true o false.` })
    .transform((v) => v === "1" || v === "true")
    .optional();

/** The query of POST /api/v1/contacts/import: every option is off unless asked for. */
export const importQuery = z
  .object({
    dry_run: flag("dry_run").meta({
      description:
        "1: lee y comprueba el archivo sin escribir nada y responde `ContactImportPreviewResponse` (p. ej. qué etiquetas del archivo " +
        "no existen), siempre como un JSON",
    }),
    create_missing_labels: flag("create_missing_labels").meta({
      description:
        `1: crea las etiquetas del archivo que el equipo no tiene (colores por defecto, sin descripción; como máximo ${IMPORT_MAX_NEW_LABELS} ` +
        "por importación) y las asigna. Sin él, una etiqueta desconocida es un aviso en su fila",
    }),
    rejected_rows: flag("rejected_rows").meta({
      description:
        `1: cada fila rechazada lleva sus celdas (\`row\`) y su motivo como código (\`code\`), y \`columns\` el encabezado; se guardan las ` +
        `${IMPORT_REPORT_MAX_REJECTED} primeras y \`rejected_total\` las cuenta todas`,
    }),
  })
  .meta({ id: "ContactImportQuery" });
export type ImportQuery = z.output<typeof importQuery>;

/** Why a missing label of a dry run would not be created. */
export const IMPORT_LABEL_PROBLEMS = ["title_invalid", "too_many_new_labels"] as const;

export const importMissingLabelSchema = z
  .object({
    title: z.string().meta({ description: "El título como aparece primero en el archivo (100 caracteres como mucho)" }),
    rows: z.number().int().meta({ description: "Filas válidas que la nombran" }),
    problem: z
      .enum(IMPORT_LABEL_PROBLEMS)
      .nullable()
      .meta({ description: "null: `create_missing_labels=1` la crearía; si no, por qué no" }),
    reason: z.string().nullable().meta({ description: "El problema en palabras (el aviso que tendría su fila)" }),
  })
  .meta({ id: "ContactImportMissingLabel" });
export type ImportMissingLabel = z.infer<typeof importMissingLabelSchema>;

export const importPreviewSchema = z
  .object({
    processed: z.number().int().meta({ description: "Filas de datos leídas (sin el encabezado)" }),
    rejected: z.number().int().meta({ description: "Filas que el archivo ya rechaza (número, longitudes, repetidas)" }),
    missing_labels: z.array(importMissingLabelSchema),
    missing_labels_total: z.number().int(),
  })
  .meta({ id: "ContactImportPreview" });
export type ImportPreview = z.infer<typeof importPreviewSchema>;
export const importPreviewResponse = z
  .object({ message: z.string(), data: importPreviewSchema })
  .meta({ id: "ContactImportPreviewResponse" });
export type ImportPreviewResponse = z.infer<typeof importPreviewResponse>;

export const importPreviewMessage = (missing: number) =>
  missing ? `Archivo comprobado: ${missing} etiquetas del archivo no existen.` : "Archivo comprobado: todas sus etiquetas existen.";

export const importDoneMessage = (imported: number, rejected: number) =>
  `Importación terminada: ${imported} contactos importados, ${rejected} filas rechazadas.`;
