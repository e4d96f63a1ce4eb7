"use client";
import { useEffect, useState } from "react";
import { useT } from "@/lib/i18n";
import { Button, cx, inputClass } from "@/components/ui";
import { Counter } from "./composer-builders";
import { LIMITS } from "./composer-limits";

export function mediaType(mime: string): "image" | "video" | "audio" | "document" {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "document";
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * A picked file before it is sent: what it is (a thumbnail for images and videos) and a caption
 * of its own, so the text box is never taken as the caption. Nothing is uploaded until Send.
 */
export function AttachmentPreview({
  file,
  caption,
  problem,
  busy,
  onCaption,
  onCancel,
}: {
  file: File;
  caption: string;
  problem?: string;
  busy: boolean;
  onCaption: (v: string) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const kind = mediaType(file.type);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (kind !== "image" && kind !== "video") return;
    const u = URL.createObjectURL(file);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the object URL must be revoked with the file
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file, kind]);

  return (
    <div className="flex flex-wrap items-start gap-3 rounded-md border border-slate-200 bg-slate-50 p-2" data-testid="attachment-preview">
      {kind === "image" && url ? (
        <img src={url} alt={t("composer.previewOf", { name: file.name })} className="h-20 w-20 rounded object-cover" />
      ) : kind === "video" && url ? (
        <video src={url} className="h-20 w-28 rounded bg-black" muted aria-label={t("composer.previewOf", { name: file.name })} />
      ) : (
        <span aria-hidden="true" className="flex h-20 w-20 items-center justify-center rounded bg-white text-3xl">
          {kind === "audio" ? "🎵" : "📄"}
        </span>
      )}
      <div className="min-w-0 flex-1 space-y-1">
        <p className="truncate text-sm font-medium" data-testid="attachment-name">
          {file.name} <span className="font-normal text-slate-600">· {sizeText(file.size)}</span>
        </p>
        {kind !== "audio" && (
          <>
            <label htmlFor="attachment-caption" className="text-xs text-slate-700">
              {t("composer.caption")}
            </label>
            <div className="flex items-start gap-2">
              <textarea
                id="attachment-caption"
                rows={2}
                className={cx(inputClass, "flex-1 resize-y py-1", problem && "border-red-600")}
                value={caption}
                aria-invalid={problem ? true : undefined}
                aria-describedby="attachment-caption-count"
                onChange={(e) => onCaption(e.target.value)}
              />
              <Counter value={caption} max={LIMITS.caption} id="attachment-caption-count" />
            </div>
          </>
        )}
        <div className="flex gap-2">
          <Button type="submit" disabled={busy} data-testid="send-attachment">
            {t("composer.sendAttachment")}
          </Button>
          <Button type="button" variant="secondary" onClick={onCancel}>
            {t("composer.removeAttachment")}
          </Button>
        </div>
      </div>
    </div>
  );
}
