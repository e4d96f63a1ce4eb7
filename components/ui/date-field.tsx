"use client";
import { useState, type InputHTMLAttributes } from "react";
import { useI18n } from "@/lib/i18n";
import { formatDateInput, parseDateInput } from "@/lib/i18n/date-input";
import { inputClass } from "./index";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type" | "defaultValue"> & {
  id: string;
  /** ISO "YYYY-MM-DD", or "" for no date. */
  value: string;
  /** Called with ISO, or "" when the field is emptied; never with text that is not a date. */
  onChange: (iso: string) => void;
};

/**
 * The app's date field: the date written the UI's way ("03/11/2026" in Spanish, "11/03/2026" in
 * English), whatever the browser's language (a native date input follows the browser's). Text that
 * is not a date stays in the field, marked invalid with a hint, and leaves the value as it was.
 */
export function DateField({ id, value, onChange, className, onBlur, ...rest }: Props) {
  const { t, locale } = useI18n();
  // What the agent is typing; null shows the value itself, written the UI's way.
  const [draft, setDraft] = useState<string | null>(null);
  const parsed = draft === null ? value : parseDateInput(draft, locale);
  const invalid = parsed === null;
  const hintId = `${id}-date-invalid`;
  const describedBy = [rest["aria-describedby"], invalid ? hintId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <>
      <input
        {...rest}
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t("date.placeholder")}
        className={className ?? inputClass}
        value={draft ?? formatDateInput(value, locale)}
        aria-invalid={invalid || rest["aria-invalid"] === true || rest["aria-invalid"] === "true"}
        aria-describedby={describedBy}
        onChange={(e) => {
          setDraft(e.target.value);
          const iso = parseDateInput(e.target.value, locale);
          if (iso !== null && iso !== value) onChange(iso);
        }}
        onBlur={(e) => {
          if (!invalid) setDraft(null);
          onBlur?.(e);
        }}
      />
      {invalid && (
        <span id={hintId} role="alert" className="mt-1 block text-xs text-red-700">
          {t("date.invalid")}
        </span>
      )}
    </>
  );
}
