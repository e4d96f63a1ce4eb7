import type { Metadata } from "next";
import { ContactsImport } from "@/components/contacts/contacts-import";

export const metadata: Metadata = { title: "Importar contactos · WA Mensajería" };

export default function Page() {
  return <ContactsImport />;
}
