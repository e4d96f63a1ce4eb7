import type { Metadata } from "next";
import { AuditPage } from "@/components/audit/audit-page";

export const metadata: Metadata = { title: "Auditoría · WA Mensajería" };

export default function Page() {
  return <AuditPage />;
}
