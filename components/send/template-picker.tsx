"use client";
import { useId, useMemo, useState } from "react";
import type { Template } from "@/lib/api-client/types";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { templateDisplayName, templateLanguageName } from "@/lib/templates/display-name";
import { TemplateName } from "@/components/templates/template-name";
import { cx, EmptyState, inputClass, SkeletonRows } from "@/components/ui";

type Props = {
  templates: Template[] | undefined;
  loading: boolean;
  value: string;
  onChange: (name: string) => void;
  error?: string;
  disabled?: boolean;
};

/** How many templates the list shows before it scrolls. */
const VISIBLE_ROWS = 6;

/** Searchable template list as native radios: arrow keys move, the label names the template. */
export function TemplatePicker({ templates, loading, value, onChange, error, disabled }: Props) {
  const { t, locale } = useI18n();
  const id = useId();
  // Meta may add categories: an unknown one is shown as it comes.
  const categoryName = (c: string) => {
    const key = `tpl.category.${c}` as MessageKey;
    const text = t(key);
    return text === key ? c : text;
  };
  const [query, setQuery] = useState("");
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = templates ?? [];
    if (!q) return list;
    return list.filter(
      (tp) =>
        tp.name.toLowerCase().includes(q) ||
        templateDisplayName(tp.name).toLowerCase().includes(q) ||
        bodyText(tp).toLowerCase().includes(q),
    );
  }, [templates, query]);

  return (
    <fieldset className="min-w-0 space-y-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">{t("send.template")}</legend>
      <label htmlFor={`${id}-search`} className="sr-only">
        {t("send.templateSearch")}
      </label>
      <input
        id={`${id}-search`}
        type="search"
        placeholder={t("send.templateSearch")}
        className={inputClass}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        disabled={disabled}
        data-testid="template-search"
      />
      {disabled ? (
        <EmptyState>{t("send.chooseNumberFirst")}</EmptyState>
      ) : loading ? (
        <SkeletonRows rows={3} />
      ) : shown.length === 0 ? (
        <EmptyState>{t("send.templateNone")}</EmptyState>
      ) : (
        <>
          <p className="flex justify-between gap-2 text-xs text-slate-600" id={`${id}-count`}>
            <span>{shown.length === 1 ? t("send.templateCountOne") : t("send.templateCount", { count: shown.length })}</span>
            {shown.length > VISIBLE_ROWS && <span>{t("send.templateScroll")}</span>}
          </p>
          <div
            className={cx(
              "rounded-md border border-slate-200",
              // Up to VISIBLE_ROWS templates show whole; a longer list scrolls inside a frame whose cut-off last row shows there is more.
              shown.length > VISIBLE_ROWS && "max-h-[25rem] overflow-y-auto shadow-[inset_0_-12px_12px_-12px_rgba(15,23,42,0.35)]",
            )}
            data-testid="template-list"
          >
            {shown.map((tp) => {
              const header = tp.components.find((c) => c.type === "HEADER");
              return (
                <label
                  key={`${tp.name}-${tp.language}`}
                  className={cx(
                    "flex cursor-pointer items-start gap-3 border-b border-slate-100 px-3 py-2 last:border-b-0 hover:bg-slate-50",
                    value === tp.name && "bg-emerald-50",
                  )}
                >
                  <input
                    type="radio"
                    name={`${id}-template`}
                    value={tp.name}
                    checked={value === tp.name}
                    onChange={() => onChange(tp.name)}
                    className="mt-1 accent-wa-green"
                  />
                  <span className="min-w-0">
                    {/* Words first; the WhatsApp name under them, since it is what Meta's manager and the API call it. */}
                    <TemplateName name={tp.name} slug="below" className="block text-sm" />
                    <span className="block text-xs text-slate-600">
                      {templateLanguageName(tp.language, locale)} · {categoryName(tp.category)}
                      {header ? ` · ${t(`tpl.header.${header.format}`)}` : ""}
                    </span>
                    <span className="block truncate text-xs text-slate-600">{bodyText(tp)}</span>
                  </span>
                </label>
              );
            })}
          </div>
        </>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700" data-field-error="template_name">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function bodyText(tp: Template): string {
  const body = tp.components.find((c) => c.type === "BODY");
  return body && "text" in body ? body.text : "";
}
