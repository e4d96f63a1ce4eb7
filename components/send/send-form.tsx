"use client";
import { useEffect, useMemo, useState } from "react";
import Link from "next/link";
import { useForm, useWatch, type FieldPath } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { placeholderKeys } from "@/lib/templates/schemas";
import { useBots, useCampaigns, useSendTemplate, useTemplates, useWaNumbers } from "@/lib/api-client/hooks";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useT } from "@/lib/i18n";
import { Button, Card, ErrorBox, Field, inputClass, PageTitle, Skeleton } from "@/components/ui";
import { TemplatePicker } from "./template-picker";
import { AttachmentField } from "./attachment-field";
import { TemplatePreview } from "./template-preview";

type FormValues = z.input<typeof sendTemplateInput>;
type Sent = { updateId: string; message: string; waNumber: string; destination: string };

const emptyToNull = (v: unknown) => (v === "" ? null : v);

/**
 * The template send form: validated in the browser with the server's own zod schema, then the
 * server's 422 answers are put beside the field they name (`body_params.0.value`, `bot_id`, …).
 */
export function SendForm({ preset, embedded }: { preset?: { waNumber: string; destination: string }; embedded?: boolean } = {}) {
  const t = useT();
  const numbers = useWaNumbers();
  const bots = useBots();
  const campaigns = useCampaigns();
  const send = useSendTemplate();
  const [sent, setSent] = useState<Sent | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);

  const form = useForm<FormValues>({
    resolver: zodResolver(sendTemplateInput, undefined, { raw: true }),
    defaultValues: {
      wa_number: preset?.waNumber ?? "",
      destination: preset?.destination ?? "",
      template_name: "",
      header_param: null,
      body_params: [],
      media_path: null,
      response_handler: "CAMPAIGN",
      campaign_id: null,
      bot_id: null,
      sent_group: "",
    },
  });
  const { register, setValue, handleSubmit, setError, clearErrors, formState, control } = form;
  const errors = formState.errors as Record<string, unknown>;
  const waNumber = useWatch({ control, name: "wa_number" });
  const templateName = useWatch({ control, name: "template_name" });
  const headerParam = useWatch({ control, name: "header_param" });
  const bodyParams = useWatch({ control, name: "body_params" });
  const mediaPath = useWatch({ control, name: "media_path" });
  const handler = useWatch({ control, name: "response_handler" });

  const templates = useTemplates(waNumber);
  const template = useMemo(() => templates.data?.find((tp) => tp.name === templateName), [templates.data, templateName]);
  const header = template?.components.find((c) => c.type === "HEADER");
  const body = template?.components.find((c) => c.type === "BODY");
  const headerKeys = header?.format === "TEXT" ? placeholderKeys(header.text) : [];
  const bodyKeys = placeholderKeys(body && "text" in body ? body.text : undefined);

  // The first number is preselected: most teams have exactly one.
  useEffect(() => {
    if (!waNumber && numbers.data?.length) setValue("wa_number", numbers.data[0].number);
  }, [numbers.data, waNumber, setValue]);

  function chooseTemplate(name: string) {
    const tp = templates.data?.find((x) => x.name === name);
    const h = tp?.components.find((c) => c.type === "HEADER");
    const b = tp?.components.find((c) => c.type === "BODY");
    const hk = h?.format === "TEXT" ? placeholderKeys(h.text) : [];
    setValue("template_name", name, { shouldValidate: formState.isSubmitted });
    setValue("header_param", hk.length ? { key: hk[0], value: "" } : null);
    setValue(
      "body_params",
      placeholderKeys(b && "text" in b ? b.text : undefined).map((key) => ({ key, value: "" })),
    );
    setValue("media_path", null);
    setMediaName(null);
    clearErrors();
  }

  const headerValues = headerParam?.key ? { [headerParam.key]: headerParam.value ?? "" } : {};
  const bodyValues = Object.fromEntries((bodyParams ?? []).map((p) => [p.key, p.value ?? ""]));
  const onlyFilled = (vals: Record<string, string>) => Object.fromEntries(Object.entries(vals).filter(([, v]) => v));

  const onSubmit = handleSubmit(async (values) => {
    setGeneralError(null);
    setSent(null);
    const body: Record<string, unknown> = { ...values };
    if (values.response_handler === "CAMPAIGN") delete body.bot_id;
    if (values.response_handler === "CHATBOT") delete body.campaign_id;
    if (!values.sent_group) delete body.sent_group;
    if (!values.media_path) delete body.media_path;
    try {
      const res = await send.mutateAsync(body);
      setSent({ updateId: res.data.update_id, message: res.message, waNumber: values.wa_number, destination: values.destination });
    } catch (err) {
      if (!(err instanceof ApiRequestError)) return setGeneralError(String(err));
      const entries = Object.entries(err.errors);
      const placed = entries.filter(([field]) => isShownField(field, headerKeys.length > 0, !!header && header.format !== "TEXT"));
      for (const [field, msgs] of placed) setError(field as FieldPath<FormValues>, { type: "server", message: msgs[0] });
      if (placed.length === 0 || placed.length < entries.length || err.status !== 422) setGeneralError(err.message);
    }
  });

  const fieldError = (path: string): string | undefined => {
    let node: unknown = errors;
    for (const part of path.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    const msg = node && typeof node === "object" ? (node as { message?: unknown }).message : undefined;
    return typeof msg === "string" ? msg : undefined;
  };
  const aria = (path: string) => ({
    "aria-invalid": !!fieldError(path),
    "aria-describedby": fieldError(path) ? `${path}-error` : undefined,
  });

  if (numbers.isError) return <ErrorBox error={numbers.error} onRetry={() => numbers.refetch()} />;

  return (
    <>
      {!embedded && <PageTitle>{t("send.title")}</PageTitle>}
      <div className={embedded ? "grid grid-cols-1 gap-4" : "grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_380px]"}>
        <form onSubmit={onSubmit} noValidate className="min-w-0 space-y-4" aria-label={t("send.title")}>
          <Card className="space-y-4">
            <Field id="wa_number" label={t("send.waNumber")} error={fieldError("wa_number")}>
              {numbers.isLoading ? (
                <Skeleton className="h-9 w-full" />
              ) : (
                <select
                  id="wa_number"
                  className={inputClass}
                  {...register("wa_number", { onChange: () => chooseTemplate("") })}
                  {...aria("wa_number")}
                >
                  {numbers.data?.map((n) => (
                    <option key={n.id} value={n.number}>
                      +{n.number}
                      {n.display_name ? ` · ${n.display_name}` : ""}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <TemplatePicker
              templates={templates.data}
              loading={templates.isLoading}
              value={templateName}
              onChange={chooseTemplate}
              error={fieldError("template_name")}
              disabled={!waNumber}
            />
            {templates.isError && <ErrorBox error={templates.error} onRetry={() => templates.refetch()} />}
            <Field id="destination" label={t("send.destination")} hint={t("send.destinationHint")} error={fieldError("destination")}>
              <input
                id="destination"
                type="tel"
                inputMode="tel"
                autoComplete="off"
                className={inputClass}
                {...register("destination")}
                {...aria("destination")}
              />
            </Field>
          </Card>

          {template && (headerKeys.length > 0 || bodyKeys.length > 0 || (header && header.format !== "TEXT")) && (
            <Card className="space-y-4">
              <h2 className="text-sm font-semibold text-slate-800">{t("send.params")}</h2>
              {headerKeys.length > 0 && (
                <Field
                  id="header_param.value"
                  label={t("send.headerParam", { key: headerKeys[0] })}
                  error={fieldError("header_param.value") ?? fieldError("header_param.key") ?? fieldError("header_param")}
                >
                  <input
                    id="header_param.value"
                    className={inputClass}
                    {...register("header_param.value")}
                    {...aria("header_param.value")}
                  />
                </Field>
              )}
              {bodyKeys.map((key, i) => (
                <Field
                  key={key}
                  id={`body_params.${i}.value`}
                  label={t("send.bodyParam", { key })}
                  error={fieldError(`body_params.${i}.value`) ?? fieldError(`body_params.${i}.key`)}
                >
                  <input
                    id={`body_params.${i}.value`}
                    className={inputClass}
                    {...register(`body_params.${i}.value`)}
                    {...aria(`body_params.${i}.value`)}
                  />
                </Field>
              ))}
              {fieldError("body_params") && (
                <p role="alert" className="text-sm text-red-700" data-field-error="body_params">
                  {fieldError("body_params")}
                </p>
              )}
              {fieldError("header_param") && headerKeys.length === 0 && (
                <p role="alert" className="text-sm text-red-700" data-field-error="header_param">
                  {fieldError("header_param")}
                </p>
              )}
              {header && header.format !== "TEXT" && (
                <AttachmentField
                  key={template.name}
                  format={header.format}
                  defaultMediaPath={template.default_media_path}
                  value={mediaPath ?? null}
                  error={fieldError("media_path")}
                  onChange={(path, name) => {
                    setValue("media_path", path);
                    setMediaName(name);
                    clearErrors("media_path");
                  }}
                />
              )}
            </Card>
          )}

          <Card className="space-y-4">
            <fieldset className="min-w-0 space-y-4">
              <legend className="text-sm font-semibold text-slate-800">{t("send.routing")}</legend>
              <Field id="response_handler" label={t("send.responseHandler")} error={fieldError("response_handler")}>
                <select id="response_handler" className={inputClass} {...register("response_handler")} {...aria("response_handler")}>
                  <option value="CAMPAIGN">{t("send.handler.CAMPAIGN")}</option>
                  <option value="CHATBOT">{t("send.handler.CHATBOT")}</option>
                </select>
              </Field>
              {handler === "CHATBOT" ? (
                <Field id="bot_id" label={t("send.bot")} error={fieldError("bot_id")}>
                  <select id="bot_id" className={inputClass} {...register("bot_id", { setValueAs: emptyToNull })} {...aria("bot_id")}>
                    <option value="">{t("common.choose")}</option>
                    {bots.data?.map((b) => (
                      <option key={b.id} value={String(b.id)}>
                        {b.name}
                      </option>
                    ))}
                  </select>
                </Field>
              ) : (
                <Field id="campaign_id" label={t("send.campaign")} error={fieldError("campaign_id")}>
                  <select
                    id="campaign_id"
                    className={inputClass}
                    {...register("campaign_id", { setValueAs: emptyToNull })}
                    {...aria("campaign_id")}
                  >
                    <option value="">{t("send.campaignNone")}</option>
                    {campaigns.data?.map((c) => (
                      <option key={c.id} value={String(c.id)}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </Field>
              )}
            </fieldset>
            <Field id="sent_group" label={t("send.sentGroup")} hint={t("send.sentGroupHint")} error={fieldError("sent_group")}>
              <input id="sent_group" className={inputClass} {...register("sent_group")} {...aria("sent_group")} />
            </Field>
          </Card>

          {generalError && (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="send-error">
              {generalError}
            </p>
          )}
          {sent && (
            <div
              role="status"
              className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
              data-testid="send-success"
            >
              <p>
                {sent.message} <span className="font-mono text-xs">({sent.updateId})</span>
              </p>
              <Link
                className="font-medium text-wa-green-dark underline"
                href={`/conversations?wa_number=${encodeURIComponent(sent.waNumber)}&customer=${encodeURIComponent(sent.destination)}&update_id=${sent.updateId}`}
              >
                {t("send.viewMessage")}
              </Link>
            </div>
          )}
          <Button type="submit" disabled={send.isPending || formState.isSubmitting} className="w-full sm:w-auto">
            {send.isPending ? t("send.submitting") : t("send.submit")}
          </Button>
        </form>
        <aside aria-label={t("send.preview")} className="lg:sticky lg:top-4 lg:self-start">
          <TemplatePreview
            template={template}
            headerValues={onlyFilled(headerValues)}
            bodyValues={onlyFilled(bodyValues)}
            mediaUrl={
              mediaPath
                ? `/api/v1/media/${mediaPath}`
                : template?.default_media_path
                  ? `/api/v1/media/${template.default_media_path}`
                  : null
            }
            mediaName={mediaName}
          />
        </aside>
      </div>
    </>
  );
}

/** Server error keys that have a place in the form; the rest go to the general message. */
function isShownField(field: string, hasHeaderInput: boolean, hasAttachment: boolean): boolean {
  if (
    ["wa_number", "destination", "template_name", "response_handler", "campaign_id", "bot_id", "sent_group", "body_params"].includes(field)
  )
    return true;
  if (/^body_params\.\d+\.(key|value)$/.test(field)) return true;
  if (field.startsWith("header_param")) return hasHeaderInput || field === "header_param";
  if (field === "media_path") return hasAttachment;
  return false;
}
