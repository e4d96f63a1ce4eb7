import type { Metadata } from "next";
import { WebhooksPage } from "@/components/webhooks/webhooks-page";

export const metadata: Metadata = { title: "Webhooks · WA Mensajería" };

export default function Page() {
  return <WebhooksPage />;
}
