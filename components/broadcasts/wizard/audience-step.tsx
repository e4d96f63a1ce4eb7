"use client";
import Link from "next/link";
import { useLabels } from "@/lib/api-client/labels";
import { audienceIsEmpty, useAudienceSize } from "@/lib/api-client/broadcasts";
import type { AudienceRule, Label } from "@/lib/api-client/types";
import { useI18n } from "@/lib/i18n";
import { cx, EmptyState, ErrorBox, SkeletonRows } from "@/components/ui";
import { chipColors } from "@/components/labels/label-chip";
import { formatNumber } from "@/lib/i18n/numbers-format";
import type { Errors } from "./draft";

type Group = keyof AudienceRule;
const GROUPS: { key: Group; text: "bc.audience.any" | "bc.audience.all" | "bc.audience.exclude" }[] = [
  { key: "labels_any", text: "bc.audience.any" },
  { key: "labels_all", text: "bc.audience.all" },
  { key: "labels_exclude", text: "bc.audience.exclude" },
];

/** Three label pickers (any, all, except) and the audience's size, asked again as the choice settles. */
export function AudienceStep({ value, onChange, errors }: { value: AudienceRule; onChange: (a: AudienceRule) => void; errors: Errors }) {
  const { t } = useI18n();
  const labels = useLabels();
  if (labels.isError) return <ErrorBox error={labels.error} onRetry={() => labels.refetch()} />;
  if (labels.isLoading) return <SkeletonRows rows={3} />;
  if (!labels.data?.length)
    return (
      <EmptyState>
        <Link href="/labels" className="underline">
          {t("bc.audience.noLabels")}
        </Link>
      </EmptyState>
    );
  const toggle = (group: Group, id: number) => {
    const ids = value[group];
    onChange({ ...value, [group]: ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id] });
  };
  return (
    <div className="space-y-4">
      {GROUPS.map((g) => (
        <LabelGroup
          key={g.key}
          id={`audience.${g.key}`}
          legend={t(g.text)}
          labels={labels.data}
          selected={value[g.key]}
          onToggle={(id) => toggle(g.key, id)}
          error={errors[`audience.${g.key}`]}
        />
      ))}
      <AudienceSize rule={value} />
    </div>
  );
}

function LabelGroup({
  id,
  legend,
  labels,
  selected,
  onToggle,
  error,
}: {
  id: string;
  legend: string;
  labels: Label[];
  selected: number[];
  onToggle: (id: number) => void;
  error?: string;
}) {
  return (
    <fieldset className="min-w-0" aria-describedby={error ? `${id}-error` : undefined} data-testid={`picker-${id}`}>
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {labels.map((l) => {
          const on = selected.includes(l.id);
          return (
            <label
              key={l.id}
              className={cx(
                "flex cursor-pointer items-center gap-1.5 rounded-full border px-2 py-1 text-sm focus-within:ring-2 focus-within:ring-wa-green",
                on ? "border-wa-green-dark bg-emerald-50" : "border-slate-300 bg-white",
              )}
            >
              <input type="checkbox" checked={on} onChange={() => onToggle(l.id)} className="accent-wa-green" />
              <span className="rounded-full px-2 py-0.5 text-xs font-medium" style={chipColors(l.bg_color, l.text_color)}>
                {l.title}
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700" data-field-error={id}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

export function AudienceSize({ rule }: { rule: AudienceRule }) {
  const { t, locale } = useI18n();
  const { size: query, settling } = useAudienceSize(rule);
  const size = { ...query, data: query.data?.size };
  const optedOut = query.data?.opted_out ?? 0;
  const empty = audienceIsEmpty(rule);
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3">
      <p role="status" aria-live="polite" className="text-base font-semibold" data-testid="audience-size" data-size={size.data ?? ""}>
        {empty
          ? t("bc.audience.pick")
          : size.isError
            ? size.error.message
            : size.data === undefined || settling || size.isFetching
              ? t("bc.audience.sizeLoading")
              : t("bc.audience.size", { size: formatNumber(size.data, locale) })}
      </p>
      {!empty && optedOut > 0 && (
        <p className="text-sm text-amber-900" data-testid="audience-opted-out">
          {t("optOut.audienceLeftOut", { n: optedOut })}
        </p>
      )}
      <p className="text-xs text-slate-600">{t("bc.audience.sizeHint")}</p>
    </div>
  );
}
