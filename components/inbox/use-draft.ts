"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { EMPTY_STATE, type ComposerState } from "./composer-limits";

const PREFIX = "wa_draft:";

function keyOf(conversationId: number) {
  return `${PREFIX}${conversationId}`;
}

export function readDraft(conversationId: number): ComposerState {
  try {
    const raw = window.localStorage.getItem(keyOf(conversationId));
    if (!raw) return EMPTY_STATE;
    const parsed = JSON.parse(raw) as Partial<ComposerState>;
    return { ...EMPTY_STATE, ...parsed };
  } catch {
    return EMPTY_STATE;
  }
}

/** Writes (or, when nothing is typed, removes) one conversation's draft. */
export function writeDraft(conversationId: number, s: ComposerState) {
  try {
    const empty =
      !s.text &&
      !s.caption &&
      s.options.every((o) => !o) &&
      !s.list.button &&
      !s.list.section &&
      s.list.rows.every((r) => !r.title && !r.description);
    if (empty) window.localStorage.removeItem(keyOf(conversationId));
    else window.localStorage.setItem(keyOf(conversationId), JSON.stringify(s));
  } catch {
    // Storage full or disabled: the composer still works, only the draft is not kept.
  }
}

/**
 * The composer's state, kept per conversation in localStorage on every change: switching
 * conversations or reloading the page brings back what was typed (the composer remounts per
 * conversation, so the first render reads that conversation's draft).
 */
export function useDraft(conversationId: number) {
  const [state, setState] = useState<ComposerState>(() => (typeof window === "undefined" ? EMPTY_STATE : readDraft(conversationId)));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    writeDraft(conversationId, state);
  }, [conversationId, state]);
  const patch = useCallback((p: Partial<ComposerState>) => setState((s) => ({ ...s, ...p })), []);
  return [state, patch, setState] as const;
}
