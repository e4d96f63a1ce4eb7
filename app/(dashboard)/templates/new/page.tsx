import type { Metadata } from "next";
import { TemplateEditorPage } from "@/components/templates/editor/template-editor-page";

export const metadata: Metadata = { title: "Nueva plantilla · WA Mensajería" };

export default function Page() {
  return <TemplateEditorPage />;
}
