import type { Metadata } from "next";
import { LoginForm } from "@/components/auth/login-form";

export const metadata: Metadata = { title: "Iniciar sesión · WA Mensajería" };

export default function LoginPage() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-wa-green to-slate-100 px-4 py-10">
      <LoginForm />
    </main>
  );
}
