import type { Metadata } from "next";
import { SendForm } from "@/components/send/send-form";

export const metadata: Metadata = { title: "Enviar plantilla · WA Mensajería" };

export default function SendPage() {
  return <SendForm />;
}
