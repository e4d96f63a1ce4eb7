"use client";
import { useEffect, useLayoutEffect, useRef } from "react";
import { useT, type MessageKey } from "@/lib/i18n";
import { Button } from "@/components/ui";

export type ShortcutActions = {
  next: () => void;
  previous: () => void;
  reply: () => void;
  note: () => void;
  assignToMe: () => void;
  resolve: () => void;
  label: () => void;
  help: () => void;
};

/** The inbox's keys, in the order the help dialog lists them. */
export const SHORTCUTS: { key: string; action: keyof ShortcutActions; text: MessageKey }[] = [
  { key: "j", action: "next", text: "keys.next" },
  { key: "k", action: "previous", text: "keys.previous" },
  { key: "r", action: "reply", text: "keys.reply" },
  { key: "n", action: "note", text: "keys.note" },
  { key: "a", action: "assignToMe", text: "keys.assign" },
  { key: "e", action: "resolve", text: "keys.resolve" },
  { key: "l", action: "label", text: "keys.label" },
  { key: "?", action: "help", text: "keys.help" },
];

/** Whether a key press belongs to what the agent is typing in (never a shortcut then). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest("dialog[open]")) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  // Checkboxes, radios and buttons take no text: shortcuts still work from them.
  return !["checkbox", "radio", "button", "submit", "reset"].includes((target as HTMLInputElement).type);
}

/**
 * One keydown listener for the inbox (Gmail/Chatwoot-style single keys). Keys with Ctrl, Alt or
 * Meta are the browser's, and nothing fires while focus is in a text field or a dialog.
 */
export function useInboxShortcuts(actions: ShortcutActions) {
  const ref = useRef(actions);
  // A layout effect, not a passive one: a key pressed right after the selection is painted must
  // act on that selection, and a passive effect can run after the next keydown (a fast "j k" then
  // lost its "k").
  useLayoutEffect(() => {
    ref.current = actions;
  }, [actions]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
      // Esc leaves the reply or note box (unless something in it, like the saved replies, took
      // it), so the next key is a shortcut again.
      if (e.key === "Escape" && e.target instanceof HTMLElement && ["composer-text", "note-text"].includes(e.target.id)) {
        e.target.blur();
        return;
      }
      if (isTypingTarget(e.target)) return;
      const found = SHORTCUTS.find((s) => s.key === e.key);
      if (!found) return;
      e.preventDefault();
      ref.current[found.action]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** `?`: the list of shortcuts, as a modal dialog (Esc or the button closes it; focus returns). */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="shortcuts-title"
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      data-testid="shortcuts-dialog"
    >
      <div className="p-4">
        <h2 id="shortcuts-title" className="mb-3 text-lg font-semibold">
          {t("keys.title")}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map((s) => (
            <div key={s.key} className="contents">
              <dt>
                <kbd className="inline-block min-w-7 rounded border border-slate-300 bg-slate-50 px-2 py-0.5 text-center font-mono shadow-sm">
                  {s.key}
                </kbd>
              </dt>
              <dd>{t(s.text)}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-slate-700">{t("keys.notWhileTyping")}</p>
        <div className="mt-4 flex justify-end">
          <Button type="button" onClick={onClose} autoFocus>
            {t("keys.close")}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
