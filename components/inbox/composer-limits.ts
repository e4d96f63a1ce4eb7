import type { Translate } from "@/lib/i18n";

/** The replies API's limits (WhatsApp's): said as the agent types, never cut silently. */
export const LIMITS = {
  text: 4096,
  caption: 1024,
  qrBody: 1024,
  qrTitle: 20,
  qrOptions: 3,
  listBody: 4096,
  listButton: 20,
  listRowTitle: 24,
  listRowDesc: 72,
  listRows: 10,
};

export type Mode = "text" | "quick_reply" | "list";
export type ListDraft = { button: string; section: string; rows: { title: string; description: string }[] };

/** Everything the agent has typed in one conversation's composer (what the draft keeps). */
export type ComposerState = { mode: Mode; text: string; options: string[]; list: ListDraft; caption: string };

export const EMPTY_LIST: ListDraft = { button: "", section: "", rows: [{ title: "", description: "" }] };
export const EMPTY_STATE: ComposerState = { mode: "text", text: "", options: [""], list: EMPTY_LIST, caption: "" };

/** Field id → what is over its limit, for the fields of the current mode (empty when all fit). */
export function limitProblems(s: ComposerState, t: Translate, attaching: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const over = (id: string, value: string, max: number, what: string) => {
    if (value.length > max) out[id] = t("composer.overLimit", { what, max, n: value.length });
  };
  if (attaching) {
    over("attachment-caption", s.caption, LIMITS.caption, t("composer.caption"));
    return out;
  }
  const textMax = s.mode === "quick_reply" ? LIMITS.qrBody : s.mode === "list" ? LIMITS.listBody : LIMITS.text;
  over("composer-text", s.text, textMax, t(s.mode === "text" ? "composer.whatText" : "inbox.bodyText"));
  if (s.mode === "quick_reply") s.options.forEach((o, i) => over(`qr-${i}`, o, LIMITS.qrTitle, t("inbox.qrOption", { n: i + 1 })));
  if (s.mode === "list") {
    over("list-button", s.list.button, LIMITS.listButton, t("inbox.listButton"));
    s.list.rows.forEach((r, i) => {
      over(`row-${i}`, r.title, LIMITS.listRowTitle, t("inbox.listRow", { n: i + 1 }));
      over(`row-${i}-desc`, r.description, LIMITS.listRowDesc, t("inbox.listRowDesc", { n: i + 1 }));
    });
  }
  return out;
}
