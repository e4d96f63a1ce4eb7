"use client";
import { useRef, useState } from "react";
import { useUploadMedia } from "@/lib/api-client/send";
import { useT } from "@/lib/i18n";
import { allowedTypesFor, type MediaHeaderFormat } from "@/lib/limits";
import { Button } from "@/components/ui";

/** What the file picker offers per header format (spec 4.1 media_path rule 1; lib/limits.ts). */
export function acceptFor(format: MediaHeaderFormat): string {
  const types = allowedTypesFor(format);
  return [...types.flatMap((t) => t.extensions.map((e) => `.${e}`)), ...types.map((t) => t.mime)].join(",");
}

/** ".jpg, .jpeg (≤ 5 MB), .png (≤ 5 MB)": each type's extensions with its size cap. */
function formatsFor(format: MediaHeaderFormat): string {
  return allowedTypesFor(format)
    .map((t) => `${t.extensions.map((e) => `.${e}`).join(", ")} (≤ ${t.label})`)
    .join(", ");
}

/**
 * Why a picked file cannot go with this header, before anything is uploaded: its extension (and
 * its declared type, when the browser gives one) must be one the header takes, and its size
 * within that type's cap. The server sniffs the bytes on upload and checks again on send.
 */
export function pickProblem(file: { name: string; type: string; size: number }, format: MediaHeaderFormat) {
  const types = allowedTypesFor(format);
  const ext = file.name.includes(".") ? file.name.slice(file.name.lastIndexOf(".") + 1).toLowerCase() : "";
  const type = types.find((x) => x.extensions.includes(ext));
  if (!type || (file.type && !types.some((x) => x.mime === file.type))) {
    return { kind: "format" as const, formats: types.flatMap((x) => x.extensions.map((e) => `.${e}`)).join(", ") };
  }
  if (file.size > type.maxBytes) return { kind: "size" as const, max: type.label };
  return null;
}

type Props = {
  format: MediaHeaderFormat;
  label: string;
  defaultMediaPath: string | null | undefined;
  value: string | null;
  /** The uploaded file's own name, shown instead of its storage path. */
  fileName: string | null;
  onChange: (path: string | null, name: string | null) => void;
  /** The server's or the form's message for media_path, already in the UI's language. */
  error?: string;
};

/**
 * Checks a file when it is picked, uploads it through /api/v1/media-upload and keeps its
 * media_path. The native input is visually hidden but stays the focusable, labelled control; the
 * button-like label beside it carries our own words instead of the browser's "Choose File".
 */
export function AttachmentField({ format, label, defaultMediaPath, value, fileName, onChange, error }: Props) {
  const t = useT();
  const upload = useUploadMedia();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const shownError =
    problem ?? error ?? (upload.error ? t("sendError.unknown", { field: label, message: upload.error.message }) : undefined);

  function clear() {
    onChange(null, null);
    upload.reset();
    setProblem(null);
    setPicked(null);
  }

  return (
    <div className="space-y-1">
      <label htmlFor="media_file" className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={input}
          id="media_file"
          type="file"
          accept={acceptFor(format)}
          className="peer sr-only"
          aria-invalid={!!shownError}
          aria-describedby={shownError ? "media_file-error" : "media_file-hint"}
          onChange={(e) => {
            const file = e.target.files?.[0];
            // A new pick replaces the old file and its error, whatever happens next.
            clear();
            if (!file) return;
            setPicked(file.name);
            const p = pickProblem(file, format);
            if (p) {
              setProblem(
                p.kind === "format"
                  ? t("sendError.fileFormat", { field: label, formats: p.formats, format })
                  : t("sendError.fileTooBig", { field: label, max: p.max }),
              );
              return;
            }
            upload.mutate(file, { onSuccess: (d) => onChange(d.media_path, file.name) });
          }}
        />
        <label
          htmlFor="media_file"
          aria-hidden="true"
          className="cursor-pointer rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-wa-green-dark"
        >
          {t("send.chooseFile")}
        </label>
        <span className="min-w-0 truncate text-sm text-slate-700" data-testid="media-file-name">
          {upload.isPending
            ? t("send.uploading")
            : value && fileName
              ? t("send.uploaded", { name: fileName })
              : (picked ?? t("send.noFile"))}
        </span>
        {(value || picked) && !upload.isPending && (
          <Button
            variant="ghost"
            className="px-1 py-0 text-xs underline"
            onClick={() => {
              clear();
              if (input.current) input.current.value = "";
            }}
          >
            {t("send.removeFile")}
          </Button>
        )}
      </div>
      {shownError ? (
        <p id="media_file-error" role="alert" className="text-sm text-red-700" data-field-error="media_file">
          {shownError}
        </p>
      ) : (
        <p id="media_file-hint" className="text-xs text-slate-600">
          {t("send.attachmentAccepts", { formats: formatsFor(format) })}{" "}
          {!value && (defaultMediaPath ? t("send.attachmentDefault") : t("send.attachmentNoDefault"))}
        </p>
      )}
    </div>
  );
}
