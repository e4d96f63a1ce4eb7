"use client";
import type { ReactNode } from "react";
import { formatDateTime } from "@/lib/i18n/dates";
import { TemplateName } from "@/components/templates/template-name";
import { useBots, useCampaigns } from "@/lib/api-client/numbers";
import { useLabels } from "@/lib/api-client/labels";
import { useI18n } from "@/lib/i18n";
import { Button } from "@/components/ui";
import { useAudienceSize, useMessagingLimitPreview } from "@/lib/api-client/broadcasts";
import { MessagingLimitSummary } from "../messaging-limit";
import { AudienceSize } from "./audience-step";
import { paramValue, type Draft, type Step } from "./draft";

/** Everything the broadcast will do, each line with a way back to the step that set it. */
export function ReviewStep({ draft, goTo }: { draft: Draft; goTo: (s: Step) => void }) {
  const { t, locale } = useI18n();
  const labels = useLabels();
  const bots = useBots();
  const campaigns = useCampaigns();
  const titles = (ids: number[]) =>
    ids.map((id) => labels.data?.find((l) => l.id === id)?.title ?? `#${id}`).join(", ") || t("bc.review.none");
  const params = [...(draft.header ? [draft.header] : []), ...draft.body].map((p) => `{{${p.key}}} = ${paramValue(p)}`).join(" · ");
  const routing =
    draft.response_handler === "CHATBOT"
      ? `${t("send.handler.CHATBOT")}: ${bots.data?.find((b) => String(b.id) === draft.bot_id)?.name ?? t("bc.review.none")}`
      : `${t("send.handler.CAMPAIGN")}: ${campaigns.data?.find((c) => String(c.id) === draft.campaign_id)?.name ?? t("send.campaignNone")}`;
  const start = draft.when === "later" && draft.scheduled_local ? formatDateTime(draft.scheduled_local, locale) : t("bc.review.startNow");
  const rows: [string, ReactNode, Step][] = [
    [
      t("bc.review.audience"),
      t("bc.audience.summary", {
        any: titles(draft.audience.labels_any),
        all: titles(draft.audience.labels_all),
        exclude: titles(draft.audience.labels_exclude),
      }),
      "audience",
    ],
    [t("bc.review.number"), `+${draft.wa_number}`, "template"],
    [t("bc.review.template"), <TemplateName key="tpl" name={draft.template_name} language={draft.language} slug="below" />, "template"],
    [t("bc.review.params"), params || t("bc.review.none"), "params"],
    [t("bc.review.media"), draft.media_name ?? (draft.media_path ? draft.media_path : t("bc.review.defaultMedia")), "params"],
    [t("bc.review.name"), draft.name, "delivery"],
    [t("bc.review.routing"), routing, "delivery"],
    [t("bc.review.sentGroup"), draft.sent_group.trim() || draft.name, "delivery"],
    [t("bc.review.start"), start, "delivery"],
  ];
  return (
    <div className="space-y-4">
      <AudienceSize rule={draft.audience} />
      <LimitPreview draft={draft} />
      <dl className="divide-y divide-slate-100 rounded-md border border-slate-200" data-testid="broadcast-review">
        {rows.map(([label, value, step], i) => (
          <div key={i} className="flex flex-wrap items-start gap-x-3 gap-y-1 px-3 py-2">
            <dt className="w-36 shrink-0 text-sm font-medium text-slate-700">{label}</dt>
            <dd className="min-w-0 flex-1 text-sm break-words">{value}</dd>
            <dd>
              <Button
                variant="ghost"
                className="px-2 py-0.5 text-xs underline"
                onClick={() => goTo(step)}
                aria-label={`${t("bc.review.edit")}: ${label}`}
              >
                {t("bc.review.edit")}
              </Button>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** What the broadcast would take of its number's messaging limit, in how many waves, and when it would end. */
function LimitPreview({ draft }: { draft: Draft }) {
  const { t } = useI18n();
  const size = useAudienceSize(draft.audience).size.data?.size;
  const scheduledAt = draft.when === "later" && draft.scheduled_local ? new Date(draft.scheduled_local).toISOString() : null;
  const preview = useMessagingLimitPreview(draft.wa_number, size, scheduledAt);
  if (!preview.data) return null;
  return (
    <section className="rounded-md border border-slate-200 p-3" aria-label={t("bc.limit.title")}>
      <MessagingLimitSummary preview={preview.data} />
    </section>
  );
}
