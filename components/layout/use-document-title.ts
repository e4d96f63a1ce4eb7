"use client";
import { useEffect } from "react";

/**
 * Keeps the tab's title at `title`. The pages' `metadata` titles are written by the server, which
 * does not know the language the agent chose (it lives in the browser), and Next writes them again
 * after each navigation: the title is put back whenever the head changes.
 */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (!title) return;
    const apply = () => {
      if (document.title !== title) document.title = title;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [title]);
}
