import type { Metadata } from "next";
import { NumbersPage } from "@/components/numbers/numbers-page";

export const metadata: Metadata = { title: "Números · WA Mensajería" };

export default function Page() {
  return <NumbersPage />;
}
