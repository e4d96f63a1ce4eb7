import "server-only";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { logUnexpected } from "@/lib/http/log-error";
import { readBodyLimited } from "@/lib/http/parse";
import { isValidNumber, sanitizeNumber } from "@/lib/phone";
import { getDb, transaction } from "@/db/client";
import { ensureLabelsByTitle } from "@/lib/labels/service";
import { labelTitle, type LabelDto } from "@/lib/labels/schemas";
import { detectSeparator, mapHeader, parseOptOutCell, readCsv, unescapeCell, type Column, type CsvEvent } from "./import-csv";
import { teamLabelTitles, writeImportBatch, type ImportRow } from "./import-repo";
import {
  IMPORT_BATCH_ROWS,
  IMPORT_MAX_NEW_LABELS,
  IMPORT_PREVIEW_MAX_LABELS,
  IMPORT_REPORT_MAX_REJECTED,
  IMPORT_CONTENT_TYPE,
  IMPORT_EMPTY,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_RECORD_BYTES,
  IMPORT_NOT_UTF8,
  IMPORT_NO_NUMBER_COLUMN,
  IMPORT_TOO_LARGE,
  ROW_OPT_OUT_UNKNOWN,
  importDoneMessage,
  importPreviewMessage,
  rejectReason,
  rowLabelCap,
  rowLabelNotCreated,
  rowLabelTooManyNew,
  rowLabelUnknown,
  type ImportWarning,
  type ImportIssue,
  type ImportMissingLabel,
  type ImportPreviewResponse,
  type ImportQuery,
  type ImportRejectCode,
  type ImportResponse,
  type ImportResult,
  type ImportStreamLine,
} from "./import-schemas";

const CSV_TYPES = ["text/csv", "application/csv", "text/plain", "application/vnd.ms-excel"];
// NUL and the other C0 controls (tab and line breaks aside) cannot be stored or are a binary file's.
// eslint-disable-next-line no-control-regex
const BAD_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex
const BAD_CHARS_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

type Progress = { type: "progress"; processed: number };

/**
 * POST /api/v1/contacts/import. Everything that refuses the whole file (type, size, encoding,
 * header) is checked before any row is written or the answer starts, so it gets its own status:
 * the body is read up to IMPORT_MAX_BYTES (413 past it) and checked as UTF-8 (422). Then the rows
 * are parsed as a stream and written in batches of IMPORT_BATCH_ROWS, one transaction each.
 * `dry_run` reads and checks every row the same way but writes nothing: it answers which labels
 * the file names that the team lacks (what the dashboard asks about before importing).
 */
export async function importContacts({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { req: Request; ndjson: boolean; query: ImportQuery };
}): Promise<{ body: ImportResponse | ImportPreviewResponse } | { stream: ReadableStream<Uint8Array> }> {
  const { query } = input;
  const file = await openImport(ctx.teamId, input.req);
  if (query.dry_run) return { body: await previewRows(file) };
  const run = importRows(ctx.teamId, file, { createMissingLabels: !!query.create_missing_labels, rejectedRows: !!query.rejected_rows });
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

type OpenFile = {
  events: AsyncGenerator<CsvEvent>;
  header: string[];
  columns: Partial<Record<Column, number>>;
  /** The team's labels by folded title. */
  labels: Map<string, number>;
};

async function openImport(teamId: number, req: Request): Promise<OpenFile> {
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
  const header = (first.value as { fields: string[] }).fields;
  const columns = mapHeader(header);
  if (columns.number === undefined) throw ApiError.invalid("file", IMPORT_NO_NUMBER_COLUMN);
  const labels = new Map<string, number>();
  for (const l of await teamLabelTitles(await getDb(), teamId)) if (!labels.has(foldTitle(l.title))) labels.set(foldTitle(l.title), l.id);
  return { events, header, columns, labels };
}

const foldTitle = (t: string) => t.trim().toLowerCase();

/** A row that passed the file's checks: its labels as ids of the team, or folded titles still to create. */
type CheckedRow = Omit<ImportRow, "labelIds"> & { labels: (number | string)[]; fields: string[] };
type RowOutcome =
  { ok: CheckedRow } | { rejected: { line: number; code: ImportRejectCode; firstLine?: number; fields: string[] | null } } | { skip: true };

/**
 * The checks of one record, in file order (the number and customer_id seen earlier in the file
 * are remembered). Labels the team lacks go to `missingLabel`, which says what to do with them.
 */
function rowChecker(
  columns: Partial<Record<Column, number>>,
  labels: Map<string, number>,
  missingLabel: (key: string, title: string, line: number) => "create" | "skip",
  warn: (w: ImportWarning) => void,
) {
  const seenNumbers = new Map<string, number>();
  const seenCustomerIds = new Map<string, number>();
  return (ev: CsvEvent): RowOutcome => {
    if ("unreadable" in ev) return { rejected: { line: ev.unreadable, code: "unreadable", fields: null } };
    const { fields, line } = ev;
    if (fields.every((f) => !f.trim())) return { skip: true };
    const reject = (code: ImportRejectCode, firstLine?: number): RowOutcome => ({ rejected: { line, code, firstLine, fields } });
    const get = (c: Column) => (columns[c] === undefined ? "" : unescapeCell((fields[columns[c]!] ?? "").trim()));
    if (fields.reduce((n, f) => n + f.length, 0) > IMPORT_MAX_RECORD_BYTES) return { rejected: { line, code: "unreadable", fields: null } };
    if (fields.some((f) => BAD_CHARS.test(f))) return reject("bad_characters");
    const raw = get("number");
    if (!raw) return reject("number_missing");
    const number = sanitizeNumber(raw);
    if (!isValidNumber(number)) return reject("number_invalid");
    const name = get("name");
    if (name.length > 200) return reject("name_too_long");
    const customerId = get("customer_id") || null;
    if (customerId && customerId.length > 100) return reject("customer_id_too_long");
    // A number (or customer_id) seen earlier in the file: the earlier row stands, this one is reported.
    const dupLine = seenNumbers.get(number);
    if (dupLine !== undefined) return reject("number_repeated", dupLine);
    const dupCid = customerId ? seenCustomerIds.get(customerId) : undefined;
    if (dupCid !== undefined) return reject("customer_id_repeated", dupCid);
    seenNumbers.set(number, line);
    if (customerId) seenCustomerIds.set(customerId, line);
    const rowLabels: (number | string)[] = [];
    const seenTitles = new Set<string>();
    for (const title of get("labels").split("|")) {
      const key = foldTitle(title);
      if (!key || seenTitles.has(key)) continue;
      seenTitles.add(key);
      const id = labels.get(key);
      if (id !== undefined) rowLabels.push(id);
      else if (missingLabel(key, title.trim(), line) === "create") rowLabels.push(key);
    }
    // Only ever opts out: an import never re-subscribes a customer who asked to stop.
    const optOut = parseOptOutCell(get("marketing_opt_out"));
    if (optOut === null) warn({ line, reason: ROW_OPT_OUT_UNKNOWN, code: "marketing_opt_out_unknown" });
    return { ok: { line, number, customerId, name, labels: rowLabels, optOut: optOut === true, fields } };
  };
}

/** Why a label the team lacks would not be created (null: it would), with its row's warning. */
function labelProblem(title: string, newSoFar: number): { problem: ImportMissingLabel["problem"]; reason: string } | null {
  const parsed = labelTitle.safeParse(title);
  if (!parsed.success) return { problem: "title_invalid", reason: rowLabelNotCreated(shortTitle(title), parsed.error.issues[0].message) };
  if (newSoFar >= IMPORT_MAX_NEW_LABELS) return { problem: "too_many_new_labels", reason: rowLabelTooManyNew(shortTitle(title)) };
  return null;
}

const shortTitle = (t: string) => (t.length > 100 ? `${t.slice(0, 100)}…` : t);
/** A rejected row's cells as the report gives them back: control characters never leave as such. */
const reportCells = (fields: string[]) => fields.map((f) => f.replace(BAD_CHARS_ALL, "\uFFFD"));

/** `dry_run`: every row checked as the import would, nothing written; the labels the file lacks. */
async function previewRows({ events, columns, labels }: OpenFile): Promise<ImportPreviewResponse> {
  const missing = new Map<string, ImportMissingLabel>();
  let creatable = 0;
  const check = rowChecker(
    columns,
    labels,
    (key, title) => {
      let m = missing.get(key);
      if (!m) {
        const problem = labelProblem(title, creatable);
        if (!problem) creatable++;
        m = { title: shortTitle(title), rows: 0, problem: problem?.problem ?? null, reason: problem?.reason ?? null };
        missing.set(key, m);
      }
      m.rows++;
      return "skip";
    },
    () => {},
  );
  let processed = 0;
  let rejected = 0;
  for await (const ev of events) {
    const out = check(ev);
    if ("skip" in out) continue;
    processed++;
    if ("rejected" in out) rejected++;
  }
  const list = [...missing.values()];
  return {
    message: importPreviewMessage(list.length),
    data: { processed, rejected, missing_labels: list.slice(0, IMPORT_PREVIEW_MAX_LABELS), missing_labels_total: list.length },
  };
}

/** Reads, validates and writes the rows; yields after each batch; returns the final answer. */
async function* importRows(
  teamId: number,
  { events, header, columns, labels }: OpenFile,
  opts: { createMissingLabels: boolean; rejectedRows: boolean },
): AsyncGenerator<Progress, { message: string; data: ImportResult }> {
  const result: ImportResult = { processed: 0, created: 0, updated: 0, rejected: [], warnings: [] };
  const labelsCreated: LabelDto[] = [];
  let rejectedTotal = 0;
  const titleOf = new Map([...labels].map(([t, id]) => [id, t]));
  /** create_missing_labels: folded title → the title to create (first spelling in the file), or why not. */
  const newLabels = new Map<string, { title: string } | { refused: ImportWarning }>();
  let creatable = 0;
  let batch: CheckedRow[] = [];

  const reject = (r: { line: number; code: ImportRejectCode; firstLine?: number; fields: string[] | null }) => {
    rejectedTotal++;
    const reason = rejectReason(r.code, r.firstLine);
    if (!opts.rejectedRows) return void result.rejected.push({ line: r.line, reason });
    result.rejected.push({
      line: r.line,
      reason,
      code: r.code,
      ...(r.firstLine !== undefined ? { first_line: r.firstLine } : {}),
      row: r.fields && reportCells(r.fields),
    });
    // Memory stays bounded: the report keeps the first rows by line, the rest are counted.
    if (result.rejected.length >= 2 * IMPORT_REPORT_MAX_REJECTED) keepFirst(result.rejected);
  };
  const warn = (w: ImportWarning) => result.warnings.push(w);
  const check = rowChecker(
    columns,
    labels,
    (key, title, line) => {
      if (!opts.createMissingLabels) {
        warn({ line, reason: rowLabelUnknown(title.slice(0, 100)), code: "label_unknown", labels: [shortTitle(title)] });
        return "skip";
      }
      let entry = newLabels.get(key);
      if (!entry) {
        const problem = labelProblem(title, creatable);
        entry = problem
          ? {
              refused: {
                line: 0,
                reason: problem.reason,
                code: problem.problem === "title_invalid" ? "label_title_invalid" : "label_too_many_new",
                labels: [shortTitle(title)],
              },
            }
          : { title };
        if (!problem) creatable++;
        newLabels.set(key, entry);
      }
      if ("refused" in entry) {
        warn({ ...entry.refused, line });
        return "skip";
      }
      return "create";
    },
    warn,
  );

  /** Writes the batch; resolves to the rows read when it was cut (what a progress line reports). */
  const flush = async (): Promise<number> => {
    const rows = batch;
    const processed = result.processed;
    batch = [];
    const out = await transaction(async (tx) => {
      // The batch's new labels first, in its transaction and under the labels' team lock.
      const keys = [...new Set(rows.flatMap((r) => r.labels.filter((l): l is string => typeof l === "string")))];
      const titles = keys.map((k) => (newLabels.get(k) as { title: string }).title);
      const ensured = await ensureLabelsByTitle(tx, teamId, titles);
      const idOf = new Map(ensured.map((e, i) => [keys[i], e.label.id]));
      const written = await writeImportBatch(tx, {
        teamId,
        rows: rows.map(({ labels: refs, ...r }) => ({ ...r, labelIds: refs.map((l) => (typeof l === "number" ? l : idOf.get(l)!)) })),
      });
      return { written, ensured, keys };
    });
    out.ensured.forEach((e, i) => {
      // Committed: later rows use the id directly.
      labels.set(out.keys[i], e.label.id);
      titleOf.set(e.label.id, e.label.title);
      if (e.created) labelsCreated.push(e.label);
    });
    const { written } = out;
    result.created += written.created;
    result.updated += written.updated;
    const fieldsOf = new Map(rows.map((r) => [r.line, r.fields]));
    for (const r of written.rejected) reject({ line: r.line, code: "customer_id_taken", fields: fieldsOf.get(r.line) ?? null });
    for (const c of written.capped) {
      const titles = c.labelIds.map((id) => titleOf.get(id) ?? String(id));
      warn({ line: c.line, reason: rowLabelCap(titles), code: "label_cap", labels: titles });
    }
    return processed;
  };
  // One batch is written while the next is parsed (the parse is CPU here, the write waits on
  // Postgres); never two writes at once, so batches commit in file order.
  let writing: Promise<number> | null = null;

  for await (const ev of events) {
    const out = check(ev);
    if ("skip" in out) continue;
    result.processed++;
    if ("rejected" in out) {
      reject(out.rejected);
      continue;
    }
    // The cells are only kept while the batch is in flight, and only when a report wants them.
    batch.push(opts.rejectedRows ? out.ok : { ...out.ok, fields: [] });
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
  if (opts.rejectedRows) {
    keepFirst(result.rejected);
    result.columns = reportCells(header);
    result.rejected_total = rejectedTotal;
  }
  if (opts.createMissingLabels) result.labels_created = labelsCreated;
  return { message: importDoneMessage(result.created + result.updated, rejectedTotal), data: result };
}

const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;

/** Keeps the IMPORT_REPORT_MAX_REJECTED rows of lowest line. */
function keepFirst(list: ImportIssue[]) {
  list.sort(byLine);
  list.length = Math.min(list.length, IMPORT_REPORT_MAX_REJECTED);
}
