import type { Metadata } from "next";
import { BroadcastWizard } from "@/components/broadcasts/wizard/broadcast-wizard";

export const metadata: Metadata = { title: "Nueva difusión · WA Mensajería" };

export default function Page() {
  return <BroadcastWizard />;
}
