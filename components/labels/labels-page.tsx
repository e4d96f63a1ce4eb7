"use client";
import { useState } from "react";
import Link from "next/link";
import { useForm, useWatch } from "react-hook-form";
import type { Label, LabelListItem } from "@/lib/api-client/types";
import { useLabelMutations, useLabels, type LabelInput } from "@/lib/api-client/labels";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { createLabelBody, DEFAULT_LABEL_COLORS, type CreateLabelInput } from "@/lib/labels/schemas";
import { useT } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Card, EmptyState, ErrorBox, Field, FormError, inputClass, PageTitle, SkeletonRows } from "@/components/ui";
import { contrast, LabelChip } from "./label-chip";

/** Label management: create, rename, recolour, delete. */
export function LabelsPage() {
  const t = useT();
  const labels = useLabels();
  const { create } = useLabelMutations();
  return (
    <>
      <PageTitle>{t("labels.title")}</PageTitle>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[360px_minmax(0,1fr)]">
        {/* self-start: as tall as its form, not stretched to the list beside it (a grid row's default). */}
        <Card className="self-start">
          <h2 className="mb-3 text-sm font-semibold">{t("labels.new")}</h2>
          <LabelForm
            idPrefix="new"
            submitText={t("labels.create")}
            pending={create.isPending}
            error={create.error}
            onSubmit={(v, reset) => create.mutate(v, { onSuccess: reset })}
          />
        </Card>
        <div>
          {labels.isError ? (
            <ErrorBox error={labels.error} onRetry={() => labels.refetch()} />
          ) : labels.isLoading ? (
            <SkeletonRows rows={6} />
          ) : !labels.data?.length ? (
            <EmptyState>{t("labels.empty")}</EmptyState>
          ) : (
            <ul className="space-y-2">
              {labels.data.map((l) => (
                <LabelRow key={l.id} label={l} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  );
}

function LabelRow({ label }: { label: LabelListItem }) {
  const t = useT();
  const { update, remove } = useLabelMutations();
  const [editing, setEditing] = useState(false);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid="label-row" data-label-id={label.id}>
      {editing ? (
        <LabelForm
          idPrefix={`edit-${label.id}`}
          initial={label}
          submitText={t("common.save")}
          pending={update.isPending}
          error={update.error}
          onCancel={() => setEditing(false)}
          onSubmit={(v) => update.mutate({ id: label.id, ...v }, { onSuccess: () => setEditing(false) })}
        />
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="min-w-0">
            <LabelChip label={label} />
            {label.description && <p className="mt-1 text-xs text-slate-600">{label.description}</p>}
            <p className="mt-1 text-xs">
              <Link href={`/contacts?label_id=${label.id}`} className="text-wa-green-dark underline" data-testid="label-contacts-count">
                {label.contacts_count === 1 ? t("labels.contactsOne") : t("labels.contactsMany", { count: label.contacts_count })}
                <span className="sr-only"> {t("labels.withTitle", { title: label.title })}</span>
              </Link>
            </p>
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`${t("common.edit")}: ${label.title}`}>
              {t("common.edit")}
            </Button>
            <Button
              variant="danger"
              disabled={remove.isPending}
              aria-label={`${t("common.delete")}: ${label.title}`}
              onClick={() => {
                if (window.confirm(t("labels.confirmDelete", { title: label.title }))) remove.mutate(label.id);
              }}
            >
              {t("common.delete")}
            </Button>
          </div>
          {remove.error && (
            <p role="alert" className="w-full text-sm text-red-700">
              {remove.error.message}
            </p>
          )}
        </div>
      )}
    </li>
  );
}

type FormProps = {
  idPrefix: string;
  initial?: Label;
  submitText: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (v: LabelInput, reset: () => void) => void;
  onCancel?: () => void;
};

function LabelForm({ idPrefix, initial, submitText, pending, error, onSubmit, onCancel }: FormProps) {
  const t = useT();
  const blank: LabelInput = { title: "", description: "", ...DEFAULT_LABEL_COLORS };
  // Checked in the browser with the route's own schema (messages in the UI's language), then by the server.
  const resolver = useLocalizedResolver(createLabelBody, {
    title: t("labels.titleField"),
    description: t("labels.description"),
    bg_color: t("labels.bg"),
    text_color: t("labels.text"),
  });
  const { register, handleSubmit, reset, control, formState } = useForm<LabelInput, unknown, CreateLabelInput>({
    resolver,
    defaultValues: initial
      ? { title: initial.title, description: initial.description ?? "", bg_color: initial.bg_color, text_color: initial.text_color }
      : blank,
  });
  const v = useWatch({ control }) as LabelInput;
  const serverErrs = error instanceof ApiRequestError ? error.errors : {};
  const fieldError = (f: keyof LabelInput) => formState.errors[f]?.message ?? serverErrs[f]?.[0];
  const general = error && !Object.keys(serverErrs).length ? error.message : undefined;
  const id = (f: string) => `${idPrefix}-${f}`;
  const aria = (f: keyof LabelInput) => ({
    "aria-invalid": !!fieldError(f),
    "aria-describedby": fieldError(f) ? `${id(f)}-error` : undefined,
  });
  const submit = handleSubmit((values) => onSubmit(values, () => reset(blank)));

  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <Field id={id("title")} label={t("labels.titleField")} error={fieldError("title")}>
        <input id={id("title")} className={inputClass} {...register("title")} {...aria("title")} />
      </Field>
      <Field id={id("description")} label={t("labels.description")} error={fieldError("description")}>
        <input id={id("description")} className={inputClass} {...register("description")} {...aria("description")} />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field id={id("bg_color")} label={t("labels.bg")} error={fieldError("bg_color")}>
          <input
            id={id("bg_color")}
            type="color"
            className="h-9 w-full cursor-pointer rounded border border-slate-300"
            {...register("bg_color")}
            {...aria("bg_color")}
          />
        </Field>
        <Field id={id("text_color")} label={t("labels.text")} error={fieldError("text_color")}>
          <input
            id={id("text_color")}
            type="color"
            className="h-9 w-full cursor-pointer rounded border border-slate-300"
            {...register("text_color")}
            {...aria("text_color")}
          />
        </Field>
      </div>
      <p className="flex items-center gap-2 text-xs text-slate-600">
        {t("labels.previewChip")}: <LabelChip label={{ title: v.title || "…", bg_color: v.bg_color, text_color: v.text_color }} />
      </p>
      {contrast(v.bg_color, v.text_color) < 4.5 && <p className="text-xs text-amber-900">{t("labels.lowContrast")}</p>}
      <FormError message={general} />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {submitText}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
        )}
      </div>
    </form>
  );
}
