"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useNumberMutations } from "@/lib/api-client/number-settings";
import { useRunSetup, useSetupNeeded, type SetupInput } from "@/lib/api-client/setup";
import { setupBody } from "@/lib/setup/schemas";
import { useI18n } from "@/lib/i18n";
import { countryOptions } from "@/lib/i18n/countries";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, ErrorBox, Field, FormError, inputClass } from "@/components/ui";
import { LanguageSwitch } from "@/components/layout/language-switch";

type SetupField = keyof SetupInput;

/**
 * /setup (docs/features/setup.md): while the database has no team, creates it and its owner and
 * signs the owner in; then offers the sandbox number or the numbers' settings. Once any team
 * exists, a visitor who did not just set it up is sent to sign in.
 */
export function SetupPage() {
  const { t, locale } = useI18n();
  const router = useRouter();
  const needed = useSetupNeeded();
  const run = useRunSetup();
  const { sandbox } = useNumberMutations();
  // Set up before this visit (not by this form): the page is not for this visitor any more.
  const elsewhere = needed.data === false && run.isIdle;
  useEffect(() => {
    if (elsewhere) router.replace("/login");
  }, [elsewhere, router]);

  const countries = useMemo(() => countryOptions(locale), [locale]);

  const labels = {
    team_name: t("setup.teamName"),
    default_country: t("setup.country"),
    name: t("setup.name"),
    email: t("setup.email"),
    password: t("setup.password"),
  };
  const resolver = useLocalizedResolver(setupBody, labels);
  const { register, handleSubmit, formState } = useForm<SetupInput, unknown, z.output<typeof setupBody>>({
    resolver,
    defaultValues: { team_name: "", default_country: "", name: "", email: "", password: "" },
  });
  const err = run.error instanceof ApiRequestError ? run.error : null;
  const fieldError = (f: SetupField) => formState.errors[f]?.message ?? err?.errors[f]?.[0];
  const general = run.error && !Object.keys(err?.errors ?? {}).length ? run.error.message : undefined;

  const frame = (children: React.ReactNode) => (
    <div className="w-full max-w-lg rounded-xl bg-white p-6 shadow-lg">
      <div className="mb-4 flex items-start justify-between gap-2">
        <div>
          <p className="text-sm font-semibold text-wa-green">{t("app.name")}</p>
          <h1 className="text-2xl font-semibold">{t("setup.title")}</h1>
        </div>
        <LanguageSwitch />
      </div>
      {children}
    </div>
  );

  if (run.data) {
    const added = sandbox.data?.data;
    return frame(
      <div className="space-y-4" data-testid="setup-done">
        <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
          {t("setup.done", { team: run.data.team.name, name: run.data.agent.name })}
        </p>
        <h2 className="text-lg font-semibold">{t("setup.nextTitle")}</h2>
        <p className="text-sm text-slate-700">{t("setup.nextIntro")}</p>
        {added ? (
          <p role="status" className="rounded-md bg-sky-50 p-3 text-sm text-sky-900">
            {t("setup.sandboxAdded", { number: added.number })}
          </p>
        ) : (
          <Button onClick={() => sandbox.mutate()} disabled={sandbox.isPending}>
            {sandbox.isPending ? t("setup.addingSandbox") : t("setup.addSandbox")}
          </Button>
        )}
        {sandbox.error && <ErrorBox error={sandbox.error} />}
        <div className="flex flex-wrap gap-4 text-sm font-medium">
          <Link className="text-wa-green-dark underline" href="/settings/numbers">
            {t("setup.goNumbers")}
          </Link>
          <Link className="text-wa-green-dark underline" href="/inbox">
            {t("setup.goInbox")}
          </Link>
        </div>
      </div>,
    );
  }

  if (needed.isError) return frame(<ErrorBox error={needed.error} onRetry={() => needed.refetch()} />);
  if (needed.data !== true) return frame(<p className="text-sm text-slate-600">{t("setup.checking")}</p>);

  const input = (f: SetupField, type: string, autoComplete: string, hint = false) => (
    <input
      id={`setup-${f}`}
      type={type}
      autoComplete={autoComplete}
      className={inputClass}
      aria-invalid={!!fieldError(f)}
      aria-describedby={fieldError(f) ? `setup-${f}-error` : hint ? `setup-${f}-hint` : undefined}
      {...register(f)}
    />
  );
  return frame(
    <>
      <p className="mb-4 text-sm text-slate-600">{t("setup.subtitle")}</p>
      <form
        noValidate
        className="space-y-5"
        onSubmit={handleSubmit((v) => run.mutate({ ...v, default_country: v.default_country || null }))}
      >
        <fieldset className="space-y-3">
          <legend className="mb-1 text-base font-semibold">{t("setup.teamSection")}</legend>
          <Field id="setup-team_name" label={t("setup.teamName")} hint={t("setup.teamNameHint")} error={fieldError("team_name")}>
            {input("team_name", "text", "organization", true)}
          </Field>
          <Field id="setup-default_country" label={t("setup.country")} hint={t("setup.countryHint")} error={fieldError("default_country")}>
            <select
              id="setup-default_country"
              className={inputClass}
              aria-describedby={fieldError("default_country") ? "setup-default_country-error" : "setup-default_country-hint"}
              {...register("default_country", { setValueAs: (v) => (v === "" ? null : v) })}
            >
              <option value="">{t("setup.noCountry")}</option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="mb-1 text-base font-semibold">{t("setup.ownerSection")}</legend>
          <Field id="setup-name" label={t("setup.name")} error={fieldError("name")}>
            {input("name", "text", "name")}
          </Field>
          <Field id="setup-email" label={t("setup.email")} error={fieldError("email")}>
            {input("email", "email", "username")}
          </Field>
          <Field id="setup-password" label={t("setup.password")} hint={t("setup.passwordHint")} error={fieldError("password")}>
            {input("password", "password", "new-password", true)}
          </Field>
        </fieldset>
        <FormError message={general} />
        <Button type="submit" className="w-full" disabled={run.isPending}>
          {run.isPending ? t("setup.submitting") : t("setup.submit")}
        </Button>
      </form>
    </>,
  );
}
