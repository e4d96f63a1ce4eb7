"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { useAcceptInvitation, useInvitationPreview } from "@/lib/api-client/agents";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { acceptInvitationBody } from "@/lib/agents/invitation-schemas";
import { useI18n } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Field, FormError, inputClass } from "@/components/ui";
import { LanguageSwitch } from "@/components/layout/language-switch";

// The form's own fields of the route's schema (the token comes from the link).
const formSchema = acceptInvitationBody.pick({ name: true, password: true });
type FormValues = { name: string; password: string };

/**
 * The page an invitation link opens (docs/features/agents.md): which team and e-mail it is for,
 * then a name and a password; the account is created, signed in, and the inbox opens. A link that
 * is unknown, used, revoked or expired says so, in the API's words.
 */
export function AcceptInvitation({ token }: { token: string }) {
  const { t, locale } = useI18n();
  const router = useRouter();
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const resolver = useLocalizedResolver(formSchema, { name: t("accept.name"), password: t("accept.password") });
  const { register, handleSubmit, formState } = useForm<FormValues, unknown, FormValues>({
    resolver,
    defaultValues: { name: "", password: "" },
  });
  const err = accept.error instanceof ApiRequestError ? accept.error : null;
  const fieldError = (f: keyof FormValues) => formState.errors[f]?.message ?? err?.errors[f]?.[0];
  const general = accept.error && !err?.errors.name && !err?.errors.password ? accept.error.message : undefined;
  const onSubmit = handleSubmit(({ name, password }) =>
    accept.mutate({ token, name, password }, { onSuccess: () => router.replace("/inbox") }),
  );
  const invitation = preview.data;

  return (
    <div className="w-full max-w-md rounded-xl bg-white p-6 shadow-lg">
      <div className="mb-4 flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-wa-green">{t("app.name")}</p>
          <h1 className="break-words text-2xl font-semibold">
            {invitation ? t("accept.title", { team: invitation.team_name }) : t("accept.heading")}
          </h1>
        </div>
        <LanguageSwitch />
      </div>
      {preview.isLoading ? (
        <p role="status" className="text-sm text-slate-700">
          {t("accept.checking")}
        </p>
      ) : preview.isError ? (
        <div className="space-y-3">
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {preview.error.message}
          </p>
          <Link href="/login" className="text-sm font-medium text-wa-green-dark underline">
            {t("accept.toLogin")}
          </Link>
        </div>
      ) : invitation ? (
        <>
          <p className="mb-1 text-sm text-slate-700">
            {t("accept.subtitle", { role: t(`role.${invitation.role}`), email: invitation.email })}
          </p>
          <p className="mb-4 text-xs text-slate-600">{t("accept.expires", { date: formatDateTime(invitation.expires_at, locale) })}</p>
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <Field id="accept-email" label={t("accept.email")}>
              <input
                id="accept-email"
                type="email"
                autoComplete="username"
                readOnly
                value={invitation.email}
                className={`${inputClass} bg-slate-50`}
              />
            </Field>
            <Field id="accept-name" label={t("accept.name")} error={fieldError("name")}>
              <input
                id="accept-name"
                autoComplete="name"
                className={inputClass}
                {...register("name")}
                aria-invalid={!!fieldError("name")}
                aria-describedby={fieldError("name") ? "accept-name-error" : undefined}
              />
            </Field>
            <Field id="accept-password" label={t("accept.password")} hint={t("accept.passwordHint")} error={fieldError("password")}>
              <input
                id="accept-password"
                type="password"
                autoComplete="new-password"
                className={inputClass}
                {...register("password")}
                aria-invalid={!!fieldError("password")}
                aria-describedby={fieldError("password") ? "accept-password-error" : "accept-password-hint"}
              />
            </Field>
            <FormError message={general} />
            <Button type="submit" className="w-full" disabled={accept.isPending}>
              {accept.isPending ? t("accept.submitting") : t("accept.submit")}
            </Button>
          </form>
        </>
      ) : null}
    </div>
  );
}
