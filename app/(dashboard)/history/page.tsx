import type { Metadata } from "next";
import { Suspense } from "react";
import { HistoryPage } from "@/components/history/history-page";

export const metadata: Metadata = { title: "Historial · WA Mensajería" };

export default function Page() {
  // useSearchParams needs a Suspense boundary for the static shell of the build.
  return (
    <Suspense>
      <HistoryPage />
    </Suspense>
  );
}
