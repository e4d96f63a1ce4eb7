import { z } from "@/lib/http/zod-es";

/** The largest CSV POST /api/v1/contacts/import accepts (bytes): ~150,000 typical rows. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The longest one record (row) may be; a longer one is rejected, its neighbours still read. */
export const IMPORT_MAX_RECORD_BYTES = 4096;
/** Rows written per transaction (and per NDJSON progress line). */
export const IMPORT_BATCH_ROWS = 2000;

export const IMPORT_TOO_LARGE = "El archivo CSV no puede superar 10 MB.";
export const IMPORT_CONTENT_TYPE = "El encabezado Content-Type debe ser text/csv.";
export const IMPORT_NOT_UTF8 = "El archivo debe estar codificado en UTF-8.";
export const IMPORT_EMPTY = "El archivo está vacío.";
export const IMPORT_NO_NUMBER_COLUMN = "El archivo debe tener una columna number (o customer_number) en la primera línea.";

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

export const importIssueSchema = z.object({ line: z.number().int(), reason: z.string() }).meta({ id: "ContactImportIssue" });
export type ImportIssue = z.infer<typeof importIssueSchema>;

export const importResultSchema = z
  .object({
    processed: z.number().int().meta({ description: "Filas de datos leídas (sin el encabezado)" }),
    created: z.number().int(),
    updated: z.number().int(),
    rejected: z.array(importIssueSchema),
    warnings: z.array(importIssueSchema),
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

export const importDoneMessage = (imported: number, rejected: number) =>
  `Importación terminada: ${imported} contactos importados, ${rejected} filas rechazadas.`;
