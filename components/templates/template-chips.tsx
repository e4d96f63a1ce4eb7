"use client";
import { useT, type MessageKey } from "@/lib/i18n";
import { cx } from "@/components/ui";

/** Meta's template statuses as the page names them; another status Meta adds is shown as Meta writes it. */
const STATUS_STYLES: Record<string, string> = {
  APPROVED: "bg-emerald-100 text-emerald-900",
  PENDING: "bg-sky-100 text-sky-900",
  IN_APPEAL: "bg-sky-100 text-sky-900",
  REJECTED: "bg-red-100 text-red-900",
  DISABLED: "bg-red-100 text-red-900",
  PAUSED: "bg-amber-100 text-amber-900",
  LIMIT_EXCEEDED: "bg-amber-100 text-amber-900",
  PENDING_DELETION: "bg-slate-200 text-slate-800",
  DELETED: "bg-slate-200 text-slate-800",
  ARCHIVED: "bg-slate-200 text-slate-800",
};
export const TEMPLATE_STATUSES = Object.keys(STATUS_STYLES);

export function TemplateStatusChip({ status }: { status: string }) {
  const t = useT();
  const known = status in STATUS_STYLES;
  return (
    <span
      className={cx(
        "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold",
        STATUS_STYLES[status] ?? "bg-slate-200 text-slate-800",
      )}
      data-testid="template-status"
      data-status={status}
      title={status}
    >
      {known ? t(`tp.status.${status}` as MessageKey) : status}
    </span>
  );
}

const QUALITY_DOTS: Record<string, string> = {
  GREEN: "bg-emerald-600",
  YELLOW: "bg-amber-400",
  RED: "bg-red-600",
  UNKNOWN: "bg-slate-400",
};

/** A quality rating (a template's score, a number's rating): GREEN, YELLOW, RED, UNKNOWN. */
export function QualityChip({ quality, testId = "template-quality" }: { quality: string | null; testId?: string }) {
  const t = useT();
  const q = quality && quality in QUALITY_DOTS ? quality : "UNKNOWN";
  return (
    <span
      className="inline-flex items-center gap-1.5 whitespace-nowrap text-xs"
      data-testid={testId}
      data-quality={quality ?? "UNKNOWN"}
      title={quality ?? "UNKNOWN"}
    >
      <span aria-hidden="true" className={cx("h-2.5 w-2.5 rounded-full", QUALITY_DOTS[q])} />
      {t(`tp.quality.${q}` as MessageKey)}
    </span>
  );
}
