import type { Metadata } from "next";
import { TeamSettingsPage } from "@/components/settings/team-settings-page";

export const metadata: Metadata = { title: "Equipo · WA Mensajería" };

export default function Page() {
  return <TeamSettingsPage />;
}
