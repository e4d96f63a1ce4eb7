"use client";
import { useEffect, useState } from "react";
import type { Conversation, Label } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { contactDisplayName } from "@/lib/contacts/display-name";
import { ContactLabelEditor } from "@/components/contacts/contact-label-editor";
import { cx } from "@/components/ui";
import { MarketingOptOut } from "@/components/contacts/marketing-opt-out";
import { SandboxReply } from "@/components/history/sandbox-reply";
import { ConversationClocks } from "./clocks";

/** Time left in the 24-hour customer-service window, ticking every 30 seconds. */
export function useWindowLeft(expiresAt: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const h = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(h);
  }, []);
  if (!expiresAt) return 0;
  return Math.max(0, new Date(expiresAt).getTime() - now);
}

export function WindowCountdown({ conv }: { conv: Conversation }) {
  const t = useT();
  const left = useWindowLeft(conv.window_expires_at);
  const h = Math.floor(left / 3_600_000);
  const m = Math.floor((left % 3_600_000) / 60_000);
  return (
    <p
      data-testid="window-countdown"
      className={cx("rounded-md px-2 py-1 text-sm", left > 0 ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-900")}
    >
      {left > 0 ? t("inbox.windowLeft", { h, m }) : conv.window_expires_at ? t("inbox.windowClosed") : t("inbox.windowNever")}
    </p>
  );
}

/**
 * The contact beside the conversation: number, customer_id, the window, the conversation's clocks,
 * on a sandbox number the customer's box, labels (5 at most), marketing opt-out.
 */
export function ContactPanel({ conv, allLabels, sandbox }: { conv: Conversation; allLabels: Label[]; sandbox: boolean }) {
  const t = useT();

  return (
    <section aria-label={t("inbox.contact")} className="space-y-3 p-3" data-testid="contact-panel">
      <div>
        <h2 className="text-lg font-semibold">{contactDisplayName(conv.contact)}</h2>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
          <dt className="text-slate-600">{t("inbox.number")}</dt>
          <dd data-testid="contact-number">{conv.contact.customer_number ? `+${conv.contact.customer_number}` : "—"}</dd>
          {/* A name the agent reads; the API's field name stays in the tooltip for whoever wires integrations. */}
          <dt className="text-slate-600" title="customer_id">
            {t("inbox.customerId")}
          </dt>
          <dd>{conv.contact.customer_id ?? "—"}</dd>
        </dl>
      </div>
      <WindowCountdown conv={conv} />
      <ConversationClocks conv={conv} />
      {/* A sandbox number has no real customer: the agent plays one here, as in the history viewer. */}
      {sandbox && conv.contact.customer_number ? (
        <SandboxReply waNumber={conv.wa_number} customerNumber={conv.contact.customer_number} />
      ) : null}
      <div>
        <h3 className="mb-1 text-sm font-semibold">{t("contacts.labels")}</h3>
        <ContactLabelEditor contact={conv.contact} allLabels={allLabels} pickerId="inbox-label-picker" />
      </div>
      <div>
        <h3 className="mb-1 text-sm font-semibold">{t("optOut.title")}</h3>
        <MarketingOptOut contact={conv.contact} />
      </div>
    </section>
  );
}
