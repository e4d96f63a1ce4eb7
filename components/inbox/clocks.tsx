"use client";
import type { Conversation } from "@/lib/api-client/types";
import { useI18n, type Translate } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { cx } from "@/components/ui";
import { useMinuteNow } from "./use-minute-now";

/** A span of time as an agent reads it at a glance: "< 1 min", "12 min", "2 h 5 min", "3 d 4 h". */
export function formatSpan(seconds: number, t: Translate): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return t("clock.underMinute");
  const m = Math.floor(s / 60);
  if (m < 60) return t("clock.minutes", { m });
  const h = Math.floor(m / 60);
  if (h < 24) return t("clock.hours", { h, m: m % 60 });
  return t("clock.days", { d: Math.floor(h / 24), h: h % 24 });
}

/** Whole minutes waited by `now` (ms), null when nothing waits or the conversation is resolved. */
export function minutesWaited(conv: Pick<Conversation, "waiting_since" | "status">, now: number): number | null {
  if (conv.status !== "open" || !conv.waiting_since) return null;
  return Math.max(0, Math.floor((now - new Date(conv.waiting_since).getTime()) / 60_000));
}

/**
 * On a conversation's row: how long the customer has waited for an answer, in the alert colour
 * once past the team's `waiting_alert_minutes` (docs/features/team-settings.md). Nothing when
 * nothing waits.
 */
export function WaitingClock({ conv, alertMinutes }: { conv: Conversation; alertMinutes: number }) {
  const { t } = useI18n();
  const now = useMinuteNow();
  const waited = minutesWaited(conv, now);
  if (waited === null) return null;
  const alert = waited >= alertMinutes;
  const span = formatSpan(waited * 60, t);
  const label = alert ? t("clock.waitingAlert", { span, limit: alertMinutes }) : t("clock.waiting", { span });
  return (
    <span
      className={cx(
        "shrink-0 rounded px-1 text-xs tabular-nums",
        alert ? "bg-red-100 font-semibold text-red-800" : "bg-amber-50 text-amber-900",
      )}
      data-testid="conversation-waiting"
      data-alert={alert ? "1" : "0"}
      title={label}
    >
      <span aria-hidden="true">{span}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The contact panel's clocks: the first response of this opening and its resolution. */
export function ConversationClocks({ conv }: { conv: Conversation }) {
  const { t, locale } = useI18n();
  const now = useMinuteNow();
  const openedAt = new Date(conv.opened_at).getTime();
  const waited = minutesWaited(conv, now);
  return (
    <div data-testid="conversation-clocks">
      <h3 className="mb-1 text-sm font-semibold">{t("clock.title")}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm">
        <dt className="text-slate-600">{t("clock.firstResponse")}</dt>
        <dd data-testid="clock-first-response">
          {conv.first_response_seconds !== null
            ? formatSpan(conv.first_response_seconds, t)
            : waited !== null
              ? `${t("clock.firstResponsePending")} · ${t("clock.waiting", { span: formatSpan(waited * 60, t) })}`
              : t("clock.firstResponsePending")}
        </dd>
        <dt className="text-slate-600">{t("clock.resolution")}</dt>
        <dd data-testid="clock-resolution">
          {conv.resolved_at ? (
            <time dateTime={conv.resolved_at} title={t("clock.resolvedAt", { when: formatDateTime(conv.resolved_at, locale) })}>
              {formatSpan((new Date(conv.resolved_at).getTime() - openedAt) / 1000, t)}
            </time>
          ) : (
            t("clock.openFor", { span: formatSpan((now - openedAt) / 1000, t) })
          )}
        </dd>
      </dl>
    </div>
  );
}
