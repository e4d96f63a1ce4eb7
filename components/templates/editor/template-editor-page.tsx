"use client";
import Link from "next/link";
import { useEffect, useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useMe } from "@/lib/api-client/auth";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { allows } from "@/lib/auth/permissions";
import { useLiveEvents } from "@/lib/api-client/live-stream";
import { useWaNumbers } from "@/lib/api-client/numbers";
import { useSubmitTemplate, useTemplateList } from "@/lib/api-client/templates";
import {
  BODY_TEXT_MAX,
  DRAFT_CATEGORIES,
  DRAFT_HEADER_FORMATS,
  FOOTER_TEXT_MAX,
  HEADER_TEXT_MAX,
  templateDraftSchema,
  variablesOf,
  type DraftHeader,
  type TemplateDraft,
  type TemplateDraftInput,
} from "@/lib/templates/draft-schema";
import { useT, type MessageKey } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Card, Field, FormError, inputClass, PageTitle } from "@/components/ui";
import { TemplateStatusChip } from "../template-chips";
import { ButtonsEditor } from "./buttons-editor";
import { DraftPreview } from "./draft-preview";

const blank: TemplateDraftInput = {
  wa_number: "",
  name: "",
  language: "es",
  category: "MARKETING",
  header: { format: "NONE" },
  body: { text: "", examples: {} },
  footer: "",
  buttons: [],
};

const headerOf = (format: DraftHeader["format"]): DraftHeader =>
  format === "TEXT" ? { format, text: "", example: "" } : format === "NONE" || format === "LOCATION" ? { format } : { format, example: "" };

/**
 * /templates/new (docs/features/template-editor.md): a template written with the same schema the
 * API checks (lib/templates/draft-schema.ts), its WhatsApp preview beside it as it is typed, a
 * sample for each variable, its buttons; submitted to Meta, whose refusal is shown in its words.
 * Once submitted, its status is followed live (template.updated) until Meta decides.
 */
export function TemplateEditorPage() {
  const t = useT();
  useLiveEvents();
  const numbers = useWaNumbers();
  const submit = useSubmitTemplate();
  const resolver = useLocalizedResolver(templateDraftSchema, {
    wa_number: t("te.number"),
    name: t("te.name"),
    language: t("te.language"),
    "header.text": t("te.headerText"),
    "header.example": t("te.headerMedia"),
    "body.text": t("te.body"),
    footer: t("te.footer"),
  });
  const form = useForm<TemplateDraftInput, unknown, TemplateDraft>({ resolver, defaultValues: blank });
  const { register, handleSubmit, formState, control, setValue } = form;
  const draft = useWatch({ control }) as TemplateDraftInput;
  const available = useMemo(() => (numbers.data ?? []).filter((n) => !n.disabled), [numbers.data]);
  const me = useMe();
  const mayWrite = !me.data?.role || allows({ role: me.data.role }, "templates:write");

  useEffect(() => {
    if (!form.getValues("wa_number") && available[0]) setValue("wa_number", available[0].number);
  }, [available, form, setValue]);

  const serverErrs = submit.error instanceof ApiRequestError ? submit.error.errors : {};
  const serverError = (path: string) => serverErrs[path]?.[0];
  const errorAt = (path: string): string | undefined => {
    const found = path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], formState.errors) as
      { message?: string } | undefined;
    return found?.message ?? serverError(path);
  };
  // Meta's refusal (errors.template) and anything not tied to a field is said above the submit button.
  const fieldKeys = Object.keys(serverErrs).filter((k) => k !== "template");
  const general = submit.error && !fieldKeys.length ? submit.error.message : undefined;

  const headerFormat = draft.header?.format ?? "NONE";
  const bodyKeys = variablesOf(draft.body?.text).keys;
  const headerKey = draft.header?.format === "TEXT" ? variablesOf(draft.header.text).keys[0] : undefined;

  if (submit.data) return <Submitted name={submit.data.name} onAnother={() => (submit.reset(), form.reset(blank))} />;

  return (
    <>
      <PageTitle
        actions={
          <Link href="/templates" className="text-sm font-medium text-emerald-800 underline">
            {t("te.back")}
          </Link>
        }
      >
        {t("te.title")}
      </PageTitle>
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("te.intro")}</p>
      {!mayWrite && (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t("te.notAllowed")}
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <form onSubmit={handleSubmit((d) => submit.mutate(d))} className="space-y-4" noValidate data-testid="template-editor">
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <Field id="te-number" label={t("te.number")} hint={t("te.numberHint")} error={errorAt("wa_number")}>
                <select id="te-number" className={inputClass} {...register("wa_number")}>
                  {available.map((n) => (
                    <option key={n.id} value={n.number}>
                      {n.display_name ? `${n.display_name} (+${n.number})` : `+${n.number}`}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="te-category" label={t("te.category")} hint={t("te.categoryHint")} error={errorAt("category")}>
                <select id="te-category" className={inputClass} {...register("category")}>
                  {DRAFT_CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {t(`te.category.${c}` as MessageKey)}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="te-name" label={t("te.name")} hint={t("te.nameHint")} error={errorAt("name")}>
                <input id="te-name" className={inputClass} autoComplete="off" maxLength={512} {...register("name")} />
              </Field>
              <Field id="te-language" label={t("te.language")} hint={t("te.languageHint")} error={errorAt("language")}>
                <input id="te-language" className={inputClass} autoComplete="off" {...register("language")} />
              </Field>
            </div>

            <Field id="te-header" label={t("te.header")} error={errorAt("header.format")}>
              <select
                id="te-header"
                className={inputClass}
                value={headerFormat}
                onChange={(e) => setValue("header", headerOf(e.target.value as DraftHeader["format"]), { shouldDirty: true })}
              >
                {DRAFT_HEADER_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {t(`te.header.${f}` as MessageKey)}
                  </option>
                ))}
              </select>
            </Field>
            {headerFormat === "TEXT" && (
              <Field id="te-header-text" label={t("te.headerText")} hint={t("te.headerTextHint")} error={errorAt("header.text")}>
                <input id="te-header-text" className={inputClass} maxLength={HEADER_TEXT_MAX} {...register("header.text")} />
              </Field>
            )}
            {(headerFormat === "IMAGE" || headerFormat === "VIDEO" || headerFormat === "DOCUMENT") && (
              <Field id="te-header-media" label={t("te.headerMedia")} hint={t("te.headerMediaHint")} error={errorAt("header.example")}>
                <input id="te-header-media" className={inputClass} inputMode="url" {...register("header.example")} />
              </Field>
            )}

            <Field id="te-body" label={t("te.body")} hint={t("te.bodyHint")} error={errorAt("body.text")}>
              <textarea id="te-body" rows={5} className={inputClass} maxLength={BODY_TEXT_MAX} {...register("body.text")} />
            </Field>

            <fieldset className="space-y-2" data-testid="variable-samples">
              <legend className="text-sm font-medium text-slate-800">{t("te.samples")}</legend>
              <p className="text-xs text-slate-600">{t("te.samplesHint")}</p>
              {!bodyKeys.length && !headerKey && <p className="text-sm text-slate-600">{t("te.noVariables")}</p>}
              {headerKey && (
                <Field id="te-sample-header" label={t("te.sampleOf", { variable: `{{${headerKey}}}` })} error={errorAt("header.example")}>
                  <input id="te-sample-header" className={inputClass} {...register("header.example")} />
                </Field>
              )}
              {bodyKeys.map((key) => (
                <Field
                  key={key}
                  id={`te-sample-${key}`}
                  label={t("te.sampleOf", { variable: `{{${key}}}` })}
                  error={errorAt(`body.examples.${key}`)}
                >
                  <input id={`te-sample-${key}`} className={inputClass} {...register(`body.examples.${key}`)} />
                </Field>
              ))}
            </fieldset>

            <Field id="te-footer" label={t("te.footer")} hint={t("te.footerHint")} error={errorAt("footer")}>
              <input id="te-footer" className={inputClass} maxLength={FOOTER_TEXT_MAX} {...register("footer")} />
            </Field>

            <ButtonsEditor control={control} register={register} errors={formState.errors} serverError={serverError} />

            <FormError message={general ?? serverError("template")} />
            <Button type="submit" disabled={submit.isPending} aria-busy={submit.isPending} data-testid="submit-template">
              {submit.isPending ? t("te.submitting") : t("te.submit")}
            </Button>
          </form>
        </Card>
        <div className="lg:sticky lg:top-4 lg:self-start">
          <DraftPreview draft={draft} />
        </div>
      </div>
    </>
  );
}

/** After the submit: the template's status as the list has it now, refreshed live when Meta (or the sandbox) decides. */
function Submitted({ name, onAnother }: { name: string; onAnother: () => void }) {
  const t = useT();
  const list = useTemplateList({ status: "", search: name, page: 1 });
  const row = list.data?.data.find((x) => x.name === name);
  return (
    <>
      <PageTitle>{t("te.title")}</PageTitle>
      <Card>
        <div role="status" aria-live="polite" className="space-y-2" data-testid="template-submitted">
          <p className="text-sm">
            {t("te.submitted", { name })} {row && <TemplateStatusChip status={row.status} />}
          </p>
          {row?.rejected_reason && row.rejected_reason !== "NONE" && <p className="text-sm text-red-800">{row.rejected_reason}</p>}
          <p className="text-xs text-slate-600">{t("te.submittedHint")}</p>
          <div className="flex gap-3">
            <Link href="/templates" className="text-sm font-medium text-emerald-800 underline">
              {t("te.back")}
            </Link>
            <Button variant="secondary" onClick={onAnother}>
              {t("te.another")}
            </Button>
          </div>
        </div>
      </Card>
    </>
  );
}
