import type { Metadata } from "next";
import { LabelsPage } from "@/components/labels/labels-page";

export const metadata: Metadata = { title: "Etiquetas · WA Mensajería" };

export default function Page() {
  return <LabelsPage />;
}
