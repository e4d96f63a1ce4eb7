"use client";
import { useForm, useWatch } from "react-hook-form";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import {
  ALL_EVENTS,
  DESCRIPTION_MAX,
  endpointFormSchema,
  type CreateEndpointInput,
  type EndpointFormValues,
} from "@/lib/webhook-endpoints/schemas";
import { useT } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Field, FormError, inputClass } from "@/components/ui";

type Props = {
  pending: boolean;
  error: Error | null;
  onSubmit: (input: CreateEndpointInput) => void;
  onCancel: () => void;
};

const blank: EndpointFormValues = { url: "", description: "", events: [] };
type FormField = "url" | "description" | "events";

/** A new endpoint: its URL, what it is for, and the events it receives (all, or those ticked). */
export function EndpointForm({ pending, error, onSubmit, onCancel }: Props) {
  const t = useT();
  const resolver = useLocalizedResolver(endpointFormSchema, {
    url: t("webhooks.url"),
    description: t("webhooks.description"),
    events: t("webhooks.events"),
  });
  const { register, handleSubmit, formState, control } = useForm<EndpointFormValues, unknown, CreateEndpointInput>({
    resolver,
    defaultValues: blank,
  });
  const all = (useWatch({ control, name: "events" }) ?? []).includes(ALL_EVENTS);
  const serverErrs = error instanceof ApiRequestError ? error.errors : {};
  const fieldError = (f: FormField) => formState.errors[f]?.message ?? serverErrs[f]?.[0];
  const general = error && !Object.keys(serverErrs).length ? error.message : undefined;
  const aria = (f: FormField) => ({
    "aria-invalid": !!fieldError(f),
    "aria-describedby": fieldError(f) ? `endpoint-${f}-error` : `endpoint-${f}-hint`,
  });
  const eventsError = fieldError("events");
  const box =
    "flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 text-sm hover:bg-slate-50 has-[:checked]:border-emerald-400 has-[:checked]:bg-emerald-50";

  return (
    <form onSubmit={handleSubmit(onSubmit)} className="space-y-4" noValidate data-testid="endpoint-form">
      <Field id="endpoint-url" label={t("webhooks.url")} hint={t("webhooks.urlHint")} error={fieldError("url")}>
        <input id="endpoint-url" type="url" className={inputClass} autoComplete="off" {...register("url")} {...aria("url")} />
      </Field>
      <Field id="endpoint-description" label={t("webhooks.description")} error={fieldError("description")}>
        <input
          id="endpoint-description"
          className={inputClass}
          autoComplete="off"
          maxLength={DESCRIPTION_MAX}
          {...register("description")}
          {...aria("description")}
        />
      </Field>
      <fieldset aria-describedby={eventsError ? "endpoint-events-error" : "endpoint-events-hint"} aria-invalid={!!eventsError}>
        <legend className="text-sm font-medium text-slate-800">{t("webhooks.events")}</legend>
        <p id="endpoint-events-hint" className="text-xs text-slate-600">
          {t("webhooks.eventsHint")}
        </p>
        <label className={`${box} mt-2`}>
          <input type="checkbox" value={ALL_EVENTS} className="mt-0.5 h-4 w-4 shrink-0 accent-emerald-700" {...register("events")} />
          <span className="font-medium">{t("webhooks.allEvents")}</span>
        </label>
        <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {EVENT_TYPES.map((type) => (
            <label key={type} className={box}>
              <input
                type="checkbox"
                value={type}
                disabled={all}
                className="mt-0.5 h-4 w-4 shrink-0 accent-emerald-700"
                {...register("events")}
              />
              <span className="font-mono text-xs font-semibold text-slate-900">{type}</span>
            </label>
          ))}
        </div>
        {eventsError && (
          <p id="endpoint-events-error" role="alert" className="mt-1 text-sm text-red-700">
            {eventsError}
          </p>
        )}
      </fieldset>
      <FormError message={general} />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {t("webhooks.create")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
