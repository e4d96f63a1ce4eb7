import type { Metadata } from "next";
import { TemplatesPage } from "@/components/templates/templates-page";

export const metadata: Metadata = { title: "Plantillas · WA Mensajería" };

export default function Page() {
  return <TemplatesPage />;
}
