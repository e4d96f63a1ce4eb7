import type { Metadata } from "next";
import { SettingsHome } from "@/components/settings/settings-home";

export const metadata: Metadata = { title: "Ajustes · WA Mensajería" };

export default function Page() {
  return <SettingsHome />;
}
