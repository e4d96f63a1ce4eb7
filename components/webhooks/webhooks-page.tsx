"use client";
import { useState } from "react";
import { useMe } from "@/lib/api-client/auth";
import { useEndpointMutations, useWebhookEndpoints, type WebhookEndpoint } from "@/lib/api-client/webhook-endpoints";
import { allows } from "@/lib/auth/permissions";
import { useI18n, useT } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { Button, Card, cx, EmptyState, ErrorBox, SkeletonRows } from "@/components/ui";
import { SecretPanel } from "@/components/ui/secret-panel";
import { RollSecretForm } from "@/components/ui/roll-secret-form";
import { EndpointForm } from "./endpoint-form";
import { DeliveryLog } from "./delivery-log";

/** A signing secret just made (created or rolled): shown until the agent says it is saved, never again. */
type Shown = { kind: "created" | "rolled"; secret: string };

/**
 * The team's webhook endpoints (docs/features/outgoing-webhooks.md): each with its events, state and
 * delivery log; owners and admins create, roll, disable, enable and delete them and resend
 * deliveries. A new secret is shown once, in the same panel as a new API token's.
 */
export function WebhooksPage() {
  const t = useT();
  const me = useMe();
  const role = me.data?.role;
  const canWrite = !!role && allows({ role }, "webhooks:write");
  const endpoints = useWebhookEndpoints();
  const { create } = useEndpointMutations();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);

  return (
    <>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">{t("webhooks.title")}</h2>
        {canWrite && !creating && (
          <Button
            onClick={() => {
              setShown(null);
              create.reset();
              setCreating(true);
            }}
          >
            {t("webhooks.create")}
          </Button>
        )}
      </div>
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("webhooks.intro")}</p>
      {shown && (
        <SecretPanel
          id="webhook-secret"
          testId="webhook-secret"
          title={t(shown.kind === "created" ? "webhooks.secretCreated" : "webhooks.secretRolled")}
          label={t("webhooks.secretLabel")}
          secret={shown.secret}
          onDone={() => setShown(null)}
        />
      )}
      {creating && (
        <Card className="mb-4">
          <h3 className="mb-3 text-sm font-semibold">{t("webhooks.new")}</h3>
          <EndpointForm
            pending={create.isPending}
            error={create.error}
            onCancel={() => setCreating(false)}
            onSubmit={(input) =>
              create.mutate(input, {
                onSuccess: (res) => {
                  setCreating(false);
                  setShown({ kind: "created", secret: res.data.secret });
                },
              })
            }
          />
        </Card>
      )}
      {endpoints.isError ? (
        <ErrorBox error={endpoints.error} onRetry={() => endpoints.refetch()} />
      ) : endpoints.isLoading ? (
        <SkeletonRows rows={3} />
      ) : !endpoints.data?.length ? (
        <EmptyState>{t("webhooks.empty")}</EmptyState>
      ) : (
        <ul className="space-y-2" aria-label={t("webhooks.title")}>
          {endpoints.data.map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} canWrite={canWrite} onRolled={setShown} />
          ))}
        </ul>
      )}
    </>
  );
}

function EndpointRow({ endpoint, canWrite, onRolled }: { endpoint: WebhookEndpoint; canWrite: boolean; onRolled: (s: Shown) => void }) {
  const { t, locale } = useI18n();
  const { update, remove, roll } = useEndpointMutations();
  const [rolling, setRolling] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const date = (d: string | null) => formatDateTime(d, locale);
  const state = endpoint.enabled
    ? t("webhooks.enabled")
    : endpoint.disabled_reason === "failing"
      ? t("webhooks.disabledFailing", { date: date(endpoint.failing_since) })
      : t("webhooks.disabledManual");
  const error = update.error ?? remove.error ?? roll.error;
  return (
    <li
      className={cx("rounded-lg border border-slate-200 bg-white p-3 shadow-sm", !endpoint.enabled && "bg-slate-50")}
      data-testid="endpoint-row"
      data-endpoint-id={endpoint.id}
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="break-all font-mono text-xs font-semibold text-slate-900">{endpoint.url}</span>
            <span
              className={cx(
                "rounded-full px-2 py-0.5 text-xs font-medium",
                endpoint.enabled ? "bg-emerald-100 text-emerald-900" : "bg-red-100 text-red-800",
              )}
              data-testid="endpoint-state"
            >
              {state}
            </span>
          </p>
          {endpoint.description && <p className="mt-1 text-sm text-slate-700">{endpoint.description}</p>}
          <ul className="mt-2 flex flex-wrap gap-1" aria-label={t("webhooks.events")}>
            {endpoint.events.map((e) => (
              <li key={e} className="rounded bg-emerald-50 px-2 py-0.5 font-mono text-xs text-emerald-900 ring-1 ring-emerald-200">
                {e === "*" ? t("webhooks.allEvents") : e}
              </li>
            ))}
          </ul>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
            <li>{t("tokens.createdBy", { name: endpoint.created_by.name })}</li>
            {endpoint.enabled && endpoint.failing_since && (
              <li className="text-red-700">{t("webhooks.failingSince", { date: date(endpoint.failing_since) })}</li>
            )}
            {endpoint.previous_secret_expires_at && <li>{t("webhooks.rolling", { date: date(endpoint.previous_secret_expires_at) })}</li>}
          </ul>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button variant="secondary" aria-expanded={showLog} onClick={() => setShowLog((s) => !s)}>
            {showLog ? t("webhooks.hideDeliveries") : t("webhooks.deliveries")}
          </Button>
          {canWrite && (
            <>
              <Button variant="secondary" aria-expanded={rolling} onClick={() => setRolling((r) => !r)}>
                {t("webhooks.roll")}
              </Button>
              <Button
                variant="secondary"
                disabled={update.isPending}
                onClick={() => update.mutate({ id: endpoint.id, changes: { enabled: !endpoint.enabled } })}
              >
                {endpoint.enabled ? t("webhooks.disable") : t("webhooks.enable")}
              </Button>
              <Button
                variant="danger"
                disabled={remove.isPending}
                onClick={() => {
                  if (window.confirm(t("webhooks.confirmDelete", { url: endpoint.url }))) remove.mutate(endpoint.id);
                }}
              >
                {t("webhooks.delete")}
              </Button>
            </>
          )}
        </div>
      </div>
      {rolling && (
        <RollSecretForm
          explain={t("webhooks.rollExplain")}
          overlapLabel={t("webhooks.overlap")}
          confirmLabel={t("webhooks.confirmRoll")}
          pending={roll.isPending}
          onCancel={() => setRolling(false)}
          onRoll={(overlapHours) =>
            roll.mutate(
              { id: endpoint.id, overlapHours },
              {
                onSuccess: (res) => {
                  setRolling(false);
                  onRolled({ kind: "rolled", secret: res.data.secret });
                },
              },
            )
          }
        />
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error.message}
        </p>
      )}
      {showLog && <DeliveryLog endpoint={endpoint} canWrite={canWrite} />}
    </li>
  );
}
