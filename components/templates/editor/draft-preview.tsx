"use client";
import { useMemo } from "react";
import type { Template } from "@/lib/api-client/types";
import type { TemplateDraftInput } from "@/lib/templates/draft-schema";
import type { TemplateComponent } from "@/lib/templates/schemas";
import { useT } from "@/lib/i18n";
import { TemplatePreview } from "@/components/send/template-preview";

/**
 * The draft as the customer will see it, in the send form's WhatsApp bubble, while it is typed:
 * the samples fill the variables. Read from the form's values as they are (possibly unfinished),
 * so nothing here assumes the draft is valid. Every button is shown, phone and copy code too.
 */
export function DraftPreview({ draft }: { draft: TemplateDraftInput }) {
  const t = useT();
  const { components, headerValues, bodyValues } = useMemo(() => previewOf(draft, t("te.copyCode")), [draft, t]);
  const template: Template = {
    id: "draft",
    name: draft.name || "draft",
    status: "PENDING",
    category: draft.category ?? "MARKETING",
    language: draft.language ?? "",
    rejected_reason: "NONE",
    components,
    default_media_path: null,
    quality_score: "UNKNOWN",
    wa_number: null,
    updated_at: new Date(0).toISOString(),
  };
  return <TemplatePreview template={template} headerValues={headerValues} bodyValues={bodyValues} mediaUrl={null} mediaName={null} />;
}

function previewOf(d: TemplateDraftInput, copyCode: string) {
  const components: TemplateComponent[] = [];
  const header = d.header ?? { format: "NONE" };
  let headerValues: Record<string, string> = {};
  if (header.format === "TEXT") {
    components.push({ type: "HEADER", format: "TEXT", text: header.text ?? "" });
    const key = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/.exec(header.text ?? "")?.[1];
    if (key && header.example) headerValues = { [key]: header.example };
  } else if (header.format === "IMAGE" || header.format === "VIDEO" || header.format === "DOCUMENT") {
    components.push({ type: "HEADER", format: header.format, example: { header_handle: [header.example ?? ""] } });
  } else if (header.format === "LOCATION") {
    // Drawn as the bubble draws any header it has no media for: a box with its kind.
    components.push({ type: "HEADER", format: "LOCATION" as "IMAGE" });
  }
  components.push({ type: "BODY", text: d.body?.text ?? "" });
  if (d.footer) components.push({ type: "FOOTER", text: d.footer });
  const buttons = (d.buttons ?? []).map((b) =>
    b.type === "URL"
      ? { type: "URL" as const, text: b.text ?? "", url: b.example || b.url || "" }
      : { type: "QUICK_REPLY" as const, text: b.type === "COPY_CODE" ? copyCode : (b.text ?? "") },
  );
  if (buttons.length) components.push({ type: "BUTTONS", buttons });
  const bodyValues = Object.fromEntries(Object.entries(d.body?.examples ?? {}).filter(([, v]) => !!v)) as Record<string, string>;
  return { components, headerValues, bodyValues };
}
