import { parse, type Parser } from "csv-parse";

/**
 * The CSV side of the contacts import, without the database: separator detection, header
 * aliases and a record iterator over csv-parse (streamed: the parser is fed the file in chunks
 * and hands records over as they complete).
 */

export type Column = "number" | "name" | "customer_id" | "labels";

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
};

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
 * Records of the file with the 1-based line each starts on. A record csv-parse cannot read (a
 * quote never closed) is reported as `{unreadable: line}` and the reading goes on where the
 * parser can. No record size cap here: the caller rejects long rows itself, so one huge line
 * never costs its neighbours.
 */
export async function* readCsv(bytes: Uint8Array, separator: string, chunkBytes = 64 * 1024): AsyncGenerator<CsvEvent> {
  const skipped: number[] = [];
  let lastLine = 0;
  const parser: Parser = parse({
    bom: true,
    delimiter: separator,
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    info: true,
    skip_records_with_error: true,
    on_skip: () => {
      skipped.push(lastLine + 1);
    },
  });
  // Fed from the buffer chunk by chunk as the consumer pulls records (backpressure by write()).
  const feed = (async () => {
    for (let at = 0; at < bytes.length; at += chunkBytes) {
      if (!parser.write(Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(chunkBytes, bytes.length - at)))) {
        await new Promise<void>((resolve) => parser.once("drain", resolve));
      }
    }
    parser.end();
  })();
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      while (skipped.length) yield { unreadable: skipped.shift()! };
      const inner = r.record.reduce((n, f) => n + (f.match(/\r\n|\n|\r/g)?.length ?? 0), 0);
      const line = r.info.lines - inner;
      lastLine = r.info.lines;
      yield { fields: r.record, line };
    }
  } catch {
    // An error the parser cannot skip ends the reading; what came before stands.
    skipped.push(lastLine + 1);
  }
  await feed.catch(() => {});
  while (skipped.length) yield { unreadable: skipped.shift()! };
}
