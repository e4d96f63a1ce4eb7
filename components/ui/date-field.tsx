"use client";
import { useEffect, useId, useLayoutEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { DayPicker, type Matcher } from "react-day-picker";
import { enUS, es } from "react-day-picker/locale";
import { useI18n } from "@/lib/i18n";
import { formatDateInput, parseDateInput } from "@/lib/i18n/date-input";
import { cx, inputClass } from "./index";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type" | "defaultValue" | "min" | "max"> & {
  id: string;
  /** ISO "YYYY-MM-DD", or "" for no date. */
  value: string;
  /** Called with ISO, or "" when the field is emptied; never with text that is not a date. */
  onChange: (iso: string) => void;
  /** ISO bounds of the calendar's days (the text typed is not bounded: the API says what it takes). */
  min?: string;
  max?: string;
};

/** A local-midnight Date of an ISO day, as the calendar counts days; undefined for no date. */
function dayOf(iso: string | undefined): Date | undefined {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}

function isoOfDay(d: Date): string {
  return `${String(d.getFullYear()).padStart(4, "0")}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** Room kept between the calendar and the window's edges. */
const EDGE = 8;

/**
 * The app's date field: the date written the UI's way ("03/11/2026" in Spanish, "11/03/2026" in
 * English), whatever the browser's language (a native date input follows the browser's). Text that
 * is not a date stays in the field, marked invalid with a hint, and leaves the value as it was.
 * The button beside it opens a calendar in the UI's language to pick the day from.
 */
export function DateField({ id, value, onChange, className, onBlur, min, max, ...rest }: Props) {
  const { t, locale } = useI18n();
  // What the agent is typing; null shows the value itself, written the UI's way.
  const [draft, setDraft] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  // How far the calendar moves sideways to stay inside the window (a phone's narrow columns).
  const [shift, setShift] = useState(0);
  const wrapRef = useRef<HTMLDivElement>(null);
  const popRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popId = useId();
  const parsed = draft === null ? value : parseDateInput(draft, locale);
  const invalid = parsed === null;
  const hintId = `${id}-date-invalid`;
  const describedBy = [rest["aria-describedby"], invalid ? hintId : undefined].filter(Boolean).join(" ") || undefined;

  // A click anywhere outside the field and its calendar closes the calendar.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [open]);

  useLayoutEffect(() => {
    if (!open || !popRef.current) {
      setShift(0);
      return;
    }
    const r = popRef.current.getBoundingClientRect();
    const right = window.innerWidth - EDGE - r.right;
    setShift(right < 0 ? Math.max(right, EDGE - r.left) : 0);
  }, [open]);

  const selected = dayOf(value);
  const first = dayOf(min);
  const last = dayOf(max);
  const disabled: Matcher[] = [...(first ? [{ before: first }] : []), ...(last ? [{ after: last }] : [])];
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <>
      <div ref={wrapRef} className="relative flex items-start gap-1">
        <input
          {...rest}
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={t("date.placeholder")}
          className={cx(className ?? inputClass, "min-w-0")}
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
        <button
          ref={buttonRef}
          type="button"
          aria-label={t("date.open")}
          title={t("date.open")}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? popId : undefined}
          disabled={rest.disabled}
          data-testid={`${id}-calendar-button`}
          className="inline-flex h-[38px] w-[38px] shrink-0 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-400"
          onClick={() => setOpen((o) => !o)}
        >
          <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6">
            <rect x="3" y="4.5" width="14" height="12.5" rx="1.5" />
            <path d="M3 8.5h14M7 2.5v4M13 2.5v4" strokeLinecap="round" />
          </svg>
        </button>
        {open && (
          <div
            ref={popRef}
            id={popId}
            role="dialog"
            aria-label={t("date.calendar")}
            style={shift ? { left: shift } : undefined}
            className="absolute left-0 top-full z-30 mt-1 rounded-lg border border-slate-200 bg-white p-2 shadow-lg"
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.stopPropagation();
                close();
              }
            }}
          >
            {/* react-day-picker v9: date-fns locales (month and weekday names), keyboard navigation and the ARIA grid are its own. */}
            <DayPicker
              mode="single"
              autoFocus
              locale={locale === "es" ? es : enUS}
              weekStartsOn={locale === "es" ? 1 : 0}
              selected={selected}
              defaultMonth={selected ?? first}
              startMonth={first}
              endMonth={last}
              disabled={disabled}
              onSelect={(day) => {
                if (day) {
                  const iso = isoOfDay(day);
                  setDraft(null);
                  if (iso !== value) onChange(iso);
                }
                close();
              }}
              classNames={{
                root: "text-sm text-slate-800",
                months: "relative",
                month_caption: "flex h-9 items-center px-2 font-semibold capitalize",
                nav: "absolute right-0 top-0 flex h-9 items-center gap-1",
                button_previous: "inline-flex h-8 w-8 items-center justify-center rounded-md hover:bg-slate-100 disabled:opacity-40",
                button_next: "inline-flex h-8 w-8 items-center justify-center rounded-md hover:bg-slate-100 disabled:opacity-40",
                chevron: "h-4 w-4 fill-current",
                month_grid: "mt-1 border-collapse",
                weekdays: "",
                weekday: "h-8 w-9 text-xs font-medium text-slate-500",
                week: "",
                day: "p-0 text-center",
                day_button: "h-9 w-9 rounded-md hover:bg-slate-100 disabled:cursor-not-allowed disabled:hover:bg-transparent",
                selected: "[&>button]:bg-wa-green [&>button]:font-semibold [&>button]:text-white [&>button]:hover:bg-wa-green-dark",
                today: "[&>button]:font-bold [&>button]:underline",
                outside: "text-slate-400",
                disabled: "text-slate-300",
              }}
            />
          </div>
        )}
      </div>
      {invalid && (
        <span id={hintId} role="alert" className="mt-1 block text-xs text-red-700">
          {t("date.invalid")}
        </span>
      )}
    </>
  );
}
