"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useMe } from "@/lib/api-client/auth";
import { allows } from "@/lib/auth/permissions";
import { useT } from "@/lib/i18n";
import { EmptyState } from "@/components/ui";
import { SETTINGS_SECTIONS } from "./sections";

/** /settings opens the first section the agent's role may open; with none, says so. */
export function SettingsHome() {
  const t = useT();
  const router = useRouter();
  const me = useMe();
  const role = me.data?.role;
  const first = role ? SETTINGS_SECTIONS.find((s) => allows({ role }, s.need)) : undefined;
  useEffect(() => {
    if (first) router.replace(`/settings/${first.slug}`);
  }, [first, router]);
  if (!role || first) return null;
  return <EmptyState>{t("settings.none")}</EmptyState>;
}
