"use client";
import { useEffect, useState } from "react";
import type { Contact, Conversation, Label } from "@/lib/api-client/types";
import { useContactLabel } from "@/lib/api-client/contact-labels";
import { useT } from "@/lib/i18n";
import { MAX_LABELS_PER_CONTACT } from "@/lib/limits";
import { LabelChip } from "@/components/labels/label-chip";
import { cx } from "@/components/ui";

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

/** The contact beside the conversation: number, customer_id, labels (5 at most), the window. */
export function ContactPanel({ conv, allLabels }: { conv: Conversation; allLabels: Label[] }) {
  const t = useT();
  const add = useContactLabel("add");
  const remove = useContactLabel("remove");
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const contact: Contact = { ...conv.contact, name: conv.contact.name ?? "" };
  const atCap = contact.labels.length >= MAX_LABELS_PER_CONTACT;
  const available = allLabels.filter((l) => !contact.labels.some((c) => c.id === l.id));
  const report = {
    onSuccess: (r: { message: string }) => setAnswer({ ok: true, text: r.message }),
    onError: (e: Error) => setAnswer({ ok: false, text: e.message }),
  };

  return (
    <section aria-label={t("inbox.contact")} className="space-y-3 p-3" data-testid="contact-panel">
      <div>
        <h2 className="text-lg font-semibold">{conv.contact.name || conv.contact.customer_number || conv.contact.customer_id}</h2>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
          <dt className="text-slate-600">{t("inbox.number")}</dt>
          <dd data-testid="contact-number">{conv.contact.customer_number ? `+${conv.contact.customer_number}` : "—"}</dd>
          <dt className="text-slate-600">customer_id</dt>
          <dd>{conv.contact.customer_id ?? "—"}</dd>
        </dl>
      </div>
      <WindowCountdown conv={conv} />
      <div>
        <h3 className="mb-1 text-sm font-semibold">{t("contacts.labels")}</h3>
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={t("contacts.labels")} data-testid="contact-labels">
          {contact.labels.length === 0 && <span className="text-xs text-slate-600">{t("contacts.noLabels")}</span>}
          {contact.labels.map((l) => (
            <LabelChip
              key={l.id}
              label={l}
              removeLabel={t("contacts.removeLabel", { title: l.title })}
              onRemove={() => {
                setAnswer(null);
                remove.mutate({ contact, label: l }, report);
              }}
            />
          ))}
          <button
            type="button"
            className={cx(
              "rounded-full border border-dashed px-2.5 py-0.5 text-xs font-medium",
              atCap ? "cursor-not-allowed border-slate-300 text-slate-500" : "border-wa-green text-wa-green-dark hover:bg-emerald-50",
            )}
            aria-expanded={open}
            aria-controls="inbox-label-picker"
            aria-disabled={atCap}
            onClick={() => setOpen((o) => !o)}
          >
            + {t("contacts.addLabel")}
          </button>
        </div>
        {open && (
          <div id="inbox-label-picker" className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-2" data-testid="label-picker">
            {atCap ? (
              <p className="text-sm text-amber-900" data-testid="label-cap">
                {t("contacts.cap", { max: MAX_LABELS_PER_CONTACT })}
              </p>
            ) : available.length === 0 ? (
              <p className="text-sm text-slate-600">{t("contacts.pickerEmpty")}</p>
            ) : (
              <ul className="flex flex-wrap gap-1.5">
                {available.map((l) => (
                  <li key={l.id}>
                    <button
                      type="button"
                      className="rounded-full focus-visible:outline-2"
                      onClick={() => {
                        setAnswer(null);
                        add.mutate({ contact, label: l }, report);
                      }}
                      aria-label={`${t("contacts.addLabel")}: ${l.title}`}
                    >
                      <LabelChip label={l} />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <p
          aria-live="polite"
          className={cx("mt-1 min-h-4 text-xs", answer?.ok ? "text-emerald-800" : "text-red-700")}
          data-testid="label-answer"
        >
          {answer?.text}
        </p>
      </div>
    </section>
  );
}
