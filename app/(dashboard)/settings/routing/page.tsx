import type { Metadata } from "next";
import { RoutingPage } from "@/components/routing/routing-page";

export const metadata: Metadata = { title: "Bots y campañas · WA Mensajería" };

export default function Page() {
  return <RoutingPage />;
}
