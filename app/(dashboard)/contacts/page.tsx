import type { Metadata } from "next";
import { Suspense } from "react";
import { ContactsPage } from "@/components/contacts/contacts-page";

export const metadata: Metadata = { title: "Contactos · WA Mensajería" };

export default function Page() {
  // The label filter lives in the URL (useSearchParams needs a Suspense boundary for the static shell).
  return (
    <Suspense>
      <ContactsPage />
    </Suspense>
  );
}
