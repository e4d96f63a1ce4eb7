"use client";
import { Controller, useForm } from "react-hook-form";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { SCOPES } from "@/lib/auth/permissions";
import { TOKEN_NAME_MAX, tokenFormSchema, type TokenFormOutput, type TokenFormValues } from "@/lib/api-tokens/schemas";
import { useT, type MessageKey } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Field, FormError, inputClass } from "@/components/ui";
import { DateField } from "@/components/ui/date-field";

type Props = {
  pending: boolean;
  error: Error | null;
  onSubmit: (input: TokenFormOutput) => void;
  onCancel: () => void;
};

const blank: TokenFormValues = { name: "", scopes: [], expires_on: "" };

/** A new token: its name, its scopes (each with what it grants: docs/roles.md) and an optional last day. */
export function TokenForm({ pending, error, onSubmit, onCancel }: Props) {
  const t = useT();
  const resolver = useLocalizedResolver(tokenFormSchema, {
    name: t("tokens.name"),
    scopes: t("tokens.scopes"),
    expires_on: t("tokens.expiresOn"),
  });
  const { register, control, handleSubmit, formState } = useForm<TokenFormValues, unknown, TokenFormOutput>({
    resolver,
    defaultValues: blank,
  });
  const serverErrs = error instanceof ApiRequestError ? error.errors : {};
  const fieldError = (f: "name" | "scopes" | "expires_on") =>
    formState.errors[f]?.message ?? serverErrs[f === "expires_on" ? "expires_at" : f]?.[0];
  const general = error && !Object.keys(serverErrs).length ? error.message : undefined;
  const aria = (f: "name" | "scopes" | "expires_on") => ({
    "aria-invalid": !!fieldError(f),
    "aria-describedby": fieldError(f) ? `token-${f}-error` : `token-${f}-hint`,
  });
  const scopesError = fieldError("scopes");

  return (
    <form onSubmit={handleSubmit(onSubmit)} className="space-y-4" noValidate data-testid="token-form">
      <Field id="token-name" label={t("tokens.name")} hint={t("tokens.nameHint")} error={fieldError("name")}>
        <input
          id="token-name"
          className={inputClass}
          autoComplete="off"
          maxLength={TOKEN_NAME_MAX}
          {...register("name")}
          {...aria("name")}
        />
      </Field>
      <fieldset aria-describedby={scopesError ? "token-scopes-error" : "token-scopes-hint"} aria-invalid={!!scopesError}>
        <legend className="text-sm font-medium text-slate-800">{t("tokens.scopes")}</legend>
        <p id="token-scopes-hint" className="text-xs text-slate-600">
          {t("tokens.scopesHint")}
        </p>
        <div className="mt-2 grid grid-cols-1 gap-2 lg:grid-cols-2">
          {SCOPES.map((scope) => (
            <label
              key={scope}
              className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 text-sm hover:bg-slate-50 has-[:checked]:border-emerald-400 has-[:checked]:bg-emerald-50"
            >
              <input type="checkbox" value={scope} className="mt-0.5 h-4 w-4 shrink-0 accent-emerald-700" {...register("scopes")} />
              <span>
                <span className="block font-mono text-xs font-semibold text-slate-900">{scope}</span>
                <span className="block text-xs text-slate-700">{t(`tokens.scope.${scope}` as MessageKey)}</span>
              </span>
            </label>
          ))}
        </div>
        {scopesError && (
          <p id="token-scopes-error" role="alert" className="mt-1 text-sm text-red-700">
            {scopesError}
          </p>
        )}
      </fieldset>
      <Field id="token-expires_on" label={t("tokens.expiresOn")} hint={t("tokens.expiresHint")} error={fieldError("expires_on")}>
        <Controller
          control={control}
          name="expires_on"
          render={({ field }) => (
            <DateField
              id="token-expires_on"
              className={`${inputClass} sm:w-56`}
              name={field.name}
              value={field.value ?? ""}
              onChange={field.onChange}
              onBlur={field.onBlur}
              {...aria("expires_on")}
            />
          )}
        />
      </Field>
      <FormError message={general} />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {t("tokens.create")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
