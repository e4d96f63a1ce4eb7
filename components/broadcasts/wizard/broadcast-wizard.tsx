"use client";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useSendingNumbers, useTemplates } from "@/lib/api-client/numbers";
import { useCreateBroadcast } from "@/lib/api-client/broadcasts";
import { newIdempotencyKey } from "@/lib/api-client/idempotency";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useT } from "@/lib/i18n";
import { Button, Card, cx, ErrorBox, PageTitle } from "@/components/ui";
import { TemplatePreview } from "@/components/send/template-preview";
import {
  checkStep,
  emptyDraft,
  previewValue,
  stepOfField,
  STEPS,
  toRequest,
  withTemplate,
  type Draft,
  type Errors,
  type Step,
} from "./draft";
import { AudienceStep } from "./audience-step";
import { TemplateStep } from "./template-step";
import { ParamsStep } from "./params-step";
import { DeliveryStep } from "./delivery-step";
import { ReviewStep } from "./review-step";

const STEP_TEXT = {
  audience: "bc.step.audience",
  template: "bc.step.template",
  params: "bc.step.params",
  delivery: "bc.step.delivery",
  review: "bc.step.review",
} as const;

/**
 * The new-broadcast wizard: audience, template, parameters, replies and schedule, review. Each
 * step checks what it needs before the next; the server's 422 errors are put on their fields and
 * the wizard goes back to the first step that holds one.
 */
export function BroadcastWizard() {
  const t = useT();
  const router = useRouter();
  const numbers = useSendingNumbers();
  const create = useCreateBroadcast();
  const attempt = useRef<{ key: string; body: string } | null>(null);
  const [chosen, setDraft] = useState<Draft>(emptyDraft);
  // The first number stands until another is chosen: most teams have exactly one.
  const draft = chosen.wa_number || !numbers.data?.length ? chosen : { ...chosen, wa_number: numbers.data[0].number };
  const [step, setStep] = useState<Step>("audience");
  const [reached, setReached] = useState(0);
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  const templates = useTemplates(draft.wa_number);
  const template = useMemo(
    () => templates.data?.find((tp) => tp.name === draft.template_name && (!draft.language || tp.language === draft.language)),
    [templates.data, draft.template_name, draft.language],
  );
  const index = STEPS.indexOf(step);

  // A step change moves focus to the step's heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [step]);

  const patch = (p: Partial<Draft>) => setDraft((d) => ({ ...d, ...p }));
  const clearError = (field: string) => setErrors(({ [field]: _gone, ...rest }) => rest);
  const stepErrors = (s: Step) => Object.keys(errors).some((f) => (stepOfField(f) ?? "review") === s && errors[f]);

  function goTo(s: Step) {
    moved.current = true;
    setStep(s);
    setReached((r) => Math.max(r, STEPS.indexOf(s)));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (step !== "review") {
      const found = checkStep(step, draft, t);
      setErrors((old) => ({ ...Object.fromEntries(Object.entries(old).filter(([f]) => stepOfField(f) !== step)), ...found }));
      if (Object.keys(found).length === 0) goTo(STEPS[index + 1]);
      return;
    }
    setGeneral(null);
    // Same request as the attempt that failed or went unanswered: the same key, so the broadcast
    // is created (and its audience enqueued) at most once; changed values take a new key.
    const request = toRequest(draft);
    const bodyText = JSON.stringify(request);
    if (attempt.current?.body !== bodyText) attempt.current = { key: newIdempotencyKey("broadcast"), body: bodyText };
    try {
      const res = await create.mutateAsync({ body: request, idempotencyKey: attempt.current.key });
      attempt.current = null;
      router.push(`/broadcasts/${res.data.id}`);
    } catch (err) {
      if (!(err instanceof ApiRequestError)) return setGeneral(String(err));
      const placed: Errors = {};
      for (const [field, msgs] of Object.entries(err.errors)) if (stepOfField(field)) placed[field] = msgs[0];
      setErrors(placed);
      const first = STEPS.find((s) => Object.keys(placed).some((f) => stepOfField(f) === s));
      const unplaced = Object.keys(err.errors).some((f) => !stepOfField(f));
      setGeneral(first && !unplaced && err.status === 422 ? t("bc.errorsElsewhere") : err.message);
      if (first) goTo(first);
    }
  }

  const headerValues = draft.header ? { [draft.header.key]: previewValue(draft.header, t) } : {};
  const bodyValues = Object.fromEntries(draft.body.map((p) => [p.key, previewValue(p, t)]));
  const buttonValues = Object.fromEntries(draft.buttons.map((b) => [b.index, previewValue(b, t)]).filter(([, v]) => v));
  const onlyFilled = (vals: Record<string, string>) => Object.fromEntries(Object.entries(vals).filter(([, v]) => v));

  if (numbers.isError) return <ErrorBox error={numbers.error} onRetry={() => numbers.refetch()} />;

  return (
    <>
      <PageTitle>{t("bc.new")}</PageTitle>
      <nav aria-label={t("bc.steps")} className="mb-4">
        <ol className="flex flex-wrap gap-2" data-testid="wizard-steps">
          {STEPS.map((s, i) => {
            const bad = stepErrors(s);
            return (
              <li key={s}>
                <button
                  type="button"
                  onClick={() => goTo(s)}
                  disabled={i > reached}
                  aria-current={s === step ? "step" : undefined}
                  className={cx(
                    "flex items-center gap-2 rounded-full border px-3 py-1 text-sm disabled:cursor-not-allowed disabled:opacity-60",
                    s === step
                      ? "border-wa-green-dark bg-wa-green-dark text-white"
                      : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100",
                    bad && s !== step && "border-red-600 text-red-800",
                  )}
                >
                  <span className="tabular-nums">{i + 1}.</span> {t(STEP_TEXT[s])}
                  {bad && <span className="sr-only">({t("bc.stepHasErrors")})</span>}
                  {bad && (
                    <span aria-hidden="true" className="font-bold text-red-700">
                      !
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_380px]">
        <form onSubmit={onSubmit} noValidate className="min-w-0 space-y-4" aria-labelledby="wizard-step-title">
          <Card className="space-y-4">
            <div>
              <p className="text-xs text-slate-600">{t("bc.stepOf", { n: index + 1, total: STEPS.length })}</p>
              <h2 id="wizard-step-title" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
                {t(STEP_TEXT[step])}
              </h2>
            </div>
            {step === "audience" && <AudienceStep value={draft.audience} onChange={(audience) => patch({ audience })} errors={errors} />}
            {step === "template" && (
              <TemplateStep
                numbers={numbers.data}
                numbersLoading={numbers.isLoading}
                waNumber={draft.wa_number}
                onNumber={(n) => setDraft((d) => withTemplate({ ...d, wa_number: n }, undefined))}
                templates={templates}
                templateName={draft.template_name}
                onTemplate={(name) => {
                  setDraft(() =>
                    withTemplate(
                      draft,
                      templates.data?.find((x) => x.name === name),
                    ),
                  );
                  setErrors((old) =>
                    Object.fromEntries(Object.entries(old).filter(([f]) => !["template", "params"].includes(stepOfField(f) ?? ""))),
                  );
                }}
                errors={errors}
              />
            )}
            {step === "params" && <ParamsStep draft={draft} template={template} onChange={patch} errors={errors} clearError={clearError} />}
            {step === "delivery" && <DeliveryStep draft={draft} onChange={patch} errors={errors} />}
            {step === "review" && <ReviewStep draft={draft} goTo={goTo} />}
          </Card>
          {general && (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="wizard-error">
              {general}
            </p>
          )}
          <div className="flex flex-wrap justify-between gap-2">
            <Button variant="secondary" onClick={() => goTo(STEPS[index - 1])} disabled={index === 0}>
              {t("bc.back")}
            </Button>
            <Button type="submit" disabled={create.isPending} data-testid={step === "review" ? "broadcast-submit" : "wizard-next"}>
              {step !== "review"
                ? t("bc.next")
                : create.isPending
                  ? t("bc.sending")
                  : draft.when === "later"
                    ? t("bc.scheduleSubmit")
                    : t("bc.send")}
            </Button>
          </div>
        </form>
        <aside aria-label={t("send.preview")} className="lg:sticky lg:top-4 lg:self-start">
          <TemplatePreview
            template={template}
            headerValues={onlyFilled(headerValues)}
            bodyValues={onlyFilled(bodyValues)}
            buttonValues={buttonValues}
            mediaUrl={
              draft.media_path
                ? `/api/v1/media/${draft.media_path}`
                : template?.default_media_path
                  ? `/api/v1/media/${template.default_media_path}`
                  : null
            }
            mediaName={draft.media_name}
          />
        </aside>
      </div>
    </>
  );
}
