"use client";
import { useForm, type Resolver } from "react-hook-form";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { createBotInput, type CreateBotInput } from "@/lib/bots/schemas";
import { createCampaignInput, type CreateCampaignInput } from "@/lib/campaigns/schemas";
import { useT } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Field, FormError, inputClass } from "@/components/ui";

type Common = { pending: boolean; error: Error | null; onCancel: () => void; submitLabel: string };
type BotValues = { name: string; is_default: boolean; webhook_url: string | null };
type CampaignValues = { name: string; webhook_url: string | null };

/** An empty URL box means "no webhook": the schema's `null`, not a URL it would refuse. */
function blankUrlAsNull<V extends { webhook_url?: string | null }, O>(resolver: Resolver<V, unknown, O>): Resolver<V, unknown, O> {
  return (values, ctx, opts) => resolver({ ...values, webhook_url: values.webhook_url?.trim() ? values.webhook_url : null }, ctx, opts);
}

function useServerErrors(error: Error | null) {
  const serverErrs = error instanceof ApiRequestError ? error.errors : {};
  const general = error && !Object.keys(serverErrs).length ? error.message : undefined;
  return { serverErrs, general };
}

/** A bot's name, default flag and webhook URL: the same zod schema as `POST /api/v1/bots`. */
export function BotForm({
  initial,
  onSubmit,
  pending,
  error,
  onCancel,
  submitLabel,
}: Common & { initial?: BotValues; onSubmit: (input: CreateBotInput) => void }) {
  const t = useT();
  const localized = useLocalizedResolver(createBotInput, {
    name: t("routing.name"),
    is_default: t("routing.isDefault"),
    webhook_url: t("routing.webhookUrl"),
  });
  const { register, handleSubmit, formState } = useForm({
    resolver: blankUrlAsNull(localized),
    defaultValues: { name: initial?.name ?? "", is_default: initial?.is_default ?? false, webhook_url: initial?.webhook_url ?? "" },
  });
  const { serverErrs, general } = useServerErrors(error);
  const err = (f: "name" | "webhook_url") => formState.errors[f]?.message ?? serverErrs[f]?.[0];
  return (
    <form onSubmit={handleSubmit(onSubmit)} className="space-y-4" noValidate data-testid="bot-form">
      <Field id="bot-name" label={t("routing.name")} error={err("name")}>
        <input id="bot-name" className={inputClass} autoComplete="off" maxLength={100} aria-invalid={!!err("name")} {...register("name")} />
      </Field>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-emerald-700"
          aria-describedby="bot-default-hint"
          {...register("is_default")}
        />
        <span>
          <span className="block font-medium text-slate-800">{t("routing.isDefault")}</span>
          <span id="bot-default-hint" className="block text-xs text-slate-600">
            {t("routing.isDefaultHint")}
          </span>
        </span>
      </label>
      <Field id="bot-webhook_url" label={t("routing.webhookUrl")} hint={t("routing.webhookUrlHint")} error={err("webhook_url")}>
        <input
          id="bot-webhook_url"
          type="url"
          className={inputClass}
          autoComplete="off"
          aria-invalid={!!err("webhook_url")}
          aria-describedby={err("webhook_url") ? "bot-webhook_url-error" : "bot-webhook_url-hint"}
          {...register("webhook_url")}
        />
      </Field>
      <FormError message={general} />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}

/** A campaign's name and webhook URL: the same zod schema as `POST /api/v1/campaigns`. */
export function CampaignForm({
  initial,
  onSubmit,
  pending,
  error,
  onCancel,
  submitLabel,
}: Common & { initial?: CampaignValues; onSubmit: (input: CreateCampaignInput) => void }) {
  const t = useT();
  const localized = useLocalizedResolver(createCampaignInput, { name: t("routing.name"), webhook_url: t("routing.webhookUrl") });
  const { register, handleSubmit, formState } = useForm({
    resolver: blankUrlAsNull(localized),
    defaultValues: { name: initial?.name ?? "", webhook_url: initial?.webhook_url ?? "" },
  });
  const { serverErrs, general } = useServerErrors(error);
  const err = (f: "name" | "webhook_url") => formState.errors[f]?.message ?? serverErrs[f]?.[0];
  return (
    <form onSubmit={handleSubmit(onSubmit)} className="space-y-4" noValidate data-testid="campaign-form">
      <Field id="campaign-name" label={t("routing.name")} error={err("name")}>
        <input
          id="campaign-name"
          className={inputClass}
          autoComplete="off"
          maxLength={100}
          aria-invalid={!!err("name")}
          {...register("name")}
        />
      </Field>
      <Field id="campaign-webhook_url" label={t("routing.webhookUrl")} hint={t("routing.webhookUrlHint")} error={err("webhook_url")}>
        <input
          id="campaign-webhook_url"
          type="url"
          className={inputClass}
          autoComplete="off"
          aria-invalid={!!err("webhook_url")}
          aria-describedby={err("webhook_url") ? "campaign-webhook_url-error" : "campaign-webhook_url-hint"}
          {...register("webhook_url")}
        />
      </Field>
      <FormError message={general} />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
