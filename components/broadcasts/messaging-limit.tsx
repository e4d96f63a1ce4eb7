"use client";
import type { MessagingLimitPlan, MessagingLimitPreview } from "@/lib/api-client/types";
import { formatDateTime } from "@/lib/i18n/dates";
import { useI18n } from "@/lib/i18n";
import { formatNumber } from "@/lib/i18n/numbers-format";

type Budget = Pick<MessagingLimitPlan, "tier" | "limit" | "used" | "remaining" | "window_hours" | "waves" | "finishes_at">;

/**
 * A number's messaging limit and the waves a broadcast takes within it
 * (docs/features/broadcasts.md, "Messaging limit"): the wizard shows what a broadcast would use
 * and when it would end (`preview`), a broadcast's page what is left of it and what waits (`plan`).
 */
export function MessagingLimitSummary({ plan, preview }: { plan?: MessagingLimitPlan | null; preview?: MessagingLimitPreview }) {
  const { t, locale } = useI18n();
  const b: Budget | null | undefined = plan ?? preview;
  if (!b) return null;
  const n = (v: number) => formatNumber(v, locale);
  const at = (iso: string) => formatDateTime(iso, locale);
  return (
    <div className="space-y-1 text-sm" data-testid="messaging-limit" data-waves={b.waves.length}>
      <p className="font-medium">
        {b.limit == null
          ? t("bc.limit.none")
          : t("bc.limit.budget", { limit: n(b.limit), hours: n(b.window_hours), used: n(b.used), remaining: n(b.remaining ?? 0) })}
      </p>
      {preview && b.limit != null && (
        <p data-testid="messaging-limit-use">
          {t("bc.limit.wouldUse", { recipients: n(preview.recipients), waves: b.waves.length })}
          {b.finishes_at && b.waves.length > 1 ? ` ${t("bc.limit.finishes", { date: at(b.finishes_at) })}` : ""}
        </p>
      )}
      {plan && plan.limit != null && (
        <p data-testid="messaging-limit-progress">
          {t("bc.limit.standing", { pending: n(plan.pending), waiting: n(plan.waiting) })}
          {plan.next_wave_at ? ` ${t("bc.limit.next", { date: at(plan.next_wave_at) })}` : ""}
        </p>
      )}
      {b.limit != null && b.waves.length > 1 && (
        <ol className="list-inside list-decimal text-xs text-slate-700" aria-label={t("bc.limit.waves")}>
          {b.waves.map((w, i) => (
            <li key={i}>{t("bc.limit.wave", { size: n(w.size), date: at(w.starts_at) })}</li>
          ))}
        </ol>
      )}
    </div>
  );
}
