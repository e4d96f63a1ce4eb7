import type { Metadata } from "next";
import { SetupPage } from "@/components/setup/setup-page";

export const metadata: Metadata = { title: "Configuración inicial · WA Mensajería" };

/** The first run without the demo (docs/features/setup.md): public, and only while no team exists. */
export default function Page() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-wa-green to-slate-100 px-4 py-10">
      <SetupPage />
    </main>
  );
}
