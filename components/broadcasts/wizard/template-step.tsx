"use client";
import type { Template, WaNumber } from "@/lib/api-client/types";
import { TemplateChoice } from "@/components/send/template-choice";
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

/** The company number and its template, chosen as on the send form (TemplateChoice). */
export function TemplateStep({ numbers, numbersLoading, waNumber, onNumber, templates, templateName, onTemplate, errors }: Props) {
  return (
    <div className="space-y-4">
      <TemplateChoice
        numbers={{ data: numbers, isLoading: numbersLoading }}
        numberSelect={{ value: waNumber, onChange: (e) => onNumber(e.target.value) }}
        numberError={errors.wa_number}
        waNumber={waNumber}
        templates={templates}
        templateName={templateName}
        onTemplate={onTemplate}
        templateError={errors.template_name ?? errors.language}
      />
    </div>
  );
}
