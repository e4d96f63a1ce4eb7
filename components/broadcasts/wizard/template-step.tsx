"use client";
import type { Template, WaNumber } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { ErrorBox, Field, inputClass, Skeleton } from "@/components/ui";
import { TemplatePicker } from "@/components/send/template-picker";
import type { Errors } from "./draft";

type Props = {
  numbers: WaNumber[] | undefined;
  numbersLoading: boolean;
  waNumber: string;
  onNumber: (n: string) => void;
  templates: { data: Template[] | undefined; isLoading: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  templateName: string;
  onTemplate: (name: string) => void;
  errors: Errors;
};

/** The company number and its template (the send form's picker). */
export function TemplateStep({ numbers, numbersLoading, waNumber, onNumber, templates, templateName, onTemplate, errors }: Props) {
  const t = useT();
  return (
    <div className="space-y-4">
      <Field id="wa_number" label={t("send.waNumber")} error={errors.wa_number}>
        {numbersLoading ? (
          <Skeleton className="h-9 w-full" />
        ) : (
          <select
            id="wa_number"
            className={inputClass}
            value={waNumber}
            onChange={(e) => onNumber(e.target.value)}
            aria-invalid={!!errors.wa_number}
            aria-describedby={errors.wa_number ? "wa_number-error" : undefined}
          >
            {numbers?.map((n) => (
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
        onChange={onTemplate}
        error={errors.template_name ?? errors.language}
        disabled={!waNumber}
      />
      {templates.isError && <ErrorBox error={templates.error} onRetry={() => templates.refetch()} />}
    </div>
  );
}
