import type { Metadata } from "next";
import { Suspense } from "react";
import { ConversationsPage } from "@/components/conversations/conversations-page";

export const metadata: Metadata = { title: "Conversaciones · WA Mensajería" };

export default function Page() {
  // useSearchParams needs a Suspense boundary for the static shell of the build.
  return (
    <Suspense>
      <ConversationsPage />
    </Suspense>
  );
}
