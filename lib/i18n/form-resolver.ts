"use client";
import { useMemo } from "react";
import { toNestErrors } from "@hookform/resolvers";
import type { FieldError, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import { useI18n, type Locale, type Translate } from "./index";

/** Each field's visible label, by its path ("title", "password"), in the UI's language. */
export type FieldLabels = Record<string, string>;

/**
 * The message of a client-side zod issue in the UI's language. In Spanish it is the schema's own
 * text: the contract's wording, the same the server answers with. In English it is built from the
 * issue's kind and limits and the field's visible label (the schemas' texts are Spanish, and so is
 * the global zod map of lib/http/zod-es.ts).
 */
export function issueMessage(iss: z.core.$ZodIssue, locale: Locale, t: Translate, labels: FieldLabels): string {
  if (locale === "es") return iss.message;
  const field = labels[iss.path.map(String).join(".")] ?? t("validation.thisField");
  switch (iss.code) {
    case "too_small":
      if (iss.origin === "string")
        return Number(iss.minimum) <= 1
          ? t("validation.required", { field })
          : t("validation.tooShort", { field, min: Number(iss.minimum) });
      if (iss.origin === "array") return t("validation.pickAtLeast", { field, min: Number(iss.minimum) });
      break;
    case "too_big":
      if (iss.origin === "string") return t("validation.tooLong", { field, max: Number(iss.maximum) });
      break;
    case "invalid_type":
      if (iss.input === undefined || iss.input === null) return t("validation.required", { field });
      break;
  }
  return t("validation.invalid", { field });
}

/**
 * react-hook-form resolver over one of the server's zod schemas (the same the route parses with),
 * with each field's first issue worded by `message`.
 */
export function localizedZodResolver<I extends FieldValues, O>(
  schema: z.ZodType<O, I>,
  message: (iss: z.core.$ZodIssue) => string,
): Resolver<I, unknown, O> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const iss of result.error.issues) {
      const path = iss.path.map(String).join(".");
      flat[path] ??= { type: iss.code, message: message(iss) };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}

/** `localizedZodResolver` in the current UI language, with the form's field labels. */
export function useLocalizedResolver<I extends FieldValues, O>(schema: z.ZodType<O, I>, labels: FieldLabels): Resolver<I, unknown, O> {
  const { locale, t } = useI18n();
  const key = JSON.stringify(labels);
  return useMemo(
    () => localizedZodResolver(schema, (iss) => issueMessage(iss, locale, t, JSON.parse(key) as FieldLabels)),
    [schema, locale, t, key],
  );
}
