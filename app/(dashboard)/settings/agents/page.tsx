import type { Metadata } from "next";
import { AgentsSettings } from "@/components/agents/agents-settings";

export const metadata: Metadata = { title: "Agentes · WA Mensajería" };

export default function Page() {
  return <AgentsSettings />;
}
