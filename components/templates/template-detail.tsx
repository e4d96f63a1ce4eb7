"use client";
import { useEffect, useMemo, useRef } from "react";
import type { Template } from "@/lib/api-client/types";
import { useTemplateChanges, type TemplateChange } from "@/lib/api-client/templates";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { templateLanguageName } from "@/lib/templates/display-name";
import { exampleOf } from "@/lib/templates/params";
import { placeholderKeys } from "@/lib/templates/schemas";
import { Button, ErrorBox, SkeletonRows } from "@/components/ui";
import { TemplatePreview } from "@/components/send/template-preview";
import { TemplateName } from "./template-name";
import { QualityChip, TemplateStatusChip } from "./template-chips";

/**
 * One template opened from the list: what it says (the send form's WhatsApp preview, its
 * variables filled with Meta's examples), its attributes, and every change Meta made to it
 * (GET /api/v1/message_templates/{id}/changes), newest first.
 */
export function TemplateDetail({ template, onClose }: { template: Template; onClose: () => void }) {
  const { t, locale } = useI18n();
  const examples = useMemo(() => exampleValues(template), [template]);
  // Opened from the list: the reader (and a screen reader) is taken to it, on a phone where it
  // replaces the list as much as beside it.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  return (
    <section aria-labelledby="template-detail-title" className="space-y-4" data-testid="template-detail" data-template={template.name}>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2
            id="template-detail-title"
            ref={title}
            tabIndex={-1}
            className="scroll-mt-4 text-lg font-semibold text-slate-900 focus:outline-none"
          >
            <TemplateName name={template.name} slug="below" />
          </h2>
          <Button variant="secondary" onClick={onClose} data-testid="template-detail-close">
            {t("tp.detail.close")}
          </Button>
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <TemplateStatusChip status={template.status} />
          <QualityChip quality={template.quality_score} />
        </div>
        {template.rejected_reason && template.rejected_reason.toUpperCase() !== "NONE" && (
          <p className="mt-2 text-sm text-red-800">{t("tp.reason", { reason: template.rejected_reason })}</p>
        )}
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">{t("tp.col.language")}</dt>
          <dd>{templateLanguageName(template.language, locale)}</dd>
          <dt className="text-slate-600">{t("tp.col.category")}</dt>
          <dd>{categoryName(template.category, t)}</dd>
          <dt className="text-slate-600">{t("tp.detail.number")}</dt>
          <dd className="tabular-nums">{template.wa_number ? `+${template.wa_number}` : t("tp.detail.allNumbers")}</dd>
          <dt className="text-slate-600">{t("tp.detail.metaId")}</dt>
          <dd className="break-all font-mono text-xs leading-5">{template.id}</dd>
          <dt className="text-slate-600">{t("tp.col.changed")}</dt>
          <dd>{formatDateTime(template.updated_at, locale)}</dd>
        </dl>
      </div>
      <TemplatePreview template={template} headerValues={examples.header} bodyValues={examples.body} mediaUrl={null} mediaName={null} />
      <History id={template.id} />
    </section>
  );
}

function categoryName(category: string, t: (k: MessageKey) => string) {
  const key = `tpl.category.${category.toUpperCase()}` as MessageKey;
  const name = t(key);
  return name === key ? category : name;
}

/** Meta's examples (`example.header_text`, `example.body_text[0]`) as the preview's values: the template as a customer would read it. */
function exampleValues(template: Template) {
  const header = template.components.find((c) => c.type === "HEADER");
  const body = template.components.find((c) => c.type === "BODY");
  const fill = (text: string | undefined, list: readonly string[] | undefined) =>
    Object.fromEntries(placeholderKeys(text).flatMap((k) => (exampleOf(text, list, k) ? [[k, exampleOf(text, list, k)!]] : [])));
  return {
    header: header?.format === "TEXT" ? fill(header.text, header.example?.header_text) : {},
    body: body ? fill(body.text, body.example?.body_text?.[0]) : {},
  };
}

function History({ id }: { id: string }) {
  const { t, locale } = useI18n();
  const changes = useTemplateChanges(id);
  const rows = changes.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-labelledby="template-history-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 id="template-history-title" className="mb-2 font-semibold text-slate-900">
        {t("tp.detail.history")}
      </h3>
      {changes.isError ? (
        <ErrorBox error={changes.error} onRetry={() => changes.refetch()} />
      ) : changes.isLoading ? (
        <SkeletonRows rows={2} />
      ) : !rows.length ? (
        <p className="text-sm text-slate-600" data-testid="template-history-empty">
          {t("tp.detail.noHistory")}
        </p>
      ) : (
        <ol className="space-y-2" data-testid="template-history">
          {rows.map((c) => (
            <li key={c.id} className="border-l-2 border-slate-200 pl-3 text-sm" data-testid="template-change" data-field={c.field}>
              <p className="font-medium">{changeText(c, t)}</p>
              {c.reason && <p className="text-slate-700">{t("tp.reason", { reason: c.reason })}</p>}
              <p className="text-xs text-slate-600">
                <time dateTime={c.meta_at ?? c.received_at}>{formatDateTime(c.meta_at ?? c.received_at, locale)}</time> ·{" "}
                {t(`tp.source.${c.source}` as MessageKey)}
              </p>
            </li>
          ))}
        </ol>
      )}
      {changes.hasNextPage && (
        <Button variant="secondary" className="mt-3" disabled={changes.isFetchingNextPage} onClick={() => changes.fetchNextPage()}>
          {t("tp.detail.more")}
        </Button>
      )}
    </section>
  );
}

function changeText(c: TemplateChange, t: (k: MessageKey, vars?: Record<string, string>) => string): string {
  if (c.field === "status" && c.previous === null) return t("tp.change.created", { value: c.value });
  return t(`tp.change.${c.field}` as MessageKey, { previous: c.previous ?? "—", value: c.value });
}
