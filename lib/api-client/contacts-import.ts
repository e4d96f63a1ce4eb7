"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./fetch";
import { queryKeys } from "./query-keys";
import type { ImportLine, ImportPreviewResponse, ImportReport } from "./types";

const IMPORT_PATH = "/api/v1/contacts/import";

/** An error answer of the import (the ruled JSON body) as the client's error type. */
async function importError(res: Response): Promise<ApiRequestError> {
  const text = await res.text();
  let body: { message?: string; errors?: Record<string, string[]> } = {};
  try {
    body = JSON.parse(text);
  } catch {}
  return new ApiRequestError(res.status, body.message || `HTTP ${res.status}`, body.errors ?? {});
}

async function postCsv(url: string, file: File, accept: string, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/csv", accept },
      body: file,
      credentials: "same-origin",
      signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiRequestError(0, (err as Error).message || "Network error");
  }
}

/**
 * `dry_run=1`: the file is read and checked by the server, nothing is written; the answer lists
 * the labels it names that the team does not have (asked about before importing).
 */
export async function previewImportCsv(file: File, signal?: AbortSignal): Promise<ImportPreviewResponse> {
  const res = await postCsv(`${IMPORT_PATH}?dry_run=1`, file, "application/json", signal);
  if (!res.ok) throw await importError(res);
  return (await res.json()) as ImportPreviewResponse;
}

/**
 * Rows in a CSV file, counted by its line breaks (the header and a last empty line left out): the
 * progress bar's maximum. Quoted fields with line breaks make it an upper bound, which only makes
 * the bar jump to full at the end.
 */
export async function countCsvRows(file: File): Promise<number> {
  const text = await file.text();
  let lines = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  if (text.length > 0 && !text.endsWith("\n")) lines++;
  return Math.max(0, lines - 1);
}

/**
 * Uploads a CSV to POST /api/v1/contacts/import asking for NDJSON: each `progress` line is
 * reported as it arrives, the `done` line is the report. An error answer is the ruled JSON body.
 * The report always carries the rejected rows' cells (`rejected_rows=1`, for their download);
 * `createMissingLabels` creates the labels the file names that the team lacks.
 */
export async function importContactsCsv(
  file: File,
  onProgress: (processed: number) => void,
  opts: { createMissingLabels?: boolean; signal?: AbortSignal } = {},
): Promise<ImportReport> {
  const url = `${IMPORT_PATH}?rejected_rows=1${opts.createMissingLabels ? "&create_missing_labels=1" : ""}`;
  const res = await postCsv(url, file, "application/x-ndjson", opts.signal);
  if (!res.ok || !res.body) throw await importError(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let report: ImportReport | null = null;
  const take = (line: string) => {
    if (!line.trim()) return;
    const parsed = JSON.parse(line) as ImportLine;
    if (parsed.type === "progress") onProgress(parsed.processed);
    // The stream had started (status 200) when the import stopped: its message says why.
    else if (parsed.type === "error") throw new ApiRequestError(500, parsed.message);
    else if (parsed.type === "done") {
      report = parsed.data;
      onProgress(parsed.data.processed);
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      take(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  }
  take(buffered);
  // A stream cut short (the server stopped mid-file) has no report: the page says something went wrong.
  if (!report) throw new ApiRequestError(0, "");
  return report;
}

export function useImportContacts() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      file,
      onProgress,
      createMissingLabels,
    }: {
      file: File;
      onProgress: (processed: number) => void;
      createMissingLabels?: boolean;
    }) => importContactsCsv(file, onProgress, { createMissingLabels }),
    onSuccess: (report) => {
      qc.invalidateQueries({ queryKey: queryKeys.contactsAll });
      if (report.labels_created?.length) qc.invalidateQueries({ queryKey: queryKeys.labels });
      qc.invalidateQueries({ queryKey: queryKeys.audienceSizeAll });
    },
  });
}
