import type { SavedReplyDto as SavedReply } from "@/lib/saved-replies/schemas";

const MAX_SHOWN = 8;

/** The `/word` the caret is in, if it starts a word: what the picker filters by. */
export function slashQuery(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)\/([\p{L}\p{N}_-]*)$/u.exec(text.slice(0, caret));
  if (!m) return null;
  return { start: caret - m[2].length - 1, query: m[2] };
}

function fold(s: string) {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/** Shortcuts that start with the query first, then any whose shortcut, title or content contains it. */
export function rankSavedReplies(all: SavedReply[], query: string): SavedReply[] {
  const q = fold(query);
  if (!q) return all.slice(0, MAX_SHOWN);
  const starts = all.filter((r) => r.shortcut.startsWith(q));
  const contains = all.filter((r) => !starts.includes(r) && [r.shortcut, r.title, r.content].some((s) => fold(s).includes(q)));
  return [...starts, ...contains].slice(0, MAX_SHOWN);
}
