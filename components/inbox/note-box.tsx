"use client";
import { useState, type FormEvent } from "react";
import { useCreateNote } from "@/lib/api-client/notes";
import { NOTE_BODY_MAX } from "@/lib/notes/schemas";
import { useT } from "@/lib/i18n";
import { Button, cx, inputClass } from "@/components/ui";
import { Counter } from "./composer-builders";
import { LockIcon } from "./note-bubble";

const draftKey = (conversationId: number) => `wa_note_draft:${conversationId}`;

function readNoteDraft(conversationId: number): string {
  try {
    return window.localStorage.getItem(draftKey(conversationId)) ?? "";
  } catch {
    return "";
  }
}

function writeNoteDraft(conversationId: number, text: string) {
  try {
    if (text) window.localStorage.setItem(draftKey(conversationId), text);
    else window.localStorage.removeItem(draftKey(conversationId));
  } catch {
    // Storage unavailable: the note box still works without a draft.
  }
}

/**
 * A private note for the team: yellow like the notes in the thread, never sent to the customer.
 * Clears at once on save and puts the text back if the save fails; kept as a draft per
 * conversation like the reply.
 */
export function NoteBox({ conversationId }: { conversationId: number }) {
  const t = useT();
  const create = useCreateNote(conversationId);
  const [text, setTextState] = useState(() => (typeof window === "undefined" ? "" : readNoteDraft(conversationId)));
  const [error, setError] = useState<string | null>(null);
  const setText = (v: string) => {
    setTextState(v);
    writeNoteDraft(conversationId, v);
  };
  const over = text.length > NOTE_BODY_MAX;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!text.trim() || over) return;
    const previous = text;
    setText("");
    create.mutate(previous, {
      onError: (err) => {
        setText(previous);
        setError(err instanceof Error ? err.message : String(err));
      },
    });
  }

  return (
    <form
      onSubmit={onSubmit}
      className="space-y-1 border-t border-amber-300 bg-amber-50 p-2"
      aria-label={t("notes.private")}
      data-testid="note-box"
    >
      <label htmlFor="note-text" className="text-xs font-medium text-amber-950">
        <LockIcon /> {t("notes.boxLabel")}
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id="note-text"
          rows={2}
          className={cx(inputClass, "min-h-10 flex-1 resize-y border-amber-400 bg-amber-50", over && "border-red-600")}
          placeholder={t("notes.placeholder")}
          value={text}
          aria-invalid={over || undefined}
          aria-describedby="note-count"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <Button type="submit" className="bg-amber-700 hover:bg-amber-800" data-testid="note-save">
          {t("notes.save")}
        </Button>
      </div>
      <div className="flex justify-between gap-2">
        <p role="alert" className="text-xs text-red-700">
          {over ? t("composer.overLimit", { what: t("notes.private"), n: text.length, max: NOTE_BODY_MAX }) : error}
        </p>
        <Counter value={text} max={NOTE_BODY_MAX} id="note-count" />
      </div>
    </form>
  );
}
