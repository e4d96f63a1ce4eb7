"use client";
import { useEffect, useId, useState } from "react";
import type { Contact } from "@/lib/api-client/types";
import { useContactSuggestions } from "@/lib/api-client/contacts";
import { useT } from "@/lib/i18n";
import { cx, inputClass } from "@/components/ui";
import { LabelChip } from "@/components/labels/label-chip";

type Props = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** A contact was chosen from the list (its number is then the value). */
  onPick: (contact: Contact) => void;
  invalid: boolean;
  describedBy: string | undefined;
};

/** Waits for typing to pause before searching, so each keystroke does not cost a request. */
function useDebounced(value: string, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/**
 * The destination as a combobox (WAI-ARIA 1.2 pattern): typing searches the team's contacts by
 * name or number through GET /api/v1/contacts and lists them with their labels; arrows move,
 * Enter picks, Escape closes. A contact who opted out of marketing is marked ("Sin marketing").
 * Whatever is typed stays the value, so a number not yet a contact is sent to (completed from
 * the team's default country when typed without its code: send-form.tsx).
 */
export function DestinationPicker({ id, value, onChange, onPick, invalid, describedBy }: Props) {
  const t = useT();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useDebounced(value.trim(), 200);
  const suggestions = useContactSuggestions(open ? search : "");
  const options = (open && search ? suggestions.data?.data : undefined) ?? [];
  const expanded = open && !!search && (options.length > 0 || !suggestions.isFetching);

  function pick(c: Contact) {
    onChange(c.customer_number ? `+${c.customer_number}` : "");
    onPick(c);
    setOpen(false);
    setActive(-1);
  }

  return (
    <div className="relative">
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 && options[active] ? `${listId}-${active}` : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        className={inputClass}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => value.trim() && setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && options.length) {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (a + 1) % options.length);
          } else if (e.key === "ArrowUp" && options.length) {
            e.preventDefault();
            setActive((a) => (a <= 0 ? options.length - 1 : a - 1));
          } else if (e.key === "Enter" && expanded && active >= 0 && options[active]) {
            e.preventDefault();
            pick(options[active]);
          } else if (e.key === "Escape" && open) {
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      {expanded && (
        <ul
          id={listId}
          role="listbox"
          aria-label={t("send.contacts")}
          className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-md border border-slate-200 bg-white shadow-lg"
        >
          {options.length === 0 ? (
            <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-sm text-slate-600">
              {t("send.contactsNone")}
            </li>
          ) : (
            options.map((c, i) => (
              <li
                key={c.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                data-testid="contact-option"
                // Keeps the focus in the input: the click still picks.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(c)}
                className={cx(
                  "cursor-pointer border-b border-slate-100 px-3 py-2 last:border-b-0 hover:bg-slate-50",
                  i === active && "bg-emerald-50",
                )}
              >
                <span className="flex items-center gap-2 text-sm font-medium text-slate-900">
                  {c.name || `+${c.customer_number}`}
                  {c.marketing_opt_out && (
                    <span
                      data-testid="contact-opted-out"
                      className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900"
                      title={t("optOut.note")}
                    >
                      {t("optOut.badge")}
                    </span>
                  )}
                </span>
                <span className="block text-xs text-slate-600">{c.customer_number ? `+${c.customer_number}` : c.customer_id}</span>
                {c.labels.length > 0 && (
                  <span className="mt-1 flex flex-wrap gap-1">
                    {c.labels.map((l) => (
                      <LabelChip key={l.id} label={l} />
                    ))}
                  </span>
                )}
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
