"use client";
import { useState } from "react";
import {
  useNumberMutations,
  useNumberSettings,
  useVerifyNumber,
  type NumberCheck,
  type NumberSettings,
} from "@/lib/api-client/number-settings";
import { useI18n, type MessageKey, type Translate } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { providerErrorText } from "@/lib/i18n/provider-error";
import { Button, Card, cx, EmptyState, ErrorBox, SkeletonRows } from "@/components/ui";
import { CreateNumberForm, EditNumberForm } from "./number-forms";

/**
 * /settings/numbers (docs/features/numbers.md): the team's numbers with their state and health,
 * what to paste into Meta's app dashboard, "Añadir número", and per number Verificar, Editar and
 * Desactivar/Activar. Headings start at h2: the settings frame holds the page's h1.
 */
export function NumbersPage() {
  const { t } = useI18n();
  const numbers = useNumberSettings();
  const { create, sandbox } = useNumberMutations();
  const [adding, setAdding] = useState(false);
  const list = numbers.data ?? [];
  const callbackUrl = list[0]?.webhook.callback_url;
  const hasSandbox = list.some((n) => n.sandbox);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t("numbers.title")}</h2>
        <div className="flex flex-wrap gap-2">
          {!hasSandbox && numbers.isSuccess && (
            <Button variant="secondary" disabled={sandbox.isPending} onClick={() => sandbox.mutate()}>
              {t("numbers.addSandbox")}
            </Button>
          )}
          {!adding && <Button onClick={() => setAdding(true)}>{t("numbers.add")}</Button>}
        </div>
      </div>
      <p className="max-w-3xl text-sm text-slate-700">{t("numbers.intro")}</p>
      {sandbox.error && <ErrorBox error={sandbox.error} />}
      {adding && (
        <Card>
          <h3 className="mb-3 text-base font-semibold">{t("numbers.addTitle")}</h3>
          <CreateNumberForm
            pending={create.isPending}
            error={create.error}
            onCancel={() => {
              create.reset();
              setAdding(false);
            }}
            onSubmit={(v, reset) =>
              create.mutate(v, {
                onSuccess: () => {
                  reset();
                  setAdding(false);
                },
              })
            }
          />
        </Card>
      )}
      {callbackUrl && (
        <Card>
          <h3 className="text-base font-semibold">{t("numbers.webhookTitle")}</h3>
          <p className="mb-2 mt-1 max-w-3xl text-sm text-slate-700">{t("numbers.webhookIntro")}</p>
          <CopyValue label={t("numbers.callbackUrl")} value={callbackUrl} />
        </Card>
      )}
      {numbers.isError ? (
        <ErrorBox error={numbers.error} onRetry={() => numbers.refetch()} />
      ) : numbers.isLoading ? (
        <SkeletonRows rows={3} />
      ) : !list.length ? (
        <EmptyState>{t("numbers.empty")}</EmptyState>
      ) : (
        <section aria-labelledby="numbers-list">
          <h3 id="numbers-list" className="sr-only">
            {t("numbers.list")}
          </h3>
          <ul className="space-y-3">
            {list.map((n) => (
              <NumberRow key={n.id} number={n} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function Chip({ tone, children }: { tone: "green" | "yellow" | "red" | "slate" | "blue"; children: React.ReactNode }) {
  const tones = {
    green: "bg-emerald-100 text-emerald-900",
    yellow: "bg-amber-100 text-amber-900",
    red: "bg-red-100 text-red-900",
    slate: "bg-slate-100 text-slate-800",
    blue: "bg-sky-100 text-sky-900",
  };
  return <span className={cx("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium", tones[tone])}>{children}</span>;
}

const QUALITY_TONE: Record<string, "green" | "yellow" | "red" | "slate"> = { GREEN: "green", YELLOW: "yellow", RED: "red" };

function qualityText(t: Translate, q: string) {
  const key = `numbers.quality.${q}` as MessageKey;
  const text = t(key);
  return text === key ? q : text;
}

function NumberRow({ number: n }: { number: NumberSettings }) {
  const { t, locale } = useI18n();
  const { update } = useNumberMutations();
  const verify = useVerifyNumber();
  const [editing, setEditing] = useState(false);
  const name = n.display_name || `+${n.number}`;
  const toggle = () => {
    const ask = n.disabled ? t("numbers.confirmEnable", { name }) : t("numbers.confirmDisable", { name });
    if (window.confirm(ask)) update.mutate({ id: n.id, disabled: !n.disabled });
  };
  return (
    <li
      className={cx("rounded-lg border p-4 shadow-sm", n.disabled ? "border-slate-300 bg-slate-50" : "border-slate-200 bg-white")}
      data-testid="number-row"
      data-number={n.number}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h4 className="break-words text-base font-semibold">{name}</h4>
          <p className="font-mono text-sm text-slate-700">+{n.number}</p>
          <div className="mt-2 flex flex-wrap gap-1.5">
            {n.disabled ? <Chip tone="slate">{t("numbers.disabledChip")}</Chip> : <Chip tone="green">{t("numbers.active")}</Chip>}
            {n.sandbox && <Chip tone="blue">{t("numbers.sandboxChip")}</Chip>}
            {!n.sandbox && (
              <>
                <Chip tone={n.quality_rating ? (QUALITY_TONE[n.quality_rating] ?? "slate") : "slate"}>
                  {n.quality_rating ? `${t("numbers.quality")}: ${qualityText(t, n.quality_rating)}` : t("numbers.qualityNone")}
                </Chip>
                <Chip tone="slate">
                  {n.messaging_limit_tier ? `${t("numbers.limit")}: ${n.messaging_limit_tier}` : t("numbers.limitNone")}
                </Chip>
                <Chip tone={n.credentials.access_token ? "green" : "red"}>
                  {t("numbers.credToken")}: {n.credentials.access_token ? t("numbers.credSet") : t("numbers.credMissing")}
                </Chip>
                <Chip tone={n.credentials.app_secret ? "green" : "yellow"}>
                  {t("numbers.credSecret")}: {n.credentials.app_secret ? t("numbers.credSet") : t("numbers.credMissing")}
                </Chip>
              </>
            )}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={verify.isPending}
            aria-label={t("numbers.verifyLabel", { name })}
            onClick={() => verify.mutate(n.id)}
          >
            {verify.isPending ? t("numbers.verifying") : t("numbers.verify")}
          </Button>
          <Button variant="secondary" aria-label={t("numbers.editLabel", { name })} onClick={() => setEditing((e) => !e)}>
            {t("numbers.edit")}
          </Button>
          <Button
            variant={n.disabled ? "secondary" : "danger"}
            disabled={update.isPending}
            aria-label={n.disabled ? t("numbers.enableLabel", { name }) : t("numbers.disableLabel", { name })}
            onClick={toggle}
          >
            {n.disabled ? t("numbers.enable") : t("numbers.disable")}
          </Button>
        </div>
      </div>

      {n.sandbox ? (
        <p className="mt-3 text-sm text-slate-700">{t("numbers.sandboxNote")}</p>
      ) : (
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <Detail term={t("numbers.phoneNumberId")} mono>
            {n.phone_number_id ?? "—"}
          </Detail>
          <Detail term={t("numbers.wabaId")} mono>
            {n.waba_id ?? "—"}
          </Detail>
          <Detail term={t("numbers.mps")}>{n.messages_per_second}</Detail>
          <Detail term={t("numbers.verifiedName")}>
            {n.verified_name ?? "—"}{" "}
            <span className="text-xs text-slate-600">
              {n.verified_at ? t("numbers.verifiedAt", { when: formatDateTime(n.verified_at, locale) }) : t("numbers.neverVerified")}
            </span>
          </Detail>
        </dl>
      )}

      {!n.sandbox && (
        <div className="mt-3">
          {n.webhook.verify_token ? (
            <CopyValue
              label={n.webhook.verify_token_source === "setting" ? t("numbers.verifyTokenSetting") : t("numbers.verifyToken")}
              value={n.webhook.verify_token}
            />
          ) : (
            <p className="text-sm text-amber-800">{t("numbers.noVerifyToken")}</p>
          )}
        </div>
      )}

      {verify.data && <CheckResult check={verify.data} />}
      {verify.error && (
        <div className="mt-3">
          <ErrorBox error={verify.error} />
        </div>
      )}
      {update.error && !editing && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {update.error.message}
        </p>
      )}
      {editing && (
        <div className="mt-4 border-t border-slate-200 pt-4">
          <EditNumberForm
            number={n}
            pending={update.isPending}
            error={update.error}
            onCancel={() => {
              update.reset();
              setEditing(false);
            }}
            onSubmit={(v) => update.mutate({ id: n.id, ...v }, { onSuccess: () => setEditing(false) })}
          />
        </div>
      )}
    </li>
  );
}

function Detail({ term, mono, children }: { term: string; mono?: boolean; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-wrap gap-x-2">
      <dt className="text-slate-600">{term}:</dt>
      <dd className={cx("min-w-0 break-all", mono && "font-mono")}>{children}</dd>
    </div>
  );
}

/** What the last check answered: Meta's name for the number, or Meta's error in the UI's language. */
function CheckResult({ check }: { check: NumberCheck }) {
  const t = useI18n().t;
  const d = check.data;
  if (d.verified) {
    const phone = d.display_phone_number ?? `+${d.number.number}`;
    return (
      <p role="status" className="mt-3 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900" data-testid="number-check">
        {d.sandbox ? t("numbers.verifySandbox", { phone }) : t("numbers.verifyOk", { name: d.verified_name ?? "—", phone })}
      </p>
    );
  }
  const e = d.error!;
  const text =
    e.kind === "network"
      ? t("numbers.verifyNetwork", { reason: e.message })
      : e.kind === "timeout"
        ? t("numbers.verifyTimeout")
        : e.kind === "invalid"
          ? t("numbers.verifyInvalid", { reason: e.message })
          : t("numbers.verifyFailed", { reason: providerErrorText(t, e.code, e.message) });
  return (
    <div role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="number-check">
      <p>{text}</p>
      {e.fbtrace_id && <p className="mt-1 text-xs">{t("numbers.fbtrace", { id: e.fbtrace_id })}</p>}
    </div>
  );
}

/** A value to paste into Meta, with a button that copies it. */
function CopyValue({ label, value }: { label: string; value: string }) {
  const t = useI18n().t;
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an http page other than localhost): the value stays selectable.
    }
  };
  return (
    <div className="text-sm">
      <p className="mb-1 font-medium text-slate-800">{label}</p>
      <div className="flex min-w-0 items-stretch gap-2">
        <code className="min-w-0 flex-1 break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-xs">{value}</code>
        <Button variant="secondary" onClick={copy} aria-label={t("numbers.copyLabel", { what: label })}>
          <span aria-live="polite">{copied ? t("numbers.copied") : t("numbers.copy")}</span>
        </Button>
      </div>
    </div>
  );
}
