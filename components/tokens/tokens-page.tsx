"use client";
import { useState } from "react";
import { useMe } from "@/lib/api-client/auth";
import { useTokenMutations, useTokens, type ApiToken } from "@/lib/api-client/tokens";
import { allows } from "@/lib/auth/permissions";
import { useI18n, useT, type MessageKey } from "@/lib/i18n";
import { formatAgo, formatDate, formatDateTime } from "@/lib/i18n/dates";
import { Button, Card, cx, EmptyState, ErrorBox, SkeletonRows } from "@/components/ui";
import { SecretPanel } from "@/components/ui/secret-panel";
import { RollSecretForm } from "@/components/ui/roll-secret-form";
import { TokenForm } from "./token-form";

/** A secret just made (created or rolled): shown until the agent says it is saved, never again. */
export type Shown = { kind: "created" | "rolled"; name: string; secret: string };

/**
 * The team's API tokens (docs/features/api-tokens.md): the list with each token's scopes, creator,
 * last use, expiry and state; owners and admins create, roll and revoke them. A new secret is
 * shown once, in a panel with a copy button, and only lives in this component's state.
 */
export function TokensPage() {
  const { t } = useI18n();
  const me = useMe();
  const role = me.data?.role;
  const canWrite = !!role && allows({ role }, "tokens:write");
  const tokens = useTokens();
  const { create } = useTokenMutations();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);

  return (
    <>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">{t("tokens.title")}</h2>
        {canWrite && !creating && (
          <Button
            onClick={() => {
              setShown(null);
              create.reset();
              setCreating(true);
            }}
          >
            {t("tokens.create")}
          </Button>
        )}
      </div>
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("tokens.intro")}</p>
      {shown && <TokenSecret shown={shown} onDone={() => setShown(null)} />}
      {creating && (
        <Card className="mb-4">
          <h3 className="mb-3 text-sm font-semibold">{t("tokens.new")}</h3>
          <TokenForm
            pending={create.isPending}
            error={create.error}
            onCancel={() => setCreating(false)}
            onSubmit={(input) =>
              create.mutate(input, {
                onSuccess: (res) => {
                  setCreating(false);
                  setShown({ kind: "created", name: res.data.token.name, secret: res.data.secret });
                },
              })
            }
          />
        </Card>
      )}
      {tokens.isError ? (
        <ErrorBox error={tokens.error} onRetry={() => tokens.refetch()} />
      ) : tokens.isLoading ? (
        <SkeletonRows rows={3} />
      ) : !tokens.data?.length ? (
        <EmptyState>{t("tokens.empty")}</EmptyState>
      ) : (
        <ul className="space-y-2" aria-label={t("tokens.title")}>
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} canWrite={canWrite} onRolled={setShown} />
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * A new token's secret in the shared panel (components/ui/secret-panel.tsx). Also the routing
 * page's, for a webhook secret: `title` and `label` then say what the secret is.
 */
export function TokenSecret({ shown, onDone, title, label }: { shown: Shown; onDone: () => void; title?: string; label?: string }) {
  const t = useT();
  return (
    <SecretPanel
      id="token-secret"
      testId="token-secret"
      title={title ?? t(shown.kind === "created" ? "tokens.secretCreated" : "tokens.secretRolled", { name: shown.name })}
      label={label ?? t("tokens.secretLabel")}
      secret={shown.secret}
      onDone={onDone}
    />
  );
}

const STATE_STYLE: Record<ApiToken["state"], string> = {
  active: "bg-emerald-100 text-emerald-900",
  rolling: "bg-amber-100 text-amber-900",
  expired: "bg-slate-200 text-slate-800",
  replaced: "bg-slate-200 text-slate-800",
  revoked: "bg-red-100 text-red-800",
};

function TokenRow({ token, canWrite, onRolled }: { token: ApiToken; canWrite: boolean; onRolled: (s: Shown) => void }) {
  const { t, locale } = useI18n();
  const { revoke, roll } = useTokenMutations();
  const [rolling, setRolling] = useState(false);
  const live = token.state === "active" || token.state === "rolling";
  const creator = token.created_by.kind === "token" ? t("tokens.byToken", { name: token.created_by.name }) : token.created_by.name;
  const state = t(`tokens.state.${token.state}` as MessageKey, { date: formatDateTime(token.overlap_ends_at, locale) });
  const error = revoke.error ?? roll.error;
  return (
    <li
      className={cx("rounded-lg border border-slate-200 bg-white p-3 shadow-sm", !live && "bg-slate-50")}
      data-testid="token-row"
      data-token-id={token.id}
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className={cx("font-semibold", !live && "text-slate-600")}>{token.name}</span>
            <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{token.prefix}…</code>
            <span className={cx("rounded-full px-2 py-0.5 text-xs font-medium", STATE_STYLE[token.state])} data-testid="token-state">
              {state}
            </span>
          </p>
          <ul className="mt-2 flex flex-wrap gap-1" aria-label={t("tokens.scopes")}>
            {token.scopes.map((s) => (
              <li key={s} className="rounded bg-emerald-50 px-2 py-0.5 font-mono text-xs text-emerald-900 ring-1 ring-emerald-200">
                {s}
              </li>
            ))}
          </ul>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
            <li>{t("tokens.createdBy", { name: creator })}</li>
            <li className="whitespace-nowrap">
              {t("tokens.created")}: {formatDate(token.created_at, locale)}
            </li>
            <li className="whitespace-nowrap" data-testid="token-last-used">
              {t("tokens.lastUsed")}:{" "}
              {token.last_used_at ? (
                <time dateTime={token.last_used_at} title={formatDateTime(token.last_used_at, locale)}>
                  {formatAgo(token.last_used_at, locale)}
                </time>
              ) : (
                t("tokens.neverUsed")
              )}
            </li>
            <li className="whitespace-nowrap">
              {t("tokens.expires")}: {token.expires_at ? formatDateTime(token.expires_at, locale) : t("tokens.noExpiry")}
            </li>
          </ul>
        </div>
        {canWrite && live && (
          <div className="flex shrink-0 gap-2">
            {token.state === "active" && (
              <Button
                variant="secondary"
                aria-expanded={rolling}
                onClick={() => setRolling((r) => !r)}
                aria-label={`${t("tokens.roll")}: ${token.name}`}
              >
                {t("tokens.roll")}
              </Button>
            )}
            <Button
              variant="danger"
              disabled={revoke.isPending}
              aria-label={`${t("tokens.revoke")}: ${token.name}`}
              onClick={() => {
                if (window.confirm(t("tokens.confirmRevoke", { name: token.name }))) revoke.mutate(token.id);
              }}
            >
              {t("tokens.revoke")}
            </Button>
          </div>
        )}
      </div>
      {rolling && token.state === "active" && (
        <RollSecretForm
          explain={t("tokens.rollExplain")}
          overlapLabel={t("tokens.overlap")}
          confirmLabel={t("tokens.confirmRoll")}
          pending={roll.isPending}
          onCancel={() => setRolling(false)}
          onRoll={(overlapHours) =>
            roll.mutate(
              { id: token.id, overlapHours },
              {
                onSuccess: (res) => {
                  setRolling(false);
                  onRolled({ kind: "rolled", name: res.data.token.name, secret: res.data.secret });
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
    </li>
  );
}
