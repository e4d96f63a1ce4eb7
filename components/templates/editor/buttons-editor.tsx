"use client";
import { useFieldArray, type Control, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { BUTTONS_MAX, DRAFT_BUTTON_TYPES, type DraftButton, type TemplateDraftInput } from "@/lib/templates/draft-schema";
import { useT, type MessageKey } from "@/lib/i18n";
import { Button, inputClass } from "@/components/ui";

type Props = {
  control: Control<TemplateDraftInput, unknown, unknown>;
  register: UseFormRegister<TemplateDraftInput>;
  errors: FieldErrors<TemplateDraftInput>;
  serverError: (path: string) => string | undefined;
};

const blankOf = (type: DraftButton["type"]): DraftButton => {
  switch (type) {
    case "QUICK_REPLY":
      return { type, text: "" };
    case "URL":
      return { type, text: "", url: "https://", example: "" };
    case "PHONE_NUMBER":
      return { type, text: "", phone_number: "" };
    case "COPY_CODE":
      return { type, example: "" };
  }
};

/** The draft's buttons: each with its kind and the fields that kind has; Meta's limits are the schema's. */
export function ButtonsEditor({ control, register, errors, serverError }: Props) {
  const t = useT();
  const { fields, append, remove, update } = useFieldArray({ control, name: "buttons" });
  const errorOf = (i: number, field: string) =>
    (errors.buttons?.[i] as Record<string, { message?: string }> | undefined)?.[field]?.message ?? serverError(`buttons.${i}.${field}`);
  const listError = errors.buttons?.message ?? errors.buttons?.root?.message ?? serverError("buttons");

  return (
    <fieldset className="space-y-3" data-testid="buttons-editor">
      <legend className="text-sm font-medium text-slate-800">{t("te.buttons")}</legend>
      <p className="text-xs text-slate-600">{t("te.buttonsHint")}</p>
      {fields.map((field, i) => {
        const type = (field as unknown as DraftButton).type;
        const input = (name: string, label: MessageKey, extra: Record<string, unknown> = {}) => {
          const error = errorOf(i, name);
          const id = `button-${i}-${name}`;
          return (
            <label className="block text-sm" htmlFor={id}>
              <span className="mb-1 block text-xs font-medium text-slate-700">{t(label)}</span>
              <input
                id={id}
                className={inputClass}
                aria-invalid={!!error}
                {...register(`buttons.${i}.${name}` as "buttons.0.type")}
                {...extra}
              />
              {error && (
                <span role="alert" className="mt-1 block text-sm text-red-700">
                  {error}
                </span>
              )}
            </label>
          );
        };
        return (
          <div key={field.id} className="space-y-2 rounded-md border border-slate-200 p-3" data-testid="draft-button" data-type={type}>
            <div className="flex items-end gap-2">
              <label className="block flex-1 text-sm">
                <span className="mb-1 block text-xs font-medium text-slate-700">{t("te.buttonType", { n: i + 1 })}</span>
                <select
                  className={inputClass}
                  value={type}
                  onChange={(e) => update(i, blankOf(e.target.value as DraftButton["type"]))}
                  data-testid={`button-${i}-type`}
                >
                  {DRAFT_BUTTON_TYPES.map((k) => (
                    <option key={k} value={k}>
                      {t(`te.button.${k}` as MessageKey)}
                    </option>
                  ))}
                </select>
              </label>
              <Button variant="secondary" onClick={() => remove(i)} aria-label={t("te.removeButton", { n: i + 1 })}>
                ✕
              </Button>
            </div>
            {type !== "COPY_CODE" && input("text", "te.buttonText", { maxLength: 25 })}
            {type === "URL" && input("url", "te.buttonUrl")}
            {type === "URL" && input("example", "te.buttonExample")}
            {type === "PHONE_NUMBER" && input("phone_number", "te.buttonPhone", { type: "tel" })}
            {type === "COPY_CODE" && input("example", "te.buttonCode", { maxLength: 15 })}
          </div>
        );
      })}
      {listError && (
        <p role="alert" className="text-sm text-red-700">
          {listError}
        </p>
      )}
      <Button
        variant="secondary"
        disabled={fields.length >= BUTTONS_MAX}
        onClick={() => append(blankOf("QUICK_REPLY"))}
        data-testid="add-button"
      >
        {t("te.addButton")}
      </Button>
    </fieldset>
  );
}
