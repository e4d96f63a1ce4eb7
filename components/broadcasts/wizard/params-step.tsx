"use client";
import type { Template } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { Field, inputClass } from "@/components/ui";
import { AttachmentField } from "@/components/send/attachment-field";
import { PARAM_SOURCES, templateParts, type Draft, type Errors, type ParamDraft } from "./draft";

type Props = {
  draft: Draft;
  template: Template | undefined;
  onChange: (patch: Partial<Draft>) => void;
  errors: Errors;
  clearError: (field: string) => void;
};

/** One value per placeholder (a fixed text or a contact column), and the attachment where the header takes one. */
export function ParamsStep({ draft, template, onChange, errors, clearError }: Props) {
  const t = useT();
  const { mediaFormat } = templateParts(template);
  if (!draft.header && draft.body.length === 0 && draft.buttons.length === 0 && !mediaFormat)
    return <p className="text-sm text-slate-700">{t("bc.param.none")}</p>;
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-600">{t("bc.param.hint")}</p>
      {draft.header && (
        <ParamField
          path="header_param.value"
          field={t("send.headerParam", { key: draft.header.key })}
          param={draft.header}
          error={errors["header_param.value"] ?? errors["header_param.key"] ?? errors.header_param}
          onChange={(p) => {
            onChange({ header: p });
            clearError("header_param.value");
          }}
        />
      )}
      {draft.body.map((p, i) => (
        <ParamField
          key={p.key}
          path={`body_params.${i}.value`}
          field={t("send.bodyParam", { key: p.key })}
          param={p}
          error={errors[`body_params.${i}.value`] ?? errors[`body_params.${i}.key`]}
          onChange={(next) => {
            onChange({ body: draft.body.map((x, j) => (j === i ? next : x)) });
            clearError(`body_params.${i}.value`);
          }}
        />
      ))}
      {errors.body_params && (
        <p role="alert" className="text-sm text-red-700" data-field-error="body_params">
          {errors.body_params}
        </p>
      )}
      {draft.buttons.map((b, i) => (
        <ParamField
          key={`button-${b.index}`}
          path={`button_params.${i}.value`}
          field={t("send.buttonParam", { text: b.label, key: b.key })}
          hint={t("send.buttonHint", { url: b.url })}
          param={b}
          error={errors[`button_params.${i}.value`] ?? errors[`button_params.${i}.index`]}
          onChange={(next) => {
            onChange({ buttons: draft.buttons.map((x, j) => (j === i ? { ...x, ...next } : x)) });
            clearError(`button_params.${i}.value`);
          }}
        />
      ))}
      {errors.button_params && (
        <p role="alert" className="text-sm text-red-700" data-field-error="button_params">
          {errors.button_params}
        </p>
      )}
      {mediaFormat && template && (
        <AttachmentField
          key={template.name}
          format={mediaFormat}
          label={t("send.attachment")}
          defaultMediaPath={template.default_media_path}
          value={draft.media_path}
          fileName={draft.media_name}
          error={errors.media_path}
          onChange={(path, name) => {
            onChange({ media_path: path, media_name: name });
            clearError("media_path");
          }}
        />
      )}
    </div>
  );
}

function ParamField({
  path,
  field,
  hint,
  param,
  error,
  onChange,
}: {
  path: string;
  field: string;
  hint?: string;
  param: ParamDraft;
  error?: string;
  onChange: (p: ParamDraft) => void;
}) {
  const t = useT();
  return (
    <fieldset className="min-w-0 space-y-2 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">{field}</legend>
      {hint && <p className="break-all text-xs text-slate-600">{hint}</p>}
      <Field id={`${path}-source`} label={t("bc.param.source", { field })}>
        <select
          id={`${path}-source`}
          className={inputClass}
          value={param.source}
          onChange={(e) => onChange({ ...param, source: e.target.value as ParamDraft["source"] })}
        >
          {PARAM_SOURCES.map((s) => (
            <option key={s} value={s}>
              {s === "fixed" ? t("bc.param.fixed") : `${t(`bc.param.${s}`)} · {{${s}}}`}
            </option>
          ))}
        </select>
      </Field>
      {param.source === "fixed" ? (
        <Field id={path} label={t("bc.param.text", { field })} error={error}>
          <input
            id={path}
            className={inputClass}
            value={param.text}
            onChange={(e) => onChange({ ...param, text: e.target.value })}
            aria-invalid={!!error}
            aria-describedby={error ? `${path}-error` : undefined}
          />
        </Field>
      ) : (
        error && (
          <p id={`${path}-error`} role="alert" className="text-sm text-red-700" data-field-error={path}>
            {error}
          </p>
        )
      )}
    </fieldset>
  );
}
