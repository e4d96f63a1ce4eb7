"use client";
import { useState } from "react";
import type { Contact, Label } from "@/lib/api-client/types";
import { useContactLabel } from "@/lib/api-client/contact-labels";
import { useT } from "@/lib/i18n";
import { MAX_LABELS_PER_CONTACT } from "@/lib/limits";
import { LabelChip } from "@/components/labels/label-chip";
import { cx } from "@/components/ui";

/**
 * A contact's label chips, shared by the contacts page and the inbox's contact panel: remove with
 * one click, add from the picker below (the 5-label cap shown there), the server's answer beneath.
 */
export function ContactLabelEditor({ contact, allLabels, pickerId }: { contact: Contact; allLabels: Label[]; pickerId: string }) {
  const t = useT();
  const add = useContactLabel("add");
  const remove = useContactLabel("remove");
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const atCap = contact.labels.length >= MAX_LABELS_PER_CONTACT;
  const available = allLabels.filter((l) => !contact.labels.some((c) => c.id === l.id));
  const report = {
    onSuccess: (r: { message: string }) => setAnswer({ ok: true, text: r.message }),
    onError: (e: Error) => setAnswer({ ok: false, text: e.message }),
  };

  return (
    <>
      <div className="flex flex-wrap items-center gap-1.5" aria-label={t("contacts.labels")} role="group" data-testid="contact-labels">
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
          aria-controls={pickerId}
          aria-disabled={atCap}
          onClick={() => setOpen((o) => !o)}
        >
          + {t("contacts.addLabel")}
        </button>
      </div>
      {open && (
        <div id={pickerId} className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-2" data-testid="label-picker">
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
    </>
  );
}
