"use client";
import { useRef, useState } from "react";
import { useUploadMedia } from "@/lib/api-client/hooks";
import { useT } from "@/lib/i18n";
import { allowedTypesFor, type MediaHeaderFormat } from "@/lib/limits";
import { Button, Field, inputClass } from "@/components/ui";

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

type Props = {
  format: MediaHeaderFormat;
  defaultMediaPath: string | null | undefined;
  value: string | null;
  onChange: (path: string | null, name: string | null) => void;
  error?: string;
};

/** Uploads through /api/v1/media-upload as soon as a file is chosen and keeps its media_path. */
export function AttachmentField({ format, defaultMediaPath, value, onChange, error }: Props) {
  const t = useT();
  const upload = useUploadMedia();
  const input = useRef<HTMLInputElement>(null);
  const [tooBig, setTooBig] = useState<string | null>(null);
  const uploadError = tooBig ?? upload.error?.message;
  return (
    <Field
      id="media_file"
      label={t("send.attachment")}
      error={error ?? uploadError}
      hint={t("send.attachmentAccepts", { formats: formatsFor(format) })}
    >
      <input
        ref={input}
        id="media_file"
        type="file"
        accept={acceptFor(format)}
        className={inputClass}
        aria-invalid={!!(error ?? uploadError)}
        aria-describedby={(error ?? uploadError) ? "media_file-error" : "media_file-hint"}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          // The server sniffs the bytes and has the last word; a file over its type's cap is not sent at all.
          const ext = file.name.slice(file.name.lastIndexOf(".") + 1).toLowerCase();
          const type = allowedTypesFor(format).find((x) => x.extensions.includes(ext));
          setTooBig(type && file.size > type.maxBytes ? t("send.fileTooBig", { max: type.label }) : null);
          if (type && file.size > type.maxBytes) return;
          upload.mutate(file, { onSuccess: (d) => onChange(d.media_path, file.name) });
        }}
      />
      <div className="text-xs text-slate-700" aria-live="polite">
        {upload.isPending ? (
          <p>{t("send.uploading")}</p>
        ) : value ? (
          <p className="flex flex-wrap items-center gap-2">
            <span data-testid="media-path">{t("send.uploaded", { path: value })}</span>
            <Button
              variant="ghost"
              className="px-1 py-0 text-xs underline"
              onClick={() => {
                onChange(null, null);
                upload.reset();
                setTooBig(null);
                if (input.current) input.current.value = "";
              }}
            >
              {t("send.removeFile")}
            </Button>
          </p>
        ) : (
          <p>{defaultMediaPath ? t("send.attachmentDefault") : t("send.attachmentNoDefault")}</p>
        )}
      </div>
    </Field>
  );
}
