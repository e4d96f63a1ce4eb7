"use client";
import { useMemo } from "react";
import { useLiveHistory } from "@/lib/api-client/history-live";
import { useT } from "@/lib/i18n";
import { cx } from "@/components/ui";

/**
 * Mounted by the viewer only while its range holds today: it keeps the shown history live through
 * the event stream (lib/api-client/history-live.ts) and says so in one line, badged like a
 * broadcast's page. Mounted beside the list, not in it, so an empty range still gets its first
 * message live.
 */
export function LiveHistory({ waNumber, customer, from, to }: { waNumber: string; customer: string; from: string; to: string }) {
  const t = useT();
  // The same params, in the same order, as the MessageList beside it: the same cached query.
  const params = useMemo(
    () => ({ wa_number: waNumber, customer_source: customer, from_date: from, to_date: to }),
    [waNumber, customer, from, to],
  );
  const state = useLiveHistory(params);
  const text = { open: t("conv.live.open"), connecting: t("conv.live.connecting"), down: t("conv.live.down") }[state];
  return (
    <p className="mb-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600" data-testid="history-live" data-stream={state}>
      <span
        className={cx(
          "inline-flex items-center gap-1 rounded-full px-2 py-0.5",
          state === "open" ? "bg-emerald-50 text-emerald-900" : "bg-slate-100 text-slate-700",
        )}
      >
        <span aria-hidden="true" className={cx("h-2 w-2 rounded-full", state === "open" ? "bg-emerald-600" : "bg-slate-400")} />
        {text}
      </span>
      <span>{t("conv.live.hint")}</span>
    </p>
  );
}
