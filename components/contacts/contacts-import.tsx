"use client";
import { useId, useState } from "react";
import { groupIssues } from "./group-issues";
import Link from "next/link";
import { countCsvRows, useImportContacts } from "@/lib/api-client/contacts-import";
import { ApiRequestError } from "@/lib/api-client/fetch";
import type { ImportReport } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { Button, Card, ErrorBox, Field, inputClass, PageTitle } from "@/components/ui";
import { ProgressBar } from "@/components/broadcasts/progress-bar";

/**
 * Contacts from a CSV file: the upload streams NDJSON progress lines (a bar against the file's row
 * count), then the report: created and updated counts, and every rejected row with its line and reason.
 */
export function ContactsImport() {
  const t = useT();
  const id = useId();
  const importer = useImportContacts();
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState(0);
  const [processed, setProcessed] = useState(0);
  const [report, setReport] = useState<ImportReport | null>(null);
  // A whole-file refusal (not UTF-8, empty, no number column) is keyed `file`: it belongs beside the picker.
  const fileError = importer.error instanceof ApiRequestError ? importer.error.errors.file?.[0] : undefined;

  async function choose(f: File | null) {
    setFile(f);
    setReport(null);
    setProcessed(0);
    importer.reset();
    setRows(f ? await countCsvRows(f) : 0);
  }

  function start() {
    if (!file) return;
    setReport(null);
    setProcessed(0);
    importer.mutate({ file, onProgress: setProcessed }, { onSuccess: setReport });
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
            disabled={importer.isPending}
            data-testid="import-file"
          />
        </Field>
        <Button onClick={start} disabled={!file || importer.isPending} data-testid="import-submit">
          {importer.isPending ? t("import.importing") : t("import.submit")}
        </Button>
        {(importer.isPending || report) && (
          <ProgressBar
            value={report ? Math.max(rows, report.processed) : processed}
            max={report ? Math.max(rows, report.processed) : Math.max(rows, processed)}
            label={t("import.progress")}
            text={t("import.progressText", { processed: report?.processed ?? processed, total: Math.max(rows, processed) })}
            testId="import-progress"
          />
        )}
        {importer.isError && !fileError && <ErrorBox error={importer.error} onRetry={start} />}
      </Card>
      {report && <ImportReportView report={report} />}
    </>
  );
}

function ImportReportView({ report }: { report: ImportReport }) {
  const t = useT();
  const stats: [string, number, string][] = [
    [t("import.processed"), report.processed, "processed"],
    [t("import.created"), report.created, "created"],
    [t("import.updated"), report.updated, "updated"],
    [t("import.rejectedCount"), report.rejected.length, "rejected"],
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
              {value.toLocaleString()}
            </dd>
          </div>
        ))}
      </dl>
      <RowTable title={t("import.rejected")} rows={report.rejected} empty={t("import.noneRejected")} testId="import-rejected" />
      {report.warnings.length > 0 && (
        <RowTable
          title={t("import.warnings")}
          rows={groupIssues(report.warnings)}
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
  empty,
  testId,
  total = rows.length,
}: {
  title: string;
  /** One per row, or one per reason (grouped warnings: `lines` "2–22, 25"). */
  rows: (({ line: number } | { lines: string }) & { reason: string })[];
  empty?: string;
  testId: string;
  total?: number;
}) {
  const t = useT();
  const [shown, setShown] = useState(SHOWN_STEP);
  if (rows.length === 0) return empty ? <p className="text-sm text-slate-700">{empty}</p> : null;
  return (
    <Card>
      <div className="max-h-96 overflow-auto">
        <table className="w-full text-left text-sm" data-testid={testId}>
          <caption className="mb-2 text-left font-semibold">
            {title} ({total})
          </caption>
          <thead className="sticky top-0 bg-white">
            <tr className="border-b border-slate-200">
              <th scope="col" className="w-20 py-1 pr-3">
                {t("import.line")}
              </th>
              <th scope="col" className="py-1">
                {t("import.reason")}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, shown).map((r, i) => (
              <tr key={i} className="border-b border-slate-100 align-top">
                <td className="py-1 pr-3 tabular-nums">{"line" in r ? r.line : r.lines}</td>
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
