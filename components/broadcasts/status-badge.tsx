"use client";
import type { BroadcastStatus } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { cx } from "@/components/ui";

const STYLES: Record<BroadcastStatus, string> = {
  SCHEDULED: "bg-sky-100 text-sky-900",
  SENDING: "bg-emerald-100 text-emerald-900",
  PAUSED: "bg-amber-100 text-amber-900",
  CANCELLED: "bg-slate-200 text-slate-800",
  DONE: "bg-slate-800 text-white",
};

export function BroadcastStatusBadge({ status }: { status: BroadcastStatus }) {
  const t = useT();
  return (
    <span
      className={cx("inline-block rounded-full px-2 py-0.5 text-xs font-semibold", STYLES[status])}
      data-testid="broadcast-status"
      data-status={status}
    >
      {t(`bc.status.${status}`)}
    </span>
  );
}
