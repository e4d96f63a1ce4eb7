import type { Metadata } from "next";
import { SavedRepliesPage } from "@/components/saved-replies/saved-replies-page";

export const metadata: Metadata = { title: "Respuestas guardadas · WA Mensajería" };

export default function Page() {
  return <SavedRepliesPage />;
}
