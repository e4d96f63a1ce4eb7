"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useLogin } from "@/lib/api-client/auth";
import { useSetupNeeded } from "@/lib/api-client/setup";
import { ApiRequestError } from "@/lib/api-client/fetch";
import type { LoginInput } from "@/lib/api-client/types";
import { loginRequestSchema, type LoginRequest } from "@/lib/auth/session-schemas";
import { postLoginPath } from "@/lib/http/safe-redirect";
import { useT } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Field, FormError, inputClass } from "@/components/ui";
import { LanguageSwitch } from "@/components/layout/language-switch";
import { useDocumentTitle } from "@/components/layout/use-document-title";

// The demo agent seeded with the demo data (README.md, "Run it, test it"); shown only where the server seeds it.
const DEMO = { email: "agente@demo.local", password: "demo1234" };

/** Only a same-site path may be a post-login destination (no open redirect). */
function safeNext(): string {
  return postLoginPath(new URLSearchParams(window.location.search).get("next"), window.location.origin);
}

export function LoginForm({ demoHint }: { demoHint: boolean }) {
  const t = useT();
  useDocumentTitle(`${t("login.title")} · ${t("app.name")}`);
  const router = useRouter();
  const login = useLogin();
  // No team at all yet (a first run with SEED_DEMO=0): nobody can sign in; the set-up comes first.
  // Asked here, not in proxy.ts, which stays free of the database (docs/features/setup.md).
  const setupNeeded = useSetupNeeded().data === true;
  useEffect(() => {
    if (setupNeeded) router.replace("/setup");
  }, [setupNeeded, router]);
  // Checked in the browser with the route's own schema (messages in the UI's language), then by the server.
  const resolver = useLocalizedResolver(loginRequestSchema, { email: t("login.email"), password: t("login.password") });
  const { register, handleSubmit, setValue, formState } = useForm<LoginInput, unknown, LoginRequest>({
    resolver,
    defaultValues: { email: "", password: "" },
  });
  const err = login.error instanceof ApiRequestError ? login.error : null;
  const fieldError = (f: "email" | "password") => formState.errors[f]?.message ?? err?.errors[f]?.[0];
  const general = err && !err.errors.email && !err.errors.password ? err.message : undefined;

  const onSubmit = handleSubmit(({ email, password }) => {
    login.mutate({ email, password }, { onSuccess: () => router.replace(safeNext()) });
  });

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
            {...register("email")}
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
            {...register("password")}
            aria-invalid={!!fieldError("password")}
            aria-describedby={fieldError("password") ? "password-error" : undefined}
          />
        </Field>
        <FormError message={general} />
        <Button type="submit" className="w-full" disabled={login.isPending}>
          {login.isPending ? t("login.submitting") : t("login.submit")}
        </Button>
      </form>
      {demoHint && (
        <div className="mt-5 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900" data-testid="demo-hint">
          <p>{t("login.demo", DEMO)}</p>
          <button
            type="button"
            className="mt-1 font-medium text-wa-green-dark underline"
            onClick={() => {
              setValue("email", DEMO.email, { shouldValidate: formState.isSubmitted });
              setValue("password", DEMO.password, { shouldValidate: formState.isSubmitted });
            }}
          >
            {t("login.demoFill")}
          </button>
        </div>
      )}
    </div>
  );
}
