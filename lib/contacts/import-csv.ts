import { parse, type Options, type Parser } from "csv-parse";

/**
 * The CSV side of the contacts import, without the database: separator detection, header
 * aliases and a record iterator over csv-parse (streamed: the parser is fed the file in chunks
 * and hands records over as they complete).
 */

export type Column = "number" | "name" | "customer_id" | "labels" | "marketing_opt_out";

/** Header names accepted for each column, compared lowercased, without accents, spaces as `_`. */
const ALIASES: Record<Column, string[]> = {
  number: [
    "number",
    "customer_number",
    "numero",
    "numero_de_telefono",
    "telefono",
    "phone",
    "phone_number",
    "celular",
    "movil",
    "whatsapp",
  ],
  name: ["name", "nombre", "customer_name", "nombre_completo"],
  customer_id: ["customer_id", "id_cliente", "cliente_id", "external_id"],
  labels: ["labels", "label", "etiquetas", "etiqueta", "tags"],
  marketing_opt_out: ["marketing_opt_out", "opt_out", "baja_marketing", "sin_marketing", "baja"],
};

const YES = new Set(["si", "yes", "true", "1", "x", "baja"]);
const NO = new Set(["no", "false", "0"]);
/**
 * A marketing_opt_out cell: true (sí, yes, true, 1, x), false (no, false, 0, or empty: nothing
 * changes), or null when it is none of them. The export writes "sí"/"no".
 */
export function parseOptOutCell(cell: string): boolean | null {
  const v = normalizeHeader(cell);
  if (!v || NO.has(v)) return false;
  return YES.has(v) ? true : null;
}

/**
 * A cell as our own CSV files wrote it: the apostrophe that csvCell (lib/http/csv.ts) puts before
 * a value starting with = + - @ (formula injection) is taken off again, so a number exported or
 * handed back as `'+57 300…` (the rejected rows' download) reads as `+57 300…` once more.
 */
export function unescapeCell(cell: string): string {
  return /^'[=+\-@]/.test(cell) ? cell.slice(1) : cell;
}

export function normalizeHeader(h: string): string {
  return h
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** Which field of a record holds each known column (first match wins; unknown columns ignored). */
export function mapHeader(header: string[]): Partial<Record<Column, number>> {
  const out: Partial<Record<Column, number>> = {};
  header.forEach((h, i) => {
    const n = normalizeHeader(h);
    for (const col of Object.keys(ALIASES) as Column[]) if (out[col] === undefined && ALIASES[col].includes(n)) out[col] = i;
  });
  return out;
}

/**
 * `;` when the first line has more semicolons than commas outside quotes, else `,` (a spreadsheet
 * in a Spanish locale saves with `;`).
 */
export function detectSeparator(bytes: Uint8Array): "," | ";" {
  let commas = 0;
  let semis = 0;
  let quoted = false;
  for (let i = 0; i < bytes.length && i < 64 * 1024; i++) {
    const b = bytes[i];
    if (b === 0x22) quoted = !quoted;
    else if (!quoted && (b === 0x0a || b === 0x0d)) break;
    else if (!quoted && b === 0x2c) commas++;
    else if (!quoted && b === 0x3b) semis++;
  }
  return semis > commas ? ";" : ",";
}

export type CsvRecord = { fields: string[]; line: number };
export type CsvEvent = CsvRecord | { unreadable: number };

/**
 * Records of the file with the 1-based line each starts on (a quoted field may span lines). A
 * record csv-parse cannot read (a quote never closed, which takes the rest of the file with it)
 * is reported as `{unreadable: line}`, after the header. No record size cap here: the caller
 * rejects long rows itself, so one huge line never costs its neighbours.
 *
 * Lines are counted here from the bytes (csv-parse's own count takes a CRLF inside quotes for
 * two lines): `on_record` runs in the parser, in file order, with the bytes consumed so far.
 */
export async function* readCsv(bytes: Uint8Array, separator: string, chunkBytes = 64 * 1024): AsyncGenerator<CsvEvent> {
  let scan = 0;
  let line = 1;
  /** Counts the line breaks (CRLF, LF or CR: one each) from `scan` up to `to`. */
  const advance = (to: number, blanksOnly = false) => {
    while (scan < to) {
      const b = bytes[scan];
      if (b === 0x0d) {
        line++;
        scan += bytes[scan + 1] === 0x0a ? 2 : 1;
      } else if (b === 0x0a) {
        line++;
        scan++;
      } else if (blanksOnly) break;
      else scan++;
    }
  };
  const skipped: number[] = [];
  const options: Options<CsvRecord, string[]> = {
    bom: true,
    delimiter: separator,
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (fields, context) => {
      advance(bytes.length, true);
      const start = line;
      advance(context.bytes);
      return { fields, line: start };
    },
    on_skip: () => {
      advance(bytes.length, true);
      skipped.push(line);
    },
  };
  // on_record turns each record into a CsvRecord, which the plain overload does not model.
  const parser: Parser = parse(options as unknown as Options);
  // Fed from the buffer chunk by chunk as the consumer pulls records (write() gives backpressure).
  const feed = (async () => {
    for (let at = 0; at < bytes.length; at += chunkBytes) {
      if (!parser.write(Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(chunkBytes, bytes.length - at)))) {
        await new Promise<void>((resolve) => parser.once("drain", resolve));
      }
    }
    parser.end();
  })();
  let header = false;
  try {
    for await (const r of parser as AsyncIterable<CsvRecord>) {
      yield r;
      header = true;
      while (skipped.length) yield { unreadable: skipped.shift()! };
    }
  } catch {
    // An error the parser cannot skip ends the reading; what came before stands.
    advance(bytes.length, true);
    skipped.push(line);
  } finally {
    parser.destroy();
  }
  await feed.catch(() => {});
  if (header) while (skipped.length) yield { unreadable: skipped.shift()! };
}
