"use client";
import { useEffect, useState } from "react";
import type { Conversation, Message } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { cx } from "@/components/ui";
import { ReplyComposer } from "./composer";
import { NoteBox } from "./note-box";

export type ComposerRequest = { kind: "reply" | "note"; n: number };

/**
 * The bottom of the conversation: the reply to the customer, or a private note for the team
 * (both available whether or not the 24-hour window is open). `request` comes from the
 * keyboard shortcuts (r, n): switch to that box and put the focus in it.
 */
export function ConversationComposer({
  conv,
  replyTo,
  onClearReply,
  onSent,
  request,
}: {
  conv: Conversation;
  replyTo: Message | null;
  onClearReply: () => void;
  onSent: () => void;
  request: ComposerRequest | null;
}) {
  const t = useT();
  const [tab, setTab] = useState<"reply" | "note">("reply");
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a shortcut pressed elsewhere switches the box
    if (request) setTab(request.kind);
  }, [request]);
  // Once the requested box is the one rendered (after the switch above has committed), focus it.
  useEffect(() => {
    if (request && request.kind === tab) document.getElementById(tab === "note" ? "note-text" : "composer-text")?.focus();
  }, [request, tab]);

  const tabs = [
    { id: "reply" as const, label: t("notes.tabReply") },
    { id: "note" as const, label: t("notes.private") },
  ];
  return (
    <div data-testid="conversation-composer">
      <div className="flex gap-1 border-t border-slate-200 bg-white px-2 pt-1.5 text-sm" role="group" aria-label={t("notes.boxKind")}>
        {tabs.map((x) => (
          <button
            key={x.id}
            type="button"
            aria-pressed={tab === x.id}
            onClick={() => setTab(x.id)}
            className={cx(
              "rounded-t px-3 py-1 font-medium",
              tab === x.id
                ? x.id === "note"
                  ? "bg-amber-100 text-amber-950"
                  : "bg-emerald-50 text-emerald-900"
                : "text-slate-700 hover:bg-slate-100",
            )}
          >
            {x.label}
          </button>
        ))}
      </div>
      {tab === "note" ? (
        <NoteBox conversationId={conv.id} />
      ) : (
        <ReplyComposer conv={conv} replyTo={replyTo} onClearReply={onClearReply} onSent={onSent} />
      )}
    </div>
  );
}
