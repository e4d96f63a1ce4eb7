"use client";
import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useLogin } from "@/lib/api-client/hooks";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { postLoginPath } from "@/lib/http/safe-redirect";
import { useT } from "@/lib/i18n";
import { Button, Field, inputClass } from "@/components/ui";
import { LanguageSwitch } from "@/components/layout/language-switch";

// The demo agent seeded with the demo data (README "Demo"); hidden with NEXT_PUBLIC_HIDE_DEMO_HINT=1.
const DEMO = { email: "agente@demo.local", password: "demo1234" };
const showDemo = process.env.NEXT_PUBLIC_HIDE_DEMO_HINT !== "1";

/** Only a same-site path may be a post-login destination (no open redirect). */
function safeNext(): string {
  return postLoginPath(new URLSearchParams(window.location.search).get("next"), window.location.origin);
}

export function LoginForm() {
  const t = useT();
  const router = useRouter();
  const login = useLogin();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const err = login.error instanceof ApiRequestError ? login.error : null;
  const fieldError = (f: string) => err?.errors[f]?.[0];
  const general = err && !fieldError("email") && !fieldError("password") ? err.message : undefined;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    login.mutate({ email, password }, { onSuccess: () => router.replace(safeNext()) });
  }

  return (
    <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-lg">
      <div className="mb-4 flex items-start justify-between gap-2">
        <div>
          <p className="text-sm font-semibold text-wa-green">{t("app.name")}</p>
          <h1 className="text-2xl font-semibold">{t("login.title")}</h1>
          <p className="text-sm text-slate-600">{t("login.subtitle")}</p>
        </div>
        <LanguageSwitch />
      </div>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field id="email" label={t("login.email")} error={fieldError("email")}>
          <input
            id="email"
            type="email"
            autoComplete="username"
            required
            className={inputClass}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={!!fieldError("email")}
            aria-describedby={fieldError("email") ? "email-error" : undefined}
          />
        </Field>
        <Field id="password" label={t("login.password")} error={fieldError("password")}>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            className={inputClass}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={!!fieldError("password")}
            aria-describedby={fieldError("password") ? "password-error" : undefined}
          />
        </Field>
        {general && (
          <p role="alert" className="text-sm text-red-700">
            {general}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={login.isPending}>
          {login.isPending ? t("login.submitting") : t("login.submit")}
        </Button>
      </form>
      {showDemo && (
        <div className="mt-5 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900" data-testid="demo-hint">
          <p>{t("login.demo", DEMO)}</p>
          <button
            type="button"
            className="mt-1 font-medium text-wa-green-dark underline"
            onClick={() => {
              setEmail(DEMO.email);
              setPassword(DEMO.password);
            }}
          >
            {t("login.demoFill")}
          </button>
        </div>
      )}
    </div>
  );
}
