"use client";
import { useState, type KeyboardEvent, type RefObject } from "react";
import { fillSavedReply, useSavedReplies, type SavedReply } from "@/lib/api-client/saved-replies";
import { useT } from "@/lib/i18n";
import { cx } from "@/components/ui";
import { rankSavedReplies, slashQuery } from "./saved-reply-match";

const LISTBOX_ID = "saved-reply-list";

/**
 * Typing `/` at the start of a word in the composer opens the team's saved replies, filtered by
 * what follows; arrows move, Enter or Tab puts the chosen one in place of `/word` with its
 * variables filled, Esc closes (until the word changes). The textarea keeps the focus throughout
 * and points at the active option (aria-activedescendant), so it all works from the keyboard.
 */
export function useSavedReplyPicker({
  text,
  textRef,
  values,
  onInsert,
}: {
  text: string;
  textRef: RefObject<HTMLTextAreaElement | null>;
  values: { name?: string | null; number?: string | null; agent?: string | null };
  onInsert: (next: string, caret: number) => void;
}) {
  const t = useT();
  const replies = useSavedReplies();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const found = slashQuery(text, Math.min(caret, text.length));
  const token = found ? `${found.start}:${found.query}` : null;
  const options = found ? rankSavedReplies(replies.data ?? [], found.query) : [];
  const open = !!found && token !== dismissedAt;
  const current = Math.min(active, Math.max(0, options.length - 1));

  function choose(r: SavedReply) {
    if (!found) return;
    const filled = fillSavedReply(r.content, values);
    const end = found.start + 1 + found.query.length;
    const next = text.slice(0, found.start) + filled + text.slice(end);
    const at = found.start + filled.length;
    onInsert(next, at);
    setCaret(at);
    requestAnimationFrame(() => {
      textRef.current?.focus();
      textRef.current?.setSelectionRange(at, at);
    });
  }

  /** Handles the picker's keys; true when the key was the picker's (the composer must not act on it). */
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (!open) return false;
    if (e.key === "Escape") {
      setDismissedAt(token);
      e.preventDefault();
      e.stopPropagation();
      return true;
    }
    if (!options.length) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const n = options.length;
      setActive((current + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
      e.preventDefault();
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
      choose(options[current]);
      e.preventDefault();
      return true;
    }
    return false;
  }

  const track = (el: HTMLTextAreaElement) => {
    const at = el.selectionStart ?? el.value.length;
    if (at === caret) return;
    setCaret(at);
    setActive(0);
  };

  const textareaProps = open
    ? {
        "aria-controls": LISTBOX_ID,
        "aria-activedescendant": options.length ? `${LISTBOX_ID}-${options[current].id}` : undefined,
      }
    : {};

  const listbox = open ? (
    <>
      <span className="sr-only" aria-live="polite">
        {t("saved.pickerCount", { n: options.length })}
      </span>
      <div
        className="absolute bottom-full left-0 right-0 z-20 mb-1 max-h-72 overflow-y-auto rounded-md border border-slate-300 bg-white shadow-lg"
        data-testid="saved-reply-picker"
      >
        <p className="border-b border-slate-100 px-3 py-1 text-xs text-slate-700" id={`${LISTBOX_ID}-help`}>
          {options.length ? t("saved.pickerHelp") : replies.isLoading ? t("common.loading") : t("saved.pickerNone")}
        </p>
        <ul id={LISTBOX_ID} role="listbox" aria-label={t("saved.title")}>
          {options.map((r, i) => (
            <li
              key={r.id}
              id={`${LISTBOX_ID}-${r.id}`}
              role="option"
              aria-selected={i === current}
              className={cx("cursor-pointer px-3 py-1.5 text-sm", i === current ? "bg-emerald-50 ring-1 ring-emerald-600 ring-inset" : "")}
              onMouseDown={(e) => {
                // Keep the focus in the textarea; the click chooses.
                e.preventDefault();
                choose(r);
              }}
              onMouseEnter={() => setActive(i)}
            >
              <span className="break-all font-mono text-emerald-900">/{r.shortcut}</span> <span className="font-medium">{r.title}</span>
              <span className="block truncate text-xs text-slate-600">{fillSavedReply(r.content, values)}</span>
            </li>
          ))}
        </ul>
      </div>
    </>
  ) : null;

  return { open, onKeyDown, track, textareaProps, listbox, count: options.length };
}
