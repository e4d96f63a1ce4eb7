"use client";
import type { Template, WaNumber } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { ErrorBox, Field, inputClass, Skeleton } from "@/components/ui";
import { NumberOptions } from "@/components/numbers/number-options";
import type { SelectBinding } from "./routing-fields";
import { TemplatePicker } from "./template-picker";

type Props = {
  numbers: { data: WaNumber[] | undefined; isLoading: boolean };
  /** The number select's tie to its form (see SelectBinding). */
  numberSelect: SelectBinding;
  numberError?: string;
  /** The chosen number: no template can be picked before there is one. */
  waNumber: string;
  templates: { data: Template[] | undefined; isLoading: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  templateName: string;
  onTemplate: (name: string) => void;
  templateError?: string;
};

/**
 * The company number and one of its templates: the send form's first fields and the broadcast
 * wizard's template step. A fragment, so the fields space out as their container spaces its own.
 */
export function TemplateChoice({
  numbers,
  numberSelect,
  numberError,
  waNumber,
  templates,
  templateName,
  onTemplate,
  templateError,
}: Props) {
  const t = useT();
  return (
    <>
      <Field id="wa_number" label={t("send.waNumber")} error={numberError}>
        {numbers.isLoading ? (
          <Skeleton className="h-9 w-full" />
        ) : (
          <select
            id="wa_number"
            className={inputClass}
            {...numberSelect}
            aria-invalid={!!numberError}
            aria-describedby={numberError ? "wa_number-error" : undefined}
          >
            <NumberOptions numbers={numbers.data} />
          </select>
        )}
      </Field>
      <TemplatePicker
        templates={templates.data}
        loading={templates.isLoading}
        value={templateName}
        onChange={onTemplate}
        error={templateError}
        disabled={!waNumber}
      />
      {templates.isError && <ErrorBox error={templates.error} onRetry={() => templates.refetch()} />}
    </>
  );
}
