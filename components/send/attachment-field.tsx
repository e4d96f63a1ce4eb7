"use client";
import { useRef } from "react";
import { useUploadMedia } from "@/lib/api-client/hooks";
import { useT } from "@/lib/i18n";
import type { HeaderFormat } from "@/lib/templates/schemas";
import { Button, Field, inputClass } from "@/components/ui";

/** What the file picker offers per header format (spec 4.1 media_path rule 1). */
export const ACCEPT: Record<Exclude<HeaderFormat, "TEXT">, string> = {
  IMAGE: ".jpg,.jpeg,.png,image/jpeg,image/png",
  DOCUMENT: ".pdf,application/pdf",
  VIDEO: ".mp4,video/mp4",
};
const LABELS: Record<Exclude<HeaderFormat, "TEXT">, string> = { IMAGE: ".jpg, .jpeg, .png", DOCUMENT: ".pdf", VIDEO: ".mp4" };

type Props = {
  format: Exclude<HeaderFormat, "TEXT">;
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
  const uploadError = upload.error?.message;
  return (
    <Field id="media_file" label={t("send.attachment")} error={error ?? uploadError} hint={t("send.attachmentAccepts", { formats: LABELS[format] })}>
      <input
        ref={input}
        id="media_file"
        type="file"
        accept={ACCEPT[format]}
        className={inputClass}
        aria-invalid={!!(error ?? uploadError)}
        aria-describedby={error ?? uploadError ? "media_file-error" : "media_file-hint"}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
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
