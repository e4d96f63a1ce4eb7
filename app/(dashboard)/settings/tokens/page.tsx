import type { Metadata } from "next";
import { TokensPage } from "@/components/tokens/tokens-page";

export const metadata: Metadata = { title: "Tokens de API · WA Mensajería" };

export default function Page() {
  return <TokensPage />;
}
