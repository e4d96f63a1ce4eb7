"use client";
import { useEffect, useState, type FormEvent } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useWaNumbers } from "@/lib/api-client/numbers";
import { rangeHoldsDay } from "@/lib/api-client/history-cache";
import { useI18n } from "@/lib/i18n";
import { formatLongDate } from "@/lib/i18n/dates";
import { Button, Card, EmptyState, ErrorBox, inputClass, PageTitle, Skeleton } from "@/components/ui";
import { NumberOptions } from "@/components/numbers/number-options";
import { CurrentCustomer } from "./current-customer";
import { CustomerSearch } from "./customer-search";
import { MessageList } from "./message-list";
import { SandboxReply } from "./sandbox-reply";
import { LiveHistory } from "./live-history";
import { ymd } from "./rows";
import { DateField } from "@/components/ui/date-field";

function defaultRange() {
  const to = new Date();
  const from = new Date();
  from.setDate(from.getDate() - 7);
  return { from: ymd(from), to: ymd(to) };
}

/** A typed number ("+57 300 …") becomes digits; a customer_id is kept as written. */
function normalizeSource(s: string): string {
  return /^[+\d\s().-]+$/.test(s) ? s.replace(/\D/g, "") : s.trim();
}

/**
 * Conversation viewer. The filters live in the URL (shareable, and the send form links here);
 * the range defaults to the last 7 days.
 */
export function HistoryPage() {
  const { t, locale } = useI18n();
  const router = useRouter();
  const pathname = usePathname();
  const sp = useSearchParams();
  const numbers = useWaNumbers();
  const [range] = useState(defaultRange);
  const waNumber = sp.get("wa_number") ?? "";
  const customer = normalizeSource(sp.get("customer") ?? "");
  const from = sp.get("from") ?? range.from;
  const to = sp.get("to") ?? range.to;
  const [draft, setDraft] = useState({ waNumber, customer, from, to });

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is the source of truth; the draft follows navigation
    setDraft({ waNumber, customer, from, to });
  }, [waNumber, customer, from, to]);

  const effectiveNumber = waNumber || numbers.data?.[0]?.number || "";
  const draftNumber = draft.waNumber || effectiveNumber;

  function apply(next: typeof draft) {
    const q = new URLSearchParams();
    if (next.waNumber || effectiveNumber) q.set("wa_number", next.waNumber || effectiveNumber);
    if (next.customer) q.set("customer", next.customer);
    q.set("from", next.from);
    q.set("to", next.to);
    const upd = sp.get("update_id");
    if (upd && next.customer === customer) q.set("update_id", upd);
    router.replace(`${pathname}?${q.toString()}`);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    apply(draft);
  }

  const ready = effectiveNumber && customer;
  // The native date inputs show dates as the browser's locale writes them, whatever the UI's
  // language (docs/features/inbox.md, "Across the dashboard"); the range is also said here in the UI's language.
  const rangeText =
    draft.from && draft.to ? t("conv.range", { from: formatLongDate(draft.from, locale), to: formatLongDate(draft.to, locale) }) : "";
  // A range that holds today follows the event stream; a past one opens no stream and never changes.
  const live = rangeHoldsDay(from, to, ymd(new Date()));
  // Only a sandbox number has no real customer to answer; there the agent can play one.
  const sandbox = numbers.data?.find((n) => n.number === effectiveNumber)?.provider === "sandbox";

  return (
    <>
      <PageTitle>{t("conv.title")}</PageTitle>
      <Card className="mb-4">
        <form onSubmit={onSubmit} className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[250px_minmax(0,1fr)_160px_160px_auto]">
          <div>
            <label htmlFor="conv-number" className="mb-1 block text-sm font-medium">
              {t("conv.waNumber")}
            </label>
            {numbers.isLoading ? (
              <Skeleton className="h-9" />
            ) : (
              <select
                id="conv-number"
                className={inputClass}
                value={draftNumber}
                onChange={(e) => setDraft({ ...draft, waNumber: e.target.value })}
              >
                <NumberOptions numbers={numbers.data} />
              </select>
            )}
          </div>
          <CustomerSearch value={draft.customer} onChange={(source) => apply({ ...draft, customer: source })} />
          <div>
            <label htmlFor="conv-from" className="mb-1 block text-sm font-medium">
              {t("conv.from")}
            </label>
            <DateField
              id="conv-from"
              value={draft.from}
              aria-describedby={rangeText ? "conv-range" : undefined}
              onChange={(from) => setDraft({ ...draft, from })}
            />
          </div>
          <div>
            <label htmlFor="conv-to" className="mb-1 block text-sm font-medium">
              {t("conv.to")}
            </label>
            <DateField
              id="conv-to"
              value={draft.to}
              aria-describedby={rangeText ? "conv-range" : undefined}
              onChange={(to) => setDraft({ ...draft, to })}
            />
          </div>
          <Button type="submit">{t("conv.show")}</Button>
        </form>
        {rangeText && (
          <p id="conv-range" className="mt-2 text-xs text-slate-600" data-testid="conv-range">
            {rangeText}
          </p>
        )}
        {customer && <CurrentCustomer source={customer} />}
      </Card>
      {numbers.isError ? (
        <ErrorBox error={numbers.error} onRetry={() => numbers.refetch()} />
      ) : ready ? (
        <>
          {live && (
            <LiveHistory
              key={`live|${effectiveNumber}|${customer}|${from}|${to}`}
              waNumber={effectiveNumber}
              customer={customer}
              from={from}
              to={to}
            />
          )}
          {/* Siblings: their keys differ (one key for both made React warn on every load). */}
          <MessageList
            key={`list|${effectiveNumber}|${customer}|${from}|${to}`}
            params={{ wa_number: effectiveNumber, customer_source: customer, from_date: from, to_date: to }}
            highlightUpdateId={sp.get("update_id")}
          />
          {sandbox && /^\d+$/.test(customer) ? <SandboxReply waNumber={effectiveNumber} customerNumber={customer} /> : null}
        </>
      ) : (
        <EmptyState>{t("conv.pick")}</EmptyState>
      )}
    </>
  );
}
