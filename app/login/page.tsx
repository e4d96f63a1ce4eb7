import type { Metadata } from "next";
import { connection } from "next/server";
import { LoginForm } from "@/components/auth/login-form";
import { config } from "@/lib/config";

export const metadata: Metadata = { title: "Iniciar sesión · WA Mensajería" };

export default async function LoginPage() {
  // Rendered per request: whether the demo hint shows is a runtime setting, not a build-time one.
  await connection();
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-wa-green to-slate-100 px-4 py-10">
      <LoginForm demoHint={config.seedDemo} />
    </main>
  );
}
