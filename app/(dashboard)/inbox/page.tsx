import type { Metadata } from "next";
import { Suspense } from "react";
import { InboxPage } from "@/components/inbox/inbox-page";

export const metadata: Metadata = { title: "Bandeja de entrada · WA Mensajería" };

export default function Page() {
  // useSearchParams needs a Suspense boundary for the static shell of the build.
  return (
    <Suspense>
      <InboxPage />
    </Suspense>
  );
}
