"use client";
import type { MouseEvent } from "react";
import { useT } from "@/lib/i18n";

const linkClass =
  "sr-only rounded bg-emerald-800 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:absolute focus:z-50 focus:outline-2 focus:outline-offset-2";

/**
 * The inbox's own skip links, right after the app's "Saltar al contenido": from the top of the
 * page the reply box and the label editor are two or three Tab presses away instead of a walk
 * through every conversation of the list. Each moves the focus itself (a fragment link alone
 * only moves the starting point of the next Tab in some browsers).
 */
export function InboxSkipLinks({ onReply, onLabels, onList }: { onReply: () => void; onLabels: () => void; onList: () => void }) {
  const t = useT();
  const run = (fn: () => void) => (e: MouseEvent) => {
    e.preventDefault();
    fn();
  };
  return (
    <nav aria-label={t("keys.title")} className="relative" data-testid="inbox-skip-links">
      <a href="#composer-text" className={linkClass} onClick={run(onReply)}>
        {t("skip.reply")}
      </a>
      <a href="#contact-labels" className={linkClass} onClick={run(onLabels)}>
        {t("skip.labels")}
      </a>
      <a href="#conversation-list" className={linkClass} onClick={run(onList)}>
        {t("skip.list")}
      </a>
    </nav>
  );
}
