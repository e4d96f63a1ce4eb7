"use client";
import { useT } from "@/lib/i18n";
import { cx, inputClass } from "@/components/ui";
import { LIMITS, type ListDraft } from "./composer-limits";

export function Counter({ value, max, id }: { value: string; max: number; id: string }) {
  return (
    <span id={id} className={cx("shrink-0 text-xs", value.length > max ? "font-semibold text-red-700" : "text-slate-600")}>
      {value.length}/{max}
    </span>
  );
}

/** A text input that takes what is typed or pasted whole and says when it is over its limit. */
function LimitedInput({
  id,
  value,
  max,
  label,
  problem,
  onChange,
}: {
  id: string;
  value: string;
  max: number;
  label: string;
  problem?: string;
  onChange: (v: string) => void;
}) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        className={cx(inputClass, "py-1", problem && "border-red-600")}
        value={value}
        placeholder={label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-count`}
        onChange={(e) => onChange(e.target.value)}
      />
      <Counter value={value} max={max} id={`${id}-count`} />
    </>
  );
}

export function QuickReplyBuilder({
  options,
  problems,
  onChange,
}: {
  options: string[];
  problems: Record<string, string>;
  onChange: (options: string[]) => void;
}) {
  const t = useT();
  return (
    <fieldset className="space-y-1" data-testid="qr-builder">
      <legend className="text-xs text-slate-700">{t("inbox.qrOptions", { max: LIMITS.qrOptions, len: LIMITS.qrTitle })}</legend>
      {options.map((o, i) => (
        <div key={i} className="flex items-center gap-2">
          <LimitedInput
            id={`qr-${i}`}
            value={o}
            max={LIMITS.qrTitle}
            label={t("inbox.qrOption", { n: i + 1 })}
            problem={problems[`qr-${i}`]}
            onChange={(v) => onChange(options.map((x, j) => (j === i ? v : x)))}
          />
          {options.length > 1 && (
            <button
              type="button"
              className="text-xs text-red-700"
              aria-label={t("inbox.removeOption", { n: i + 1 })}
              onClick={() => onChange(options.filter((_, j) => j !== i))}
            >
              ✕
            </button>
          )}
        </div>
      ))}
      {options.length < LIMITS.qrOptions && (
        <button type="button" className="text-xs text-emerald-800 underline" onClick={() => onChange([...options, ""])}>
          + {t("inbox.addOption")}
        </button>
      )}
    </fieldset>
  );
}

export function ListBuilder({
  list,
  problems,
  onChange,
}: {
  list: ListDraft;
  problems: Record<string, string>;
  onChange: (list: ListDraft) => void;
}) {
  const t = useT();
  const setRow = (i: number, p: Partial<ListDraft["rows"][number]>) =>
    onChange({ ...list, rows: list.rows.map((x, j) => (j === i ? { ...x, ...p } : x)) });
  return (
    <fieldset className="space-y-1" data-testid="list-builder">
      <legend className="text-xs text-slate-700">{t("inbox.listRows", { max: LIMITS.listRows, len: LIMITS.listRowTitle })}</legend>
      <div className="flex items-center gap-2">
        <LimitedInput
          id="list-button"
          value={list.button}
          max={LIMITS.listButton}
          label={t("inbox.listButton")}
          problem={problems["list-button"]}
          onChange={(v) => onChange({ ...list, button: v })}
        />
      </div>
      {list.rows.map((r, i) => (
        <div key={i} className="flex items-center gap-2">
          <LimitedInput
            id={`row-${i}`}
            value={r.title}
            max={LIMITS.listRowTitle}
            label={t("inbox.listRow", { n: i + 1 })}
            problem={problems[`row-${i}`]}
            onChange={(v) => setRow(i, { title: v })}
          />
          <LimitedInput
            id={`row-${i}-desc`}
            value={r.description}
            max={LIMITS.listRowDesc}
            label={t("inbox.listRowDesc", { n: i + 1 })}
            problem={problems[`row-${i}-desc`]}
            onChange={(v) => setRow(i, { description: v })}
          />
          {list.rows.length > 1 && (
            <button
              type="button"
              className="text-xs text-red-700"
              aria-label={t("inbox.removeRow", { n: i + 1 })}
              onClick={() => onChange({ ...list, rows: list.rows.filter((_, j) => j !== i) })}
            >
              ✕
            </button>
          )}
        </div>
      ))}
      {list.rows.length < LIMITS.listRows && (
        <button
          type="button"
          className="text-xs text-emerald-800 underline"
          onClick={() => onChange({ ...list, rows: [...list.rows, { title: "", description: "" }] })}
        >
          + {t("inbox.addRow")}
        </button>
      )}
    </fieldset>
  );
}
