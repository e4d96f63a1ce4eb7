import type { Metadata } from "next";
import { ContactsPage } from "@/components/contacts/contacts-page";

export const metadata: Metadata = { title: "Contactos · WA Mensajería" };

export default function Page() {
  return <ContactsPage />;
}
