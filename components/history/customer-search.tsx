"use client";
import { useDeferredValue, useId, useState } from "react";
import { useContacts } from "@/lib/api-client/contacts";
import { useT } from "@/lib/i18n";
import { cx, inputClass } from "@/components/ui";

/** Finds a customer by name or number; choosing one yields its customer_source. */
export function CustomerSearch({ value, onChange }: { value: string; onChange: (source: string, name: string) => void }) {
  const t = useT();
  const id = useId();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const deferred = useDeferredValue(query.trim());
  const results = useContacts(deferred, 1, 8);
  const list = open && deferred ? (results.data?.data ?? []) : [];

  return (
    <div className="relative">
      <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium">
        {t("conv.customer")}
      </label>
      <input
        id={`${id}-q`}
        type="search"
        role="combobox"
        aria-expanded={list.length > 0}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        placeholder={value ? value : t("conv.customerSearch")}
        className={inputClass}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
          if (e.key === "ArrowDown") (document.querySelector(`#${CSS.escape(`${id}-list`)} button`) as HTMLButtonElement | null)?.focus();
        }}
        data-testid="customer-search"
      />
      {list.length > 0 && (
        <ul
          id={`${id}-list`}
          role="listbox"
          className="absolute z-20 mt-1 max-h-72 w-full overflow-y-auto rounded-md border border-slate-200 bg-white shadow-lg"
        >
          {list.map((c, i) => {
            const source = c.customer_number ?? c.customer_id ?? "";
            return (
              <li key={c.id} role="option" aria-selected={source === value}>
                <button
                  type="button"
                  className={cx(
                    "block w-full px-3 py-2 text-left text-sm hover:bg-slate-100 focus:bg-slate-100",
                    source === value && "bg-emerald-50",
                  )}
                  onKeyDown={(e) => {
                    const sib = (n: number) =>
                      (e.currentTarget.closest("ul")?.querySelectorAll("button")[n] as HTMLButtonElement | undefined)?.focus();
                    if (e.key === "ArrowDown") sib(i + 1);
                    if (e.key === "ArrowUp") sib(i - 1);
                  }}
                  onClick={() => {
                    onChange(source, c.name ?? "");
                    setQuery(c.name || source);
                    setOpen(false);
                  }}
                >
                  <span className="font-medium">{c.name || source}</span>
                  <span className="ml-2 text-xs text-slate-600">{c.customer_number ? `+${c.customer_number}` : c.customer_id}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
