"use client";
import { useForm } from "react-hook-form";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useWaNumbers } from "@/lib/api-client/numbers";
import { useRoutingTest, type RoutingTestAnswer } from "@/lib/api-client/routing";
import { routingTestInput, type RoutingTestInput } from "@/lib/routing/schemas";
import { useT, type MessageKey } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Card, Field, FormError, inputClass } from "@/components/ui";

type Values = RoutingTestInput;

/**
 * "Which would take this reply?": the server routes it with the inbound path's own function
 * (POST /api/v1/routing/test) and stores nothing; this only asks and shows the answer.
 */
export function RoutingTester() {
  const t = useT();
  const numbers = useWaNumbers();
  const test = useRoutingTest();
  const localized = useLocalizedResolver(routingTestInput, {
    wa_number: t("routing.testNumber"),
    from: t("routing.testFrom"),
    text: t("routing.testText"),
    context_update_id: t("routing.testContext"),
  });
  const { register, handleSubmit, formState } = useForm<Values, unknown, Values>({
    // An empty "quoted message" box means none, not an id the schema would refuse.
    resolver: (values, ctx, opts) => localized({ ...values, context_update_id: values.context_update_id?.trim() || undefined }, ctx, opts),
    defaultValues: { wa_number: "", from: "", text: "", context_update_id: "" },
  });
  const serverErrs = test.error instanceof ApiRequestError ? test.error.errors : {};
  const general = test.error && !Object.keys(serverErrs).length ? test.error.message : undefined;
  const err = (f: keyof Values) => formState.errors[f]?.message ?? serverErrs[f]?.[0];
  return (
    <Card>
      <h3 className="text-base font-semibold text-slate-900">{t("routing.tester")}</h3>
      <p className="mb-3 text-sm text-slate-700">{t("routing.testerIntro")}</p>
      <form onSubmit={handleSubmit((input) => test.mutate(input))} className="space-y-3" noValidate data-testid="routing-tester">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="test-wa_number" label={t("routing.testNumber")} error={err("wa_number")}>
            <select id="test-wa_number" className={inputClass} aria-invalid={!!err("wa_number")} {...register("wa_number")}>
              <option value="" />
              {numbers.data?.map((n) => (
                <option key={n.id} value={n.number}>
                  {n.display_name ? `${n.display_name} (${n.number})` : n.number}
                </option>
              ))}
            </select>
          </Field>
          <Field id="test-from" label={t("routing.testFrom")} error={err("from")}>
            <input
              id="test-from"
              className={inputClass}
              inputMode="tel"
              autoComplete="off"
              aria-invalid={!!err("from")}
              {...register("from")}
            />
          </Field>
        </div>
        <Field id="test-text" label={t("routing.testText")} error={err("text")}>
          <input id="test-text" className={inputClass} autoComplete="off" aria-invalid={!!err("text")} {...register("text")} />
        </Field>
        <Field id="test-context_update_id" label={t("routing.testContext")} error={err("context_update_id")}>
          <input
            id="test-context_update_id"
            className={`${inputClass} font-mono`}
            autoComplete="off"
            aria-invalid={!!err("context_update_id")}
            {...register("context_update_id")}
          />
        </Field>
        <FormError message={general} />
        <Button type="submit" disabled={test.isPending}>
          {t("routing.test")}
        </Button>
      </form>
      {test.data && <Answer answer={test.data} />}
    </Card>
  );
}

function Answer({ answer }: { answer: RoutingTestAnswer }) {
  const t = useT();
  const target = answer.target
    ? t(answer.target.kind === "bot" ? "routing.targetBot" : "routing.targetCampaign", { name: answer.target.name })
    : null;
  return (
    <section role="status" className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm" data-testid="routing-answer">
      <p className="font-semibold text-slate-900">{target ? t("routing.takenBy", { target }) : t("routing.takenByNobody")}</p>
      <p className="mt-1 text-slate-800">
        <span className="font-medium">{t("routing.why")}:</span> {t(`routing.attribution.${answer.attribution}` as MessageKey)}{" "}
        {t(`routing.rule.${answer.rule}` as MessageKey)}
      </p>
      {answer.reply_to?.update_id && (
        <p className="mt-1 text-xs text-slate-700">{t("routing.repliesTo", { update_id: answer.reply_to.update_id })}</p>
      )}
      {!answer.contact_found && <p className="mt-1 text-xs text-slate-700">{t("routing.unknownCustomer")}</p>}
      <p className="mt-1 text-xs text-slate-600">{t("routing.textIgnored")}</p>
    </section>
  );
}
