"use client";
import type { ThreadNote } from "@/components/history/rows";
import { useI18n } from "@/lib/i18n";
import { formatDateTime, formatTime } from "@/lib/i18n/dates";

/** A padlock drawn in SVG (an emoji would need a font the machine may not have). */
export function LockIcon() {
  return (
    <svg viewBox="0 0 16 16" className="inline h-3.5 w-3.5 align-[-2px]" aria-hidden="true">
      <rect x="3" y="7" width="10" height="7" rx="1.5" fill="currentColor" />
      <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}

/**
 * A private note in the thread: full width, yellow, labelled "Nota privada" with its author, so
 * it can never be taken for a message the customer saw.
 */
export function NoteBubble({ note }: { note: ThreadNote }) {
  const { t, locale } = useI18n();
  const time = formatTime(note.created_at, locale);
  const author = note.agent_name ?? t("notes.viaApi");
  return (
    <aside
      className="mx-3 my-1.5 rounded-md border border-amber-300 border-l-4 border-l-amber-500 bg-amber-50 px-3 py-2 text-sm text-slate-900 shadow-sm"
      aria-label={t("notes.labelBy", { author })}
      data-testid="note"
      data-note-id={note.id}
    >
      <p className="mb-0.5 flex flex-wrap items-center gap-x-2 text-xs">
        <span className="font-semibold uppercase tracking-wide text-amber-900">
          <LockIcon /> {t("notes.private")}
        </span>
        <span className="font-medium text-slate-800" data-testid="note-author">
          {author}
        </span>
        <time className="ml-auto text-slate-700" dateTime={note.created_at} title={formatDateTime(note.created_at, locale)}>
          {time}
        </time>
      </p>
      <p className="whitespace-pre-wrap break-words">{note.body}</p>
    </aside>
  );
}
