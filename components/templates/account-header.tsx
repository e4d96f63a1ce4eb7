"use client";
import type { WaNumber } from "@/lib/api-client/types";
import type { TemplateSyncStates } from "@/lib/api-client/templates";
import { useI18n, type Locale, type Translate } from "@/lib/i18n";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { formatDateTime } from "@/lib/i18n/dates";
import type { TemplateGroup } from "./template-groups";
import { QualityChip } from "./template-chips";

/**
 * A section's heading: the business account (or the sandbox), each of its numbers' health as Meta
 * last reported it (quality rating, messaging limit tier, last event and when: the number
 * webhooks, docs/features/templates-and-number-health.md), and the account's last sync.
 */
export function AccountHeader({ group, syncs }: { group: TemplateGroup; syncs: TemplateSyncStates | undefined }) {
  const { t } = useI18n();
  const title =
    group.kind === "account"
      ? t("tp.group.account", { id: group.businessAccountId ?? "" })
      : group.kind === "unlinked"
        ? t("tp.group.unlinked")
        : t("tp.group.team");
  const sync = group.businessAccountId ? syncs?.find((s) => s.business_account_id === group.businessAccountId) : undefined;
  return (
    <div className="border-b border-slate-200 bg-slate-50 px-4 py-3" data-testid="account-header">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold text-slate-900">{title}</h2>
        <span className="text-xs text-slate-600">{t("tp.count", { count: group.templates.length })}</span>
      </div>
      {group.kind === "team" && <p className="mt-1 text-xs text-slate-600">{t("tp.group.teamHint")}</p>}
      {group.numbers.length > 0 && (
        <ul className="mt-2 space-y-2">
          {group.numbers.map((n) => (
            <NumberHealth key={n.id} number={n} />
          ))}
        </ul>
      )}
      {group.kind === "account" && <LastSync sync={sync} />}
    </div>
  );
}

function NumberHealth({ number: n }: { number: WaNumber }) {
  const { t, locale } = useI18n();
  const reported = n.quality_rating || n.messaging_limit_tier || n.health_event;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-testid="number-health" data-number={n.number}>
      <span className="font-medium tabular-nums">
        +{n.number}
        {n.display_name ? <span className="font-normal text-slate-700"> · {n.display_name}</span> : null}
        {n.provider === "sandbox" ? (
          <span className="ml-1 rounded bg-slate-200 px-1.5 py-0.5 text-xs">{t("tp.number.sandbox")}</span>
        ) : null}
      </span>
      {n.provider === "sandbox" ? null : reported ? (
        <>
          <span className="inline-flex items-center gap-1.5 text-xs text-slate-700">
            {t("tp.number.quality")}: <QualityChip quality={n.quality_rating} testId="number-quality" />
          </span>
          <span className="text-xs text-slate-700" data-testid="number-tier">
            {t("tp.number.tier")}: {tierText(n.messaging_limit_tier, t, locale)}
          </span>
          {n.health_event && (
            <span className="text-xs text-slate-700" data-testid="number-event">
              {t("tp.number.event")}: <code>{n.health_event}</code>
              {n.health_updated_at ? ` · ${formatDateTime(n.health_updated_at, locale)}` : ""}
            </span>
          )}
        </>
      ) : (
        <span className="text-xs text-slate-600">{t("tp.number.noHealth")}</span>
      )}
    </li>
  );
}

/** Meta's tier (TIER_250, TIER_1K, TIER_UNLIMITED…) as the customers a day it allows; another value as Meta writes it. */
function tierText(tier: string | null, t: Translate, locale: Locale): string {
  if (!tier) return "—";
  if (/UNLIMITED/.test(tier)) return t("tp.tier.unlimited");
  const m = /^TIER_(\d+)(K?)$/.exec(tier);
  if (!m) return tier;
  const count = Number(m[1]) * (m[2] ? 1000 : 1);
  return t("tp.tier.count", { count: formatNumber(count, locale) });
}

function LastSync({ sync }: { sync: TemplateSyncStates[number] | undefined }) {
  const { t, locale } = useI18n();
  if (!sync || !sync.started_at) return <p className="mt-2 text-xs text-slate-600">{t("tp.neverSynced")}</p>;
  if (sync.running)
    return <p className="mt-2 text-xs text-slate-600">{t("tp.lastSyncRunning", { when: formatDateTime(sync.started_at, locale) })}</p>;
  const who = sync.triggered_by === "schedule" ? t("tp.by.schedule") : sync.triggered_by === "cli" ? t("tp.by.cli") : sync.triggered_by;
  const failed = sync.last_result?.outcome === "failed";
  return (
    <p className="mt-2 text-xs text-slate-600" data-testid="last-sync">
      {t("tp.lastSync", { when: formatDateTime(sync.finished_at ?? sync.started_at, locale), who })}
      {failed && (
        <span className="mt-0.5 block text-red-700" role="status">
          {t("tp.lastSyncFailed", { error: sync.last_result?.error?.message ?? "" })}
        </span>
      )}
    </p>
  );
}
