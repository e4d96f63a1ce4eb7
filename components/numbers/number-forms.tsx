"use client";
import { useForm } from "react-hook-form";
import { ApiRequestError } from "@/lib/api-client/fetch";
import type { CreateNumberInput, NumberSettings, UpdateNumberInput } from "@/lib/api-client/number-settings";
import { createNumberBody, updateNumberBody } from "@/lib/numbers/settings-schemas";
import type { z } from "zod";
import { useT, type MessageKey } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Field, FormError, inputClass } from "@/components/ui";

/** An empty box is "not given" (a credential left as it is, the default pacing), never an empty string. */
const blankIsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const numberOrUnset = (v: unknown) => (v === "" || v === null || v === undefined ? undefined : Number(v));

type CreateField = keyof CreateNumberInput;
const CREATE_FIELDS: { name: CreateField; label: MessageKey; hint: MessageKey; type?: string; autoComplete?: string }[] = [
  { name: "display_name", label: "numbers.f.displayName", hint: "numbers.h.displayName" },
  { name: "phone_number", label: "numbers.f.phoneNumber", hint: "numbers.h.phoneNumber", type: "tel" },
  { name: "phone_number_id", label: "numbers.f.phoneNumberId", hint: "numbers.h.phoneNumberId" },
  { name: "waba_id", label: "numbers.f.wabaId", hint: "numbers.h.wabaId" },
  { name: "access_token", label: "numbers.f.accessToken", hint: "numbers.h.accessToken", type: "password", autoComplete: "off" },
  { name: "app_secret", label: "numbers.f.appSecret", hint: "numbers.h.appSecret", type: "password", autoComplete: "off" },
  { name: "verify_token", label: "numbers.f.verifyToken", hint: "numbers.h.verifyToken", autoComplete: "off" },
  { name: "messages_per_second", label: "numbers.f.mps", hint: "numbers.h.mps", type: "number" },
];

function serverErrors(error: Error | null) {
  const errs = error instanceof ApiRequestError ? error.errors : {};
  const general = error && !Object.keys(errs).length ? error.message : undefined;
  return { errs, general };
}

/** "Añadir número": Meta's ids and credentials, each field with where to find it in Meta; checked with the route's schema. */
export function CreateNumberForm({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: Error | null;
  onSubmit: (v: z.output<typeof createNumberBody>, reset: () => void) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const labels = Object.fromEntries(CREATE_FIELDS.map((f) => [f.name, t(f.label)]));
  const resolver = useLocalizedResolver(createNumberBody, labels);
  const { register, handleSubmit, reset, formState } = useForm<CreateNumberInput, unknown, z.output<typeof createNumberBody>>({
    resolver,
    defaultValues: { display_name: "", phone_number: "", phone_number_id: "", waba_id: "", access_token: "" },
  });
  const { errs, general } = serverErrors(error);
  const fieldError = (f: CreateField) => formState.errors[f]?.message ?? errs[f]?.[0];
  return (
    <form noValidate className="space-y-3" data-testid="number-create-form" onSubmit={handleSubmit((v) => onSubmit(v, () => reset()))}>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        {CREATE_FIELDS.map((f) => {
          const id = `number-new-${f.name}`;
          const err = fieldError(f.name);
          return (
            <Field key={f.name} id={id} label={t(f.label)} hint={t(f.hint)} error={err}>
              <input
                id={id}
                type={f.type ?? "text"}
                inputMode={f.name.endsWith("_id") ? "numeric" : undefined}
                autoComplete={f.autoComplete}
                className={inputClass}
                aria-invalid={!!err}
                aria-describedby={err ? `${id}-error` : `${id}-hint`}
                {...register(f.name, {
                  setValueAs:
                    f.name === "messages_per_second"
                      ? numberOrUnset
                      : f.name === "app_secret" || f.name === "verify_token"
                        ? blankIsUnset
                        : undefined,
                })}
              />
            </Field>
          );
        })}
      </div>
      <FormError message={general} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {t("numbers.create")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}

type EditField = "display_name" | "messages_per_second" | "access_token" | "app_secret" | "verify_token";

/** Editing a number: its name and pacing; new credentials only when typed (saved ones are never shown). */
export function EditNumberForm({
  number,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  number: NumberSettings;
  pending: boolean;
  error: Error | null;
  onSubmit: (v: z.output<typeof updateNumberBody>) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const resolver = useLocalizedResolver(updateNumberBody, {
    display_name: t("numbers.f.displayName"),
    messages_per_second: t("numbers.mps"),
    access_token: t("numbers.f.accessToken"),
    app_secret: t("numbers.f.appSecret"),
    verify_token: t("numbers.verifyToken"),
  });
  const { register, handleSubmit, formState } = useForm<UpdateNumberInput, unknown, z.output<typeof updateNumberBody>>({
    resolver,
    defaultValues: { display_name: number.display_name, messages_per_second: number.messages_per_second },
  });
  const { errs, general } = serverErrors(error);
  const fieldError = (f: EditField) => formState.errors[f]?.message ?? errs[f]?.[0];
  const id = (f: string) => `number-${number.id}-${f}`;
  const input = (f: EditField, type = "text", setValueAs?: (v: unknown) => unknown) => (
    <input
      id={id(f)}
      type={type}
      autoComplete="off"
      className={inputClass}
      aria-invalid={!!fieldError(f)}
      aria-describedby={fieldError(f) ? `${id(f)}-error` : undefined}
      {...register(f, { setValueAs })}
    />
  );
  return (
    <form noValidate className="space-y-3" data-testid="number-edit-form" onSubmit={handleSubmit(onSubmit)}>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <Field id={id("display_name")} label={t("numbers.f.displayName")} error={fieldError("display_name")}>
          {input("display_name")}
        </Field>
        <Field id={id("messages_per_second")} label={t("numbers.mps")} error={fieldError("messages_per_second")}>
          {input("messages_per_second", "number", numberOrUnset)}
        </Field>
      </div>
      {!number.sandbox && (
        <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium">{t("numbers.newCredentials")}</legend>
          <p className="text-xs text-slate-600">{t("numbers.newCredentialsHelp")}</p>
          <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
            <Field id={id("access_token")} label={t("numbers.f.accessToken")} error={fieldError("access_token")}>
              {input("access_token", "password", blankIsUnset)}
            </Field>
            <Field id={id("app_secret")} label={t("numbers.f.appSecret")} error={fieldError("app_secret")}>
              {input("app_secret", "password", blankIsUnset)}
            </Field>
            <Field id={id("verify_token")} label={t("numbers.verifyToken")} error={fieldError("verify_token")}>
              {input("verify_token", "text", blankIsUnset)}
            </Field>
          </div>
        </fieldset>
      )}
      <FormError message={general} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {t("common.save")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
