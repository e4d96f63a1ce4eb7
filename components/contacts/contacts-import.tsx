"use client";
import { useEffect, useId, useRef, useState } from "react";
import { groupIssues } from "./group-issues";
import Link from "next/link";
import { countCsvRows, previewImportCsv, useImportContacts } from "@/lib/api-client/contacts-import";
import { ApiRequestError } from "@/lib/api-client/fetch";
import type { ImportIssue, ImportPreview, ImportReport } from "@/lib/api-client/types";
import { rejectedRowsCsv } from "@/lib/contacts/rejected-csv";
import { IMPORT_MAX_NEW_LABELS } from "@/lib/contacts/import-schemas";
import { useI18n, useT, type Translate } from "@/lib/i18n";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { Button, Card, ErrorBox, Field, inputClass, PageTitle } from "@/components/ui";
import { LabelChip } from "@/components/labels/label-chip";
import { ProgressBar } from "@/components/broadcasts/progress-bar";

/**
 * Contacts from a CSV file. "Importar" first has the server check the file without writing
 * (`dry_run=1`); when it names labels the team lacks, the agent is asked (create them and import,
 * import without them, or cancel). The upload then streams NDJSON progress lines (a bar against
 * the file's row count), then the report: created and updated counts, the labels created, every
 * rejected row with its line, its cells and its reason (downloadable as CSV), and the warnings.
 */
export function ContactsImport() {
  const t = useT();
  const id = useId();
  const importer = useImportContacts();
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState(0);
  const [processed, setProcessed] = useState(0);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<unknown>(null);
  const [asking, setAsking] = useState<ImportPreview | null>(null);
  const error = checkError ?? importer.error;
  // A whole-file refusal (not UTF-8, empty, no number column) is keyed `file`: it belongs beside the picker.
  const fileError = error instanceof ApiRequestError ? error.errors.file?.[0] : undefined;
  const busy = checking || importer.isPending;
  const submit = useRef<HTMLButtonElement>(null);

  async function choose(f: File | null) {
    setFile(f);
    setReport(null);
    setProcessed(0);
    setAsking(null);
    setCheckError(null);
    importer.reset();
    setRows(f ? await countCsvRows(f) : 0);
  }

  function run(createMissingLabels: boolean) {
    if (!file) return;
    setAsking(null);
    setReport(null);
    setProcessed(0);
    importer.mutate({ file, onProgress: setProcessed, createMissingLabels }, { onSuccess: setReport });
  }

  /** The check first: labels the team lacks are asked about, otherwise the import starts at once. */
  async function start() {
    if (!file) return;
    setReport(null);
    setAsking(null);
    setCheckError(null);
    importer.reset();
    setChecking(true);
    try {
      const preview = await previewImportCsv(file);
      if (preview.data.missing_labels_total > 0) setAsking(preview.data);
      else run(false);
    } catch (err) {
      setCheckError(err);
    } finally {
      setChecking(false);
    }
  }

  return (
    <>
      <PageTitle
        actions={
          <Link href="/contacts" className="text-sm font-medium text-wa-green-dark underline">
            {t("import.back")}
          </Link>
        }
      >
        {t("import.title")}
      </PageTitle>
      <Card className="space-y-4">
        <p className="text-sm text-slate-700">{t("import.intro")}</p>
        <Field
          id={`${id}-file`}
          label={t("import.file")}
          hint={file ? t("import.fileChosen", { name: file.name, rows }) : undefined}
          error={fileError}
        >
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            className={inputClass}
            aria-invalid={!!fileError}
            aria-describedby={fileError ? `${id}-file-error` : file ? `${id}-file-hint` : undefined}
            onChange={(e) => void choose(e.target.files?.[0] ?? null)}
            disabled={busy}
            data-testid="import-file"
          />
        </Field>
        {!asking && (
          <Button ref={submit} onClick={() => void start()} disabled={!file || busy} data-testid="import-submit">
            {checking ? t("import.checking") : importer.isPending ? t("import.importing") : t("import.submit")}
          </Button>
        )}
        {asking && (
          <MissingLabels
            preview={asking}
            onCreate={() => run(true)}
            onWithout={() => run(false)}
            onCancel={() => {
              setAsking(null);
              // The question is gone: the focus goes back to the button that asked it.
              requestAnimationFrame(() => submit.current?.focus());
            }}
          />
        )}
        {(importer.isPending || report) && (
          <ProgressBar
            value={report ? Math.max(rows, report.processed) : processed}
            max={report ? Math.max(rows, report.processed) : Math.max(rows, processed)}
            label={t("import.progress")}
            text={t("import.progressText", { processed: report?.processed ?? processed, total: Math.max(rows, processed) })}
            testId="import-progress"
          />
        )}
        {!!error && !fileError && <ErrorBox error={error} onRetry={() => void start()} />}
      </Card>
      {report && <ImportReportView report={report} />}
    </>
  );
}

/** The question asked before importing a file that names labels the team does not have. */
function MissingLabels({
  preview,
  onCreate,
  onWithout,
  onCancel,
}: {
  preview: ImportPreview;
  onCreate: () => void;
  onWithout: () => void;
  onCancel: () => void;
}) {
  const { t, locale } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const creatable = preview.missing_labels.filter((l) => !l.problem);
  const refused = preview.missing_labels.filter((l) => l.problem);
  const unlisted = preview.missing_labels_total - preview.missing_labels.length;
  const item = (l: ImportPreview["missing_labels"][number], i: number) => (
    <li key={i} className="flex flex-wrap items-baseline gap-x-2">
      <span className="font-medium [overflow-wrap:anywhere]">{l.title}</span>
      <span className="text-slate-600">
        {l.rows === 1 ? t("import.missing.row") : t("import.missing.rows", { count: formatNumber(l.rows, locale) })}
      </span>
      {l.problem && <span className="text-amber-900">· {t(`import.problem.${l.problem}`)}</span>}
    </li>
  );
  return (
    <section
      aria-labelledby="import-missing-labels"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4"
      data-testid="import-missing-labels"
    >
      <h2 id="import-missing-labels" ref={heading} tabIndex={-1} className="font-semibold">
        {t("import.missing.title")}
      </h2>
      <p className="text-sm text-slate-800">{t("import.missing.intro", { count: preview.missing_labels_total })}</p>
      {creatable.length > 0 && (
        <ul className="space-y-1 text-sm" data-testid="import-missing-creatable">
          {creatable.map(item)}
        </ul>
      )}
      {refused.length > 0 && (
        <>
          <p className="text-sm text-slate-800">{t("import.missing.notCreatable")}</p>
          <ul className="space-y-1 text-sm" data-testid="import-missing-refused">
            {refused.map(item)}
          </ul>
        </>
      )}
      {unlisted > 0 && <p className="text-sm text-slate-700">{t("import.missing.more", { count: unlisted })}</p>}
      <div className="flex flex-wrap gap-2">
        {creatable.length > 0 && (
          <Button onClick={onCreate} data-testid="import-create-labels">
            {t("import.missing.create")}
          </Button>
        )}
        <Button variant="secondary" onClick={onWithout} data-testid="import-without-labels">
          {t("import.missing.without")}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t("import.missing.cancel")}
        </Button>
      </div>
    </section>
  );
}

/** A rejected row's reason in the UI's language (the server's Spanish text when it gave no code). */
function reasonText(t: Translate, r: ImportIssue): string {
  return r.code ? t(`import.code.${r.code}`, { line: r.first_line ?? "" }) : r.reason;
}

/** A warning in the UI's language, from its code and the labels it names. */
function warningText(t: Translate, w: ImportReport["warnings"][number]): string {
  return t(`import.warn.${w.code}`, { labels: (w.labels ?? []).join(", "), max: IMPORT_MAX_NEW_LABELS });
}

function downloadRejected(report: ImportReport, t: Translate) {
  const csv = rejectedRowsCsv(report.columns ?? [], report.rejected, t("import.csvReason"), (i) => reasonText(t, report.rejected[i]));
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = t("import.downloadName");
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function ImportReportView({ report }: { report: ImportReport }) {
  const { t, locale } = useI18n();
  const rejectedTotal = report.rejected_total ?? report.rejected.length;
  const stats: [string, number, string][] = [
    [t("import.processed"), report.processed, "processed"],
    [t("import.created"), report.created, "created"],
    [t("import.updated"), report.updated, "updated"],
    [t("import.rejectedCount"), rejectedTotal, "rejected"],
  ];
  return (
    <section aria-labelledby="import-report" className="mt-6 space-y-4" data-testid="import-report">
      <h2 id="import-report" className="text-lg font-semibold" tabIndex={-1}>
        {t("import.report")}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map(([label, value, key]) => (
          <div key={key} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums" data-testid={`import-count-${key}`}>
              {formatNumber(value, locale)}
            </dd>
          </div>
        ))}
      </dl>
      {!!report.labels_created?.length && (
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="import-labels-created">
          <span className="font-semibold">{t("import.labelsCreated")}:</span>
          {report.labels_created.map((l) => (
            <LabelChip key={l.id} label={l} />
          ))}
        </div>
      )}
      {rejectedTotal > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={() => downloadRejected(report, t)} data-testid="import-download-rejected">
            {t("import.download")}
          </Button>
          {rejectedTotal > report.rejected.length && (
            <p className="text-sm text-amber-900" data-testid="import-rejected-capped">
              {t("import.capped", { shown: formatNumber(report.rejected.length, locale), total: formatNumber(rejectedTotal, locale) })}
            </p>
          )}
        </div>
      )}
      <RowTable
        title={t("import.rejected")}
        rows={report.rejected.map((r) => ({ ...r, reason: reasonText(t, r) }))}
        columns={report.columns}
        total={rejectedTotal}
        empty={t("import.noneRejected")}
        testId="import-rejected"
      />
      {report.warnings.length > 0 && (
        <RowTable
          title={t("import.warnings")}
          rows={groupIssues(report.warnings.map((w) => ({ line: w.line, reason: warningText(t, w) })))}
          total={report.warnings.length}
          testId="import-warnings"
        />
      )}
    </section>
  );
}

// A file of many bad rows would be a table too long to draw at once: it grows by pages.
const SHOWN_STEP = 500;

function RowTable({
  title,
  rows,
  columns,
  empty,
  testId,
  total = rows.length,
}: {
  title: string;
  /** One per row, or one per reason (grouped warnings: `lines` "2–22, 25"); `row`: its cells. */
  rows: (({ line: number } | { lines: string }) & { reason: string; row?: string[] | null })[];
  /** The file's header: with it, each row's cells are shown beside its line. */
  columns?: string[];
  empty?: string;
  testId: string;
  total?: number;
}) {
  const t = useT();
  const [shown, setShown] = useState(SHOWN_STEP);
  if (rows.length === 0) return empty ? <p className="text-sm text-slate-700">{empty}</p> : null;
  return (
    <Card>
      {/* A scrolling box is reachable from the keyboard (axe: scrollable-region-focusable). */}
      <div className="max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={title}>
        <table className="w-full text-left text-sm" data-testid={testId}>
          <caption className="mb-2 text-left font-semibold">
            {title} ({total})
          </caption>
          <thead className="sticky top-0 bg-white">
            <tr className="border-b border-slate-200">
              <th scope="col" className="w-16 py-1 pr-3">
                {t("import.line")}
              </th>
              {columns && (
                <th scope="col" className="py-1 pr-3">
                  {t("import.row")}
                </th>
              )}
              <th scope="col" className="py-1">
                {t("import.reason")}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, shown).map((r, i) => (
              <tr key={i} className="border-b border-slate-100 align-top">
                <td className="py-1 pr-3 tabular-nums">{"line" in r ? r.line : r.lines}</td>
                {columns && (
                  <td className="py-1 pr-3">
                    <RowCells columns={columns} cells={r.row} />
                  </td>
                )}
                <td className="py-1 break-words">{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > shown && (
        <Button variant="secondary" className="mt-2" onClick={() => setShown((n) => n + SHOWN_STEP)}>
          {t("import.showMore", { count: Math.min(SHOWN_STEP, rows.length - shown) })}
        </Button>
      )}
    </Card>
  );
}

/**
 * A rejected row's cells as text, each after its column's name (React escapes them: a cell is
 * never markup); empty cells are left out. A row that could not be read has none.
 */
function RowCells({ columns, cells }: { columns: string[]; cells?: string[] | null }) {
  const t = useT();
  if (!cells) return <span className="text-slate-600 italic">{t("import.rowUnreadable")}</span>;
  const shown = cells.map((value, i) => ({ name: columns[i] ?? `#${i + 1}`, value, i })).filter((c) => c.value.trim());
  return (
    <span className="flex flex-wrap gap-x-3 gap-y-0.5 [overflow-wrap:anywhere]" data-testid="import-row-cells">
      {shown.map((c) => (
        <span key={c.i}>
          <span className="text-slate-600">{c.name}:</span> <span className="font-mono text-slate-900">{c.value}</span>
        </span>
      ))}
    </span>
  );
}
