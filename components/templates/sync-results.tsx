"use client";
import type { AccountSyncResult } from "@/lib/api-client/templates";
import { useT, type MessageKey } from "@/lib/i18n";
import { cx } from "@/components/ui";

/** What "Sincronizar ahora" did, account by account, in words (the API's counts: POST /api/v1/message_templates/sync). */
export function SyncResults({ accounts }: { accounts: AccountSyncResult[] }) {
  const t = useT();
  if (!accounts.length) return <p className="text-sm text-slate-700">{t("tp.result.none")}</p>;
  const anySetAside = accounts.some((a) => a.set_aside > 0);
  return (
    <>
      <ul className="space-y-1 text-sm" data-testid="sync-results">
        {accounts.map((a, i) => {
          const account = a.business_account_id ?? a.wa_numbers.map((n) => `+${n}`).join(", ");
          const text =
            a.outcome === "failed"
              ? t("tp.result.failed", { account, error: a.error?.message ?? "" })
              : a.outcome === "skipped"
                ? t(`tp.result.${a.skipped_reason ?? "sandbox"}` as MessageKey, { account })
                : a.created + a.updated + a.deleted + a.set_aside === 0
                  ? t("tp.result.unchanged", { account, fetched: a.fetched })
                  : t("tp.result.synced", {
                      account,
                      fetched: a.fetched,
                      created: a.created,
                      updated: a.updated,
                      deleted: a.deleted,
                      set_aside: a.set_aside,
                    });
          return (
            <li
              key={i}
              className={cx(a.outcome === "failed" ? "text-red-800" : a.outcome === "skipped" ? "text-slate-700" : "text-slate-900")}
              data-testid="sync-result"
              data-outcome={a.outcome}
            >
              {text}
            </li>
          );
        })}
      </ul>
      {anySetAside && <p className="mt-1 text-xs text-slate-600">{t("tp.result.setAsideHint")}</p>}
    </>
  );
}
