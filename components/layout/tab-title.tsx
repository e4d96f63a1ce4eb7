"use client";
import { usePathname } from "next/navigation";
import { useT } from "@/lib/i18n";
import { titleKeyOf } from "./tab-titles";
import { useDocumentTitle } from "./use-document-title";

/** Sets the tab title of the dashboard page open (./tab-titles.ts) in the agent's language. */
export function TabTitle() {
  const t = useT();
  const key = titleKeyOf(usePathname());
  useDocumentTitle(key ? `${t(key)} · ${t("app.name")}` : null);
  return null;
}
