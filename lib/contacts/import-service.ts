import "server-only";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { logUnexpected } from "@/lib/http/log-error";
import { readBodyLimited } from "@/lib/http/parse";
import { isValidNumber, sanitizeNumber } from "@/lib/phone";
import { transaction } from "@/db/client";
import { detectSeparator, mapHeader, parseOptOutCell, readCsv, type Column, type CsvEvent } from "./import-csv";
import { teamLabelTitles, writeImportBatch, type ImportRow } from "./import-repo";
import {
  IMPORT_BATCH_ROWS,
  IMPORT_CONTENT_TYPE,
  IMPORT_EMPTY,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_RECORD_BYTES,
  IMPORT_NOT_UTF8,
  IMPORT_NO_NUMBER_COLUMN,
  IMPORT_TOO_LARGE,
  ROW_BAD_CHARACTERS,
  ROW_CUSTOMER_ID_TAKEN,
  ROW_CUSTOMER_ID_TOO_LONG,
  ROW_NAME_TOO_LONG,
  ROW_NUMBER_INVALID,
  ROW_NUMBER_MISSING,
  ROW_UNREADABLE,
  ROW_OPT_OUT_UNKNOWN,
  importDoneMessage,
  rowCustomerIdRepeated,
  rowLabelCap,
  rowLabelUnknown,
  rowNumberRepeated,
  type ImportIssue,
  type ImportResponse,
  type ImportResult,
  type ImportStreamLine,
} from "./import-schemas";

const CSV_TYPES = ["text/csv", "application/csv", "text/plain", "application/vnd.ms-excel"];
// NUL and the other C0 controls (tab and line breaks aside) cannot be stored or are a binary file's.
// eslint-disable-next-line no-control-regex
const BAD_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

type Progress = { type: "progress"; processed: number };

/**
 * POST /api/v1/contacts/import. Everything that refuses the whole file (type, size, encoding,
 * header) is checked before any row is written or the answer starts, so it gets its own status:
 * the body is read up to IMPORT_MAX_BYTES (413 past it) and checked as UTF-8 (422). Then the rows
 * are parsed as a stream and written in batches of IMPORT_BATCH_ROWS, one transaction each.
 */
export async function importContacts({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { req: Request; ndjson: boolean };
}): Promise<{ body: ImportResponse } | { stream: ReadableStream<Uint8Array> }> {
  const run = await prepareImport(ctx.teamId, input.req);
  if (!input.ndjson) {
    let step = await run.next();
    while (!step.done) step = await run.next();
    return { body: step.value };
  }
  const enc = new TextEncoder();
  const line = (l: ImportStreamLine) => enc.encode(JSON.stringify(l) + "\n");
  return {
    stream: new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const step = await run.next();
          if (step.done) {
            controller.enqueue(line({ type: "done", ...step.value }));
            controller.close();
          } else controller.enqueue(line(step.value));
        } catch (err) {
          // The status line is gone already: the stream ends with an error line instead.
          logUnexpected("import", "POST", "/api/v1/contacts/import", err);
          controller.enqueue(line({ type: "error", message: "Error interno del servidor: la importación se detuvo." }));
          controller.close();
        }
      },
      async cancel() {
        await run.return(undefined as never);
      },
    }),
  };
}

async function prepareImport(teamId: number, req: Request) {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!CSV_TYPES.includes(type)) throw new ApiError(415, IMPORT_CONTENT_TYPE);
  let bytes: Uint8Array;
  try {
    bytes = await readBodyLimited(req, IMPORT_MAX_BYTES);
  } catch (err) {
    if (err instanceof ApiError && err.status === 413) throw ApiError.tooLarge(IMPORT_TOO_LARGE);
    throw err;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw ApiError.invalid("file", IMPORT_NOT_UTF8);
  }
  const events = readCsv(bytes, detectSeparator(bytes));
  // The first event is the header record (unreadable lines are only reported after it).
  const first = await events.next();
  if (first.done) throw ApiError.invalid("file", IMPORT_EMPTY);
  const columns = mapHeader((first.value as { fields: string[] }).fields);
  if (columns.number === undefined) throw ApiError.invalid("file", IMPORT_NO_NUMBER_COLUMN);
  const labels = new Map<string, number>();
  for (const l of await teamLabelTitles(teamId)) if (!labels.has(foldTitle(l.title))) labels.set(foldTitle(l.title), l.id);
  return importRows(teamId, events, columns, labels);
}

const foldTitle = (t: string) => t.trim().toLowerCase();

/** Reads, validates and writes the rows; yields after each batch; returns the final answer. */
async function* importRows(
  teamId: number,
  events: AsyncGenerator<CsvEvent>,
  columns: Partial<Record<Column, number>>,
  labels: Map<string, number>,
): AsyncGenerator<Progress, { message: string; data: ImportResult }> {
  const result: ImportResult = { processed: 0, created: 0, updated: 0, rejected: [], warnings: [] };
  const seenNumbers = new Map<string, number>();
  const seenCustomerIds = new Map<string, number>();
  const titleOf = new Map([...labels].map(([t, id]) => [id, t]));
  let batch: ImportRow[] = [];
  const reject = (line: number, reason: string) => result.rejected.push({ line, reason });
  const warn = (line: number, reason: string) => result.warnings.push({ line, reason });

  /** Writes the batch; resolves to the rows read when it was cut (what a progress line reports). */
  const flush = async (): Promise<number> => {
    const rows = batch;
    const processed = result.processed;
    batch = [];
    const out = await transaction((tx) => writeImportBatch(tx, teamId, rows));
    result.created += out.created;
    result.updated += out.updated;
    for (const r of out.rejected) reject(r.line, ROW_CUSTOMER_ID_TAKEN);
    for (const c of out.capped) warn(c.line, rowLabelCap(c.labelIds.map((id) => titleOf.get(id) ?? String(id))));
    return processed;
  };
  // One batch is written while the next is parsed (the parse is CPU here, the write waits on
  // Postgres); never two writes at once, so batches commit in file order.
  let writing: Promise<number> | null = null;

  for await (const ev of events) {
    if ("unreadable" in ev) {
      result.processed++;
      reject(ev.unreadable, ROW_UNREADABLE);
      continue;
    }
    const { fields, line } = ev;
    if (fields.every((f) => !f.trim())) continue;
    result.processed++;
    const get = (c: Column) => (columns[c] === undefined ? "" : (fields[columns[c]!] ?? "").trim());
    if (fields.reduce((n, f) => n + f.length, 0) > IMPORT_MAX_RECORD_BYTES) {
      reject(line, ROW_UNREADABLE);
      continue;
    }
    if (fields.some((f) => BAD_CHARS.test(f))) {
      reject(line, ROW_BAD_CHARACTERS);
      continue;
    }
    const raw = get("number");
    if (!raw) {
      reject(line, ROW_NUMBER_MISSING);
      continue;
    }
    const number = sanitizeNumber(raw);
    if (!isValidNumber(number)) {
      reject(line, ROW_NUMBER_INVALID);
      continue;
    }
    const name = get("name");
    if (name.length > 200) {
      reject(line, ROW_NAME_TOO_LONG);
      continue;
    }
    const customerId = get("customer_id") || null;
    if (customerId && customerId.length > 100) {
      reject(line, ROW_CUSTOMER_ID_TOO_LONG);
      continue;
    }
    // A number (or customer_id) seen earlier in the file: the earlier row stands, this one is reported.
    const dupLine = seenNumbers.get(number);
    if (dupLine !== undefined) {
      reject(line, rowNumberRepeated(dupLine));
      continue;
    }
    const dupCid = customerId ? seenCustomerIds.get(customerId) : undefined;
    if (dupCid !== undefined) {
      reject(line, rowCustomerIdRepeated(dupCid));
      continue;
    }
    seenNumbers.set(number, line);
    if (customerId) seenCustomerIds.set(customerId, line);
    const labelIds: number[] = [];
    const seenTitles = new Set<string>();
    for (const title of get("labels").split("|")) {
      const key = foldTitle(title);
      if (!key || seenTitles.has(key)) continue;
      seenTitles.add(key);
      const id = labels.get(key);
      if (id === undefined) warn(line, rowLabelUnknown(title.trim().slice(0, 100)));
      else labelIds.push(id);
    }
    // Only ever opts out: an import never re-subscribes a customer who asked to stop.
    const optOut = parseOptOutCell(get("marketing_opt_out"));
    if (optOut === null) warn(line, ROW_OPT_OUT_UNKNOWN);
    batch.push({ line, number, customerId, name, labelIds, optOut: optOut === true });
    if (batch.length >= IMPORT_BATCH_ROWS) {
      if (writing) yield { type: "progress", processed: await writing };
      writing = flush();
      // Awaited at the next batch or the end; this only keeps a failure from being "unhandled" meanwhile.
      writing.catch(() => {});
    }
  }
  if (writing) yield { type: "progress", processed: await writing };
  if (batch.length) yield { type: "progress", processed: await flush() };
  result.rejected.sort(byLine);
  result.warnings.sort(byLine);
  return { message: importDoneMessage(result.created + result.updated, result.rejected.length), data: result };
}

const byLine = (a: ImportIssue, b: ImportIssue) => a.line - b.line;
