"use client";
import { useEffect, useMemo, useState } from "react";
import type { Template } from "@/lib/api-client/types";
import type { TemplateComponent } from "@/lib/templates/schemas";
import { buildTemplatePayload } from "@/lib/messages/template-payload";
import { useI18n } from "@/lib/i18n";
import { formatTime } from "@/lib/i18n/dates";
import { TemplateContent } from "@/components/templates/template-bubble";

type Props = {
  template: Template | undefined;
  headerValues: Record<string, string>;
  bodyValues: Record<string, string>;
  /** Button index → the value typed for its URL's variable. */
  buttonValues?: Record<number, string>;
  mediaUrl: string | null;
  mediaName: string | null;
};

/**
 * Whether the browser can play a video: its metadata must load. Null while unknown. A preview
 * never shows an empty player: until (and unless) the source plays, the header shows the file's
 * name instead.
 */
function usePlayable(src: string | null): boolean | null {
  const [result, setResult] = useState<{ src: string; ok: boolean } | null>(null);
  useEffect(() => {
    if (!src) return;
    const probe = document.createElement("video");
    probe.preload = "metadata";
    probe.muted = true;
    const done = (ok: boolean) => setResult({ src, ok });
    probe.onloadedmetadata = () => done(probe.videoWidth > 0 || probe.duration > 0);
    probe.onerror = () => done(false);
    probe.src = src;
    return () => {
      probe.onloadedmetadata = null;
      probe.onerror = null;
      probe.removeAttribute("src");
      probe.load();
    };
  }, [src]);
  return src && result?.src === src ? result.ok : null;
}

/** The chosen template in a phone-like chat: values fill in as they are typed. */
export function TemplatePreview({ template, headerValues, bodyValues, buttonValues = {}, mediaUrl, mediaName }: Props) {
  const { t, locale } = useI18n();
  const header = template?.components.find((c) => c.type === "HEADER");
  const isVideo = header?.format === "VIDEO";
  const videoSrc = isVideo ? (mediaUrl ?? header?.example?.header_handle?.[0] ?? null) || null : null;
  const playable = usePlayable(videoSrc);

  const components = useMemo<TemplateComponent[]>(() => {
    if (!template) return [];
    // URL buttons show the link with the typed value (the same filling the stored payload gets).
    const filled = buildTemplatePayload(template, { header: {}, body: {}, mediaUrl: null, buttons: buttonValues }).components;
    if (!isVideo || playable) return filled;
    // No playable source (yet): the header without its example, so no <video> is drawn.
    return filled.map((c) => (c.type === "HEADER" ? { ...c, example: undefined } : c));
  }, [template, buttonValues, isVideo, playable]);

  return (
    <section
      className="overflow-hidden rounded-xl border border-slate-200 shadow-sm"
      data-testid="template-preview"
      // A video header's probe, readable in the page: still probing, or its answer.
      data-video={videoSrc ? (playable === null ? "probing" : playable ? "playable" : "unplayable") : undefined}
    >
      <h2 className="bg-wa-green-dark px-4 py-2 text-sm font-semibold text-white">{t("send.preview")}</h2>
      <div className="chat-bg min-h-64 p-4">
        {template ? (
          <div className="ml-auto max-w-[92%] rounded-lg rounded-tr-none bg-wa-out px-2 pb-1 pt-1.5 shadow-sm">
            <TemplateContent
              components={components}
              headerValues={headerValues}
              bodyValues={bodyValues}
              mediaUrl={isVideo && !playable ? null : mediaUrl}
              mediaName={mediaName ?? (isVideo && videoSrc ? (videoSrc.split("/").pop() ?? null) : null)}
            />
            <p className="text-right text-[11px] text-slate-600">{formatTime(new Date(), locale)}</p>
          </div>
        ) : (
          <p className="rounded-md bg-white/80 p-3 text-center text-sm text-slate-700">{t("send.previewEmpty")}</p>
        )}
      </div>
    </section>
  );
}
