import type { Metadata } from "next";
import { BroadcastsList } from "@/components/broadcasts/broadcasts-list";

export const metadata: Metadata = { title: "Difusiones · WA Mensajería" };

export default function Page() {
  return <BroadcastsList />;
}
