"use client";
import { useForm, useWatch } from "react-hook-form";
import { ApiRequestError } from "@/lib/api-client/fetch";
import type { SavedReply, SavedReplyInput } from "@/lib/api-client/saved-replies";
import { createSavedReplyBody, SAVED_REPLY_LIMITS, type CreateSavedReplyInput } from "@/lib/saved-replies/schemas";
import { useT } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, cx, Field, FormError, inputClass } from "@/components/ui";
import { Counter } from "@/components/inbox/composer-builders";

type Props = {
  idPrefix: string;
  initial?: SavedReply;
  submitText: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (v: SavedReplyInput, reset: () => void) => void;
  onCancel?: () => void;
};

const blank: SavedReplyInput = { shortcut: "", title: "", content: "" };

/** Create or edit one saved reply, checked with the route's own schema, limits counted as typed. */
export function SavedReplyForm({ idPrefix, initial, submitText, pending, error, onSubmit, onCancel }: Props) {
  const t = useT();
  const resolver = useLocalizedResolver(createSavedReplyBody, {
    shortcut: t("saved.shortcut"),
    title: t("saved.titleField"),
    content: t("saved.content"),
  });
  const { register, handleSubmit, reset, control, formState } = useForm<SavedReplyInput, unknown, CreateSavedReplyInput>({
    resolver,
    defaultValues: initial ? { shortcut: initial.shortcut, title: initial.title, content: initial.content } : blank,
  });
  const v = useWatch({ control }) as SavedReplyInput;
  const serverErrs = error instanceof ApiRequestError ? error.errors : {};
  const fieldError = (f: keyof SavedReplyInput) => formState.errors[f]?.message ?? serverErrs[f]?.[0];
  const general = error && !Object.keys(serverErrs).length ? error.message : undefined;
  const id = (f: string) => `${idPrefix}-${f}`;
  const aria = (f: keyof SavedReplyInput) => ({
    "aria-invalid": !!fieldError(f),
    "aria-describedby": [`${id(f)}-count`, fieldError(f) ? `${id(f)}-error` : ""].filter(Boolean).join(" "),
  });
  const submit = handleSubmit((values) => onSubmit(values, () => reset(blank)));

  return (
    <form onSubmit={submit} className="space-y-3" noValidate data-testid="saved-reply-form">
      <Field id={id("shortcut")} label={t("saved.shortcut")} error={fieldError("shortcut")}>
        <div className="flex items-center gap-2">
          <span aria-hidden="true" className="text-slate-600">
            /
          </span>
          <input id={id("shortcut")} className={inputClass} autoComplete="off" {...register("shortcut")} {...aria("shortcut")} />
          <Counter value={v.shortcut ?? ""} max={SAVED_REPLY_LIMITS.shortcut} id={`${id("shortcut")}-count`} />
        </div>
      </Field>
      <Field id={id("title")} label={t("saved.titleField")} error={fieldError("title")}>
        <div className="flex items-center gap-2">
          <input id={id("title")} className={inputClass} {...register("title")} {...aria("title")} />
          <Counter value={v.title ?? ""} max={SAVED_REPLY_LIMITS.title} id={`${id("title")}-count`} />
        </div>
      </Field>
      <Field id={id("content")} label={t("saved.content")} error={fieldError("content")}>
        <div className="flex items-start gap-2">
          <textarea id={id("content")} rows={4} className={cx(inputClass, "resize-y")} {...register("content")} {...aria("content")} />
          <Counter value={v.content ?? ""} max={SAVED_REPLY_LIMITS.content} id={`${id("content")}-count`} />
        </div>
      </Field>
      <p className="text-xs text-slate-700">{t("saved.variablesHelp")}</p>
      <FormError message={general} />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {submitText}
        </Button>
        {onCancel && (
          <Button variant="secondary" type="button" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
        )}
      </div>
    </form>
  );
}
