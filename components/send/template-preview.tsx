"use client";
import type { Template } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { TemplateContent } from "@/components/templates/template-bubble";

type Props = {
  template: Template | undefined;
  headerValues: Record<string, string>;
  bodyValues: Record<string, string>;
  mediaUrl: string | null;
  mediaName: string | null;
};

/** The chosen template in a phone-like chat: values fill in as they are typed. */
export function TemplatePreview({ template, headerValues, bodyValues, mediaUrl, mediaName }: Props) {
  const t = useT();
  return (
    <section className="overflow-hidden rounded-xl border border-slate-200 shadow-sm" data-testid="template-preview">
      <h2 className="bg-wa-green-dark px-4 py-2 text-sm font-semibold text-white">{t("send.preview")}</h2>
      <div className="chat-bg min-h-64 p-4">
        {template ? (
          <div className="ml-auto max-w-[92%] rounded-lg rounded-tr-none bg-wa-out px-2 pb-1 pt-1.5 shadow-sm">
            <TemplateContent
              components={template.components}
              headerValues={headerValues}
              bodyValues={bodyValues}
              mediaUrl={mediaUrl}
              mediaName={mediaName}
            />
            <p className="text-right text-[11px] text-slate-600">{new Date().toTimeString().slice(0, 5)}</p>
          </div>
        ) : (
          <p className="rounded-md bg-white/80 p-3 text-center text-sm text-slate-700">{t("send.previewEmpty")}</p>
        )}
      </div>
    </section>
  );
}
