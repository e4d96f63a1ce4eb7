"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { newIdempotencyKey } from "@/lib/api-client/idempotency";
import Link from "next/link";
import { useForm, useWatch, type FieldError, type FieldPath, type Resolver } from "react-hook-form";
import { toNestErrors } from "@hookform/resolvers";
import type { z } from "zod";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { placeholderKeys } from "@/lib/templates/schemas";
import { contextOf, dynamicUrlButtons, exampleOf, buttonExampleValue } from "@/lib/templates/params";
import { sanitizeNumber } from "@/lib/phone";
import { noCountryCodeMessage, resolveTypedNumber } from "@/lib/phone-country";
import { MARKETING_OPTED_OUT } from "@/lib/contacts/schemas";
import { findSentConversation, useSendTemplate } from "@/lib/api-client/send";
import { useSendingNumbers, useTemplates } from "@/lib/api-client/numbers";
import { useTeamSettings } from "@/lib/api-client/team-settings";
import { useContactByNumber } from "@/lib/api-client/contacts";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { placeSendError, type SendFormShape } from "@/lib/api-client/send-errors";
import type { Contact, Template } from "@/lib/api-client/types";
import { useT, type Translate } from "@/lib/i18n";
import { Button, Card, cx, ErrorBox, Field, inputClass, PageTitle } from "@/components/ui";
import { TemplateChoice } from "./template-choice";
import { RoutingFields } from "./routing-fields";
import { AttachmentField } from "./attachment-field";
import { TemplatePreview } from "./template-preview";
import { DestinationPicker } from "./destination-picker";
import { MarketingOptOut } from "@/components/contacts/marketing-opt-out";

type FormValues = z.input<typeof sendTemplateInput>;
type Sent = { name: string; href: string };
/** An error as the schema or the API gave it: its request path and exact Spanish text (worded for the UI when shown). */
type RawError = { path: string; message: string };

const emptyToNull = (v: unknown) => (v === "" ? null : v);

/** What the form holds for a template: one input per header/body variable and per dynamic URL button. */
function templateFields(tp: Template | undefined) {
  const header = tp?.components.find((c) => c.type === "HEADER");
  const body = tp?.components.find((c) => c.type === "BODY");
  const headerKeys = header?.format === "TEXT" ? placeholderKeys(header.text) : [];
  const bodyKeys = placeholderKeys(body && "text" in body ? body.text : undefined);
  const buttons = tp ? dynamicUrlButtons(tp.components) : [];
  return { header, body, headerKeys, bodyKeys, buttons };
}

/** The shape placeSendError needs: the form's inputs and their visible labels. */
function formShape(tp: Template | undefined, t: Translate): SendFormShape {
  const f = templateFields(tp);
  const fixed: Record<string, string> = {
    wa_number: t("send.waNumber"),
    destination: t("send.destination"),
    template_name: t("send.template"),
    media_path: t("send.attachment"),
    response_handler: t("send.responseHandler"),
    campaign_id: t("send.campaign"),
    bot_id: t("send.bot"),
    sent_group: t("send.sentGroup"),
  };
  return {
    bodyKeys: f.bodyKeys,
    buttonIndexes: f.buttons.map((b) => b.index),
    hasHeaderInput: f.headerKeys.length > 0,
    hasAttachment: !!f.header && f.header.format !== "TEXT",
    label: (path) => {
      if (path in fixed) return fixed[path];
      if (path.startsWith("header_param")) return t("send.headerParam", { key: f.headerKeys[0] ?? "" });
      const body = /^body_params\.(\d+)/.exec(path);
      if (body) return t("send.bodyParam", { key: f.bodyKeys[Number(body[1])] ?? "" });
      const button = /^button_params\.(\d+)/.exec(path);
      const b = button ? f.buttons[Number(button[1])] : undefined;
      if (b) return t("send.buttonParam", { text: b.text, key: placeholderKeys(b.url)[0] ?? "1" });
      return path;
    },
  };
}

/**
 * The browser-side check with the server's own zod schema. Each issue is kept with its request
 * path and Spanish text (the `type` and `message` of the field error) and placed on the input
 * placeSendError picks; the text is worded in the UI's language only when shown, so switching
 * language rewords the errors on screen. Before it, a number typed without its country code is
 * completed from the team's default country (`3005551234` → `+573005551234`) or refused: it is
 * never sent as typed (lib/phone-country.ts).
 */
function sendResolver(t: Translate, defaultCountry: string | null): Resolver<FormValues, SendFormShape> {
  return async (raw, shape, options) => {
    const typed = resolveTypedNumber(raw.destination ?? "", defaultCountry);
    const values = typed.kind === "international" || typed.kind === "completed" ? { ...raw, destination: `+${typed.digits}` } : raw;
    const result = await sendTemplateInput.safeParseAsync(values);
    const flat: Record<string, FieldError> = {};
    if (typed.kind === "noCountryCode") flat.destination = { type: "destination", message: noCountryCodeMessage(typed) };
    if (result.success)
      return Object.keys(flat).length ? { values: {}, errors: toNestErrors<FormValues>(flat, options) } : { values, errors: {} };
    for (const iss of result.error.issues) {
      const path = iss.path.map(String).join(".");
      const field = placeSendError(path, iss.message, shape ?? formShape(undefined, t), t).field ?? "root.general";
      flat[field] ??= { type: path, message: iss.message };
    }
    return { values: {}, errors: toNestErrors<FormValues>(flat, options) };
  };
}

/**
 * The template send form. Validated in the browser with the server's own schema; every error,
 * the schema's or the API's 422, is shown beside the input it concerns, naming that input as the
 * agent sees it ("Cuerpo {{2}}: obligatorio"). Each submit attempt carries an Idempotency-Key,
 * kept for a retry of the same values, so a double click or a retry never sends twice.
 */
export function SendForm({ preset, embedded }: { preset?: { waNumber: string; destination: string }; embedded?: boolean } = {}) {
  const t = useT();
  const numbers = useSendingNumbers();
  const send = useSendTemplate();
  const [sent, setSent] = useState<Sent | null>(null);
  const [generalErrors, setGeneralErrors] = useState<RawError[]>([]);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const [picked, setPicked] = useState<Contact | null>(null);
  // Bumped on each reset, so the attachment's file input starts empty.
  const [round, setRound] = useState(0);
  const attempt = useRef<{ key: string; body: string } | null>(null);
  const inFlight = useRef(false);
  // The template (hence the shape) is only known from the form's own values: the resolver gets it as context.
  const [shapeForResolver, setShapeForResolver] = useState<SendFormShape | undefined>(undefined);
  const settings = useTeamSettings();
  const defaultCountry = settings.data?.default_country ?? null;
  const resolver = useMemo(() => sendResolver(t, defaultCountry), [t, defaultCountry]);
  const form = useForm<FormValues, SendFormShape>({
    resolver,
    context: shapeForResolver,
    defaultValues: {
      wa_number: preset?.waNumber ?? "",
      destination: preset?.destination ?? "",
      template_name: "",
      header_param: null,
      body_params: [],
      button_params: [],
      media_path: null,
      response_handler: "CAMPAIGN",
      campaign_id: null,
      bot_id: null,
      sent_group: "",
    },
  });
  const { register, setValue, handleSubmit, setError, clearErrors, formState, control, getValues, reset } = form;
  const errors = formState.errors as Record<string, unknown>;
  const waNumber = useWatch({ control, name: "wa_number" });
  const destination = useWatch({ control, name: "destination" });
  const templateName = useWatch({ control, name: "template_name" });
  const headerParam = useWatch({ control, name: "header_param" });
  const bodyParams = useWatch({ control, name: "body_params" });
  const buttonParams = useWatch({ control, name: "button_params" });
  const mediaPath = useWatch({ control, name: "media_path" });
  const handler = useWatch({ control, name: "response_handler" });

  const templates = useTemplates(waNumber);
  const template = useMemo(() => templates.data?.find((tp) => tp.name === templateName), [templates.data, templateName]);
  const { header, body, headerKeys, bodyKeys, buttons } = templateFields(template);
  // The number the send will go to (completed from the default country), and its contact if the team has one.
  const typed = resolveTypedNumber(destination ?? "", defaultCountry);
  const sendDigits = typed.kind === "international" || typed.kind === "completed" ? typed.digits : null;
  const known = useContactByNumber(sendDigits);
  // The cached contact first: re-subscribing (below) patches it, not the picked copy.
  const contact = known ?? (picked && picked.customer_number === sendDigits ? picked : null);
  // Refused before submit, as the server would: a MARKETING template to a contact who opted out.
  const optOutBlock = template?.category === "MARKETING" && contact?.marketing_opt_out ? contact : null;
  const shape = useMemo(() => formShape(template, t), [template, t]);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the shape depends on values the form itself holds
    setShapeForResolver(shape);
  }, [shape]);

  // The first number is preselected: most teams have exactly one.
  useEffect(() => {
    if (!waNumber && numbers.data?.length) setValue("wa_number", numbers.data[0].number);
  }, [numbers.data, waNumber, setValue]);

  /** Empty inputs for every value the template takes. */
  const blankParams = useCallback(
    (name: string) => {
      const f = templateFields(templates.data?.find((x) => x.name === name));
      return {
        header_param: f.headerKeys.length ? { key: f.headerKeys[0], value: "" } : null,
        body_params: f.bodyKeys.map((key) => ({ key, value: "" })),
        button_params: f.buttons.map((b) => ({ index: b.index, value: "" })),
      };
    },
    [templates.data],
  );

  function chooseTemplate(name: string) {
    const blank = blankParams(name);
    setValue("template_name", name, { shouldValidate: formState.isSubmitted });
    setValue("header_param", blank.header_param);
    setValue("body_params", blank.body_params);
    setValue("button_params", blank.button_params);
    setValue("media_path", null);
    setMediaName(null);
    setGeneralErrors([]);
    clearErrors();
  }

  const headerValues = headerParam?.key ? { [headerParam.key]: headerParam.value ?? "" } : {};
  const bodyValues = Object.fromEntries((bodyParams ?? []).map((p) => [p.key, p.value ?? ""]));
  const buttonValues = Object.fromEntries((buttonParams ?? []).filter((b) => b.value).map((b) => [Number(b.index), b.value]));
  const onlyFilled = (vals: Record<string, string>) => Object.fromEntries(Object.entries(vals).filter(([, v]) => v));

  const submitValid = async (values: FormValues) => {
    // A second click while the first is on its way adds nothing (its key would be the same anyway).
    if (inFlight.current) return;
    if (optOutBlock) return setError("destination", { type: "destination", message: MARKETING_OPTED_OUT });
    setGeneralErrors([]);
    setSent(null);
    const request: Record<string, unknown> = { ...values };
    if (values.response_handler === "CAMPAIGN") delete request.bot_id;
    if (values.response_handler === "CHATBOT") delete request.campaign_id;
    if (!values.sent_group) delete request.sent_group;
    if (!values.media_path) delete request.media_path;
    if (!values.button_params?.length) delete request.button_params;
    // Same values as the attempt that failed or is unanswered: the same key, so it is sent at most once.
    const bodyText = JSON.stringify(request);
    if (attempt.current?.body !== bodyText) attempt.current = { key: newIdempotencyKey("send"), body: bodyText };
    inFlight.current = true;
    try {
      await send.mutateAsync({ body: request, idempotencyKey: attempt.current.key });
      attempt.current = null;
      const number = sanitizeNumber(values.destination);
      const conversation = await findSentConversation(values.wa_number, number).catch(() => null);
      const name = conversation?.contact.name || (picked?.customer_number === number ? picked.name : "") || `+${number}`;
      const manyNumbers = (numbers.data?.length ?? 0) > 1;
      setSent({
        name,
        // The conversation in the inbox (where the agent answers); the history viewer when it is not listed yet.
        href: conversation
          ? `/inbox?c=${conversation.id}${manyNumbers ? `&wa_number=${encodeURIComponent(values.wa_number)}` : ""}`
          : `/history?wa_number=${encodeURIComponent(values.wa_number)}&customer=${encodeURIComponent(number)}`,
      });
      // A new send of the same template: same number, template and routing, empty recipient and values.
      reset({ ...getValues(), destination: preset?.destination ?? "", media_path: null, ...blankParams(values.template_name) });
      setMediaName(null);
      setPicked(null);
      setRound((r) => r + 1);
    } catch (err) {
      if (!(err instanceof ApiRequestError)) return setGeneralErrors([{ path: "", message: String(err) }]);
      const loose: RawError[] = [];
      for (const [path, msgs] of Object.entries(err.errors)) {
        const field = placeSendError(path, msgs[0], shape, t).field;
        if (field) setError(field as FieldPath<FormValues>, { type: path, message: msgs[0] });
        else loose.push({ path, message: msgs[0] });
      }
      if (Object.keys(err.errors).length === 0) loose.push({ path: err.status === 403 ? "media_path" : "", message: err.message });
      setGeneralErrors(loose);
    } finally {
      inFlight.current = false;
    }
  };

  /** The error beside an input, worded now (in the UI's current language). */
  const fieldError = (path: string): string | undefined => {
    let node: unknown = errors;
    for (const part of path.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    const e = node && typeof node === "object" ? (node as { message?: unknown; type?: unknown }) : undefined;
    if (typeof e?.message !== "string") return undefined;
    return placeSendError(typeof e.type === "string" ? e.type : path, e.message, shape, t).message;
  };
  const aria = (path: string, hint = false) => ({
    "aria-invalid": !!fieldError(path),
    "aria-describedby": fieldError(path) ? `${path}-error` : hint ? `${path}-hint` : undefined,
  });
  const rootError = (errors.root as Record<string, { type?: string; message?: string }> | undefined)?.general;
  const shownGeneral = [...(rootError?.message ? [{ path: rootError.type ?? "", message: rootError.message }] : []), ...generalErrors].map(
    (e) => placeSendError(e.path, e.message, shape, t).message,
  );

  if (numbers.isError) return <ErrorBox error={numbers.error} onRetry={() => numbers.refetch()} />;

  const bodyText = body && "text" in body ? body.text : undefined;
  const headerExamples = header?.format === "TEXT" ? header.example?.header_text : undefined;
  const bodyExamples = body && body.type === "BODY" ? body.example?.body_text?.[0] : undefined;

  return (
    <>
      {!embedded && <PageTitle>{t("send.title")}</PageTitle>}
      <form
        onSubmit={(e) => void handleSubmit(submitValid)(e)}
        noValidate
        aria-label={t("send.title")}
        // Phone: one column in DOM order (fields, preview, Send). Desktop: the preview beside the fields.
        className={embedded ? "grid grid-cols-1 gap-4" : "grid grid-cols-1 gap-x-6 gap-y-4 lg:grid-cols-[minmax(0,1fr)_380px]"}
      >
        <div className={cx("min-w-0 space-y-4", !embedded && "lg:col-start-1")}>
          <Card className="space-y-4">
            <TemplateChoice
              numbers={numbers}
              numberSelect={register("wa_number", { onChange: () => chooseTemplate("") })}
              numberError={fieldError("wa_number")}
              waNumber={waNumber}
              templates={templates}
              templateName={templateName}
              onTemplate={chooseTemplate}
              templateError={fieldError("template_name")}
            />
            <Field
              id="destination"
              label={t("send.destination")}
              hint={
                picked && picked.customer_number === sendDigits
                  ? t("send.contactChosen", { name: picked.name || `+${picked.customer_number}` })
                  : sendDigits
                    ? t("send.willSendTo", { number: `+${sendDigits}` })
                    : t("send.destinationSearchHint")
              }
              error={fieldError("destination")}
            >
              <DestinationPicker
                id="destination"
                value={destination ?? ""}
                onChange={(v) => {
                  setValue("destination", v, { shouldValidate: formState.isSubmitted });
                  if (picked && sanitizeNumber(v) !== picked.customer_number) setPicked(null);
                }}
                onPick={setPicked}
                invalid={!!fieldError("destination")}
                describedBy={fieldError("destination") ? "destination-error" : "destination-hint"}
              />
            </Field>
            {optOutBlock && template && (
              <div
                role="alert"
                data-testid="send-opt-out"
                className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
              >
                <p className="font-medium">
                  {t("send.optOutBlocked", { name: optOutBlock.name || `+${optOutBlock.customer_number}`, template: template.name })}
                </p>
                <MarketingOptOut contact={optOutBlock} />
                <p className="text-amber-800">{t("send.optOutResubscribe")}</p>
              </div>
            )}
          </Card>

          {template && (headerKeys.length > 0 || bodyKeys.length > 0 || buttons.length > 0 || (header && header.format !== "TEXT")) && (
            <Card className="space-y-4">
              <h2 className="text-sm font-semibold text-slate-800">{t("send.params")}</h2>
              {headerKeys.length > 0 && (
                <Field
                  id="header_param.value"
                  label={t("send.headerParam", { key: headerKeys[0] })}
                  hint={hintOf(t, header?.text, headerKeys[0])}
                  error={fieldError("header_param.value")}
                >
                  <input
                    id="header_param.value"
                    className={inputClass}
                    placeholder={exampleOf(header?.text, headerExamples, headerKeys[0])}
                    {...register("header_param.value")}
                    {...aria("header_param.value", true)}
                  />
                </Field>
              )}
              {bodyKeys.map((key, i) => (
                <Field
                  key={key}
                  id={`body_params.${i}.value`}
                  label={t("send.bodyParam", { key })}
                  hint={hintOf(t, bodyText, key)}
                  error={fieldError(`body_params.${i}.value`)}
                >
                  <input
                    id={`body_params.${i}.value`}
                    className={inputClass}
                    placeholder={exampleOf(bodyText, bodyExamples, key)}
                    {...register(`body_params.${i}.value`)}
                    {...aria(`body_params.${i}.value`, true)}
                  />
                </Field>
              ))}
              {buttons.map((b, i) => (
                <Field
                  key={b.index}
                  id={`button_params.${i}.value`}
                  label={t("send.buttonParam", { text: b.text, key: placeholderKeys(b.url)[0] ?? "1" })}
                  hint={t("send.buttonHint", { url: b.url })}
                  error={fieldError(`button_params.${i}.value`)}
                >
                  <input
                    id={`button_params.${i}.value`}
                    className={inputClass}
                    placeholder={buttonExampleValue(b)}
                    {...register(`button_params.${i}.value`)}
                    {...aria(`button_params.${i}.value`, true)}
                  />
                </Field>
              ))}
              {header && header.format !== "TEXT" && (
                <AttachmentField
                  key={`${template.name}-${round}`}
                  format={header.format}
                  label={t("send.attachment")}
                  defaultMediaPath={template.default_media_path}
                  value={mediaPath ?? null}
                  fileName={mediaName}
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
            <RoutingFields
              handler={handler}
              // The bot and campaign ids are select values: "" (none chosen) is sent as null.
              bind={(f) => register(f, f === "response_handler" ? undefined : { setValueAs: emptyToNull })}
              errors={{
                response_handler: fieldError("response_handler"),
                bot_id: fieldError("bot_id"),
                campaign_id: fieldError("campaign_id"),
              }}
            />
            <Field id="sent_group" label={t("send.sentGroup")} hint={t("send.sentGroupHint")} error={fieldError("sent_group")}>
              <input id="sent_group" className={inputClass} {...register("sent_group")} {...aria("sent_group", true)} />
            </Field>
          </Card>
        </div>

        <aside
          aria-label={t("send.preview")}
          className={cx("min-w-0", !embedded && "lg:sticky lg:top-4 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-start")}
        >
          <TemplatePreview
            template={template}
            headerValues={onlyFilled(headerValues)}
            bodyValues={onlyFilled(bodyValues)}
            buttonValues={buttonValues}
            mediaUrl={
              mediaPath
                ? `/api/v1/media/${mediaPath}`
                : template?.default_media_path
                  ? /^https?:\/\//i.test(template.default_media_path)
                    ? template.default_media_path
                    : `/api/v1/media/${template.default_media_path}`
                  : null
            }
            mediaName={mediaName}
          />
        </aside>

        <div className={cx("min-w-0 space-y-4", !embedded && "lg:col-start-1")}>
          {shownGeneral.length > 0 && (
            <div
              role="alert"
              className="space-y-1 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
              data-testid="send-error"
            >
              {shownGeneral.map((m, i) => (
                <p key={i}>{m}</p>
              ))}
            </div>
          )}
          {sent && (
            <div
              role="status"
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
              data-testid="send-success"
            >
              <p>{t("send.sentTo", { name: sent.name })}</p>
              <Link className="font-medium text-wa-green-dark underline" href={sent.href}>
                {t("send.openConversation")}
              </Link>
            </div>
          )}
          <Button type="submit" disabled={send.isPending || formState.isSubmitting} className="w-full sm:w-auto">
            {send.isPending ? t("send.submitting") : t("send.submit")}
          </Button>
        </div>
      </form>
    </>
  );
}

function hintOf(t: Translate, text: string | undefined, key: string) {
  const context = contextOf(text, key);
  return context ? t("send.paramHint", { context }) : undefined;
}
