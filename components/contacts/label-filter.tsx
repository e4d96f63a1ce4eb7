"use client";
import { useState } from "react";
import type { Label } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { LabelChip } from "@/components/labels/label-chip";
import { cx } from "@/components/ui";

/**
 * The contacts list's label filter: a disclosure (so a team with many labels does not push the
 * list down) of checkboxes, the checked labels repeated beside its title when it is closed.
 */
export function LabelFilter({ labels, selected, onChange }: { labels: Label[]; selected: number[]; onChange: (ids: number[]) => void }) {
  const t = useT();
  const chosen = labels.filter((l) => selected.includes(l.id));
  // Open at first when the page came with a filter; afterwards only the agent opens and closes it
  // (closing it under a checkbox that was just cleared would drop the focus).
  const [openAtFirst] = useState(selected.length > 0);
  return (
    <details className="group rounded-md border border-slate-200 bg-white" data-testid="label-filter" open={openAtFirst || undefined}>
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-1.5 px-3 py-2 text-sm font-medium [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true" className="inline-block text-slate-500 transition-transform group-open:rotate-90">
          ▸
        </span>
        {t("contacts.filterLabels")}
        {chosen.length > 0 && <span className="sr-only">:</span>}
        {chosen.map((l) => (
          <LabelChip key={l.id} label={l} />
        ))}
      </summary>
      <fieldset className="border-t border-slate-200 px-3 py-2">
        <legend className="sr-only">{t("contacts.filterLabels")}</legend>
        <p className="mb-2 text-xs text-slate-600">{t("contacts.filterHint")}</p>
        <div className="flex flex-wrap gap-1.5">
          {labels.map((l) => {
            const on = selected.includes(l.id);
            return (
              <label
                key={l.id}
                className={cx(
                  "inline-flex cursor-pointer items-center gap-1.5 rounded-full border py-0.5 pl-1.5 pr-0.5 has-[:focus-visible]:outline-2",
                  on ? "border-wa-green-dark bg-emerald-50" : "border-slate-200",
                )}
              >
                <input
                  type="checkbox"
                  className="h-3.5 w-3.5 accent-wa-green-dark"
                  checked={on}
                  onChange={() => onChange(on ? selected.filter((id) => id !== l.id) : [...selected, l.id])}
                />
                <LabelChip label={l} />
              </label>
            );
          })}
        </div>
        {selected.length > 0 && (
          <button type="button" className="mt-2 text-xs font-medium text-wa-green-dark underline" onClick={() => onChange([])}>
            {t("contacts.clearFilter")}
          </button>
        )}
      </fieldset>
    </details>
  );
}
