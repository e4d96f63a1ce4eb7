"use client";
import { useMe } from "@/lib/api-client/auth";
import { useTeamAgents, useUpdateAgent, type TeamAgent } from "@/lib/api-client/agents";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { allows, ROLES, type Role } from "@/lib/auth/permissions";
import { useI18n } from "@/lib/i18n";
import { formatDate, formatDateTime } from "@/lib/i18n/dates";
import { Button, cx, EmptyState, ErrorBox, inputClass, SkeletonRows } from "@/components/ui";
import { InviteAgent } from "./invite-agent";
import { PendingInvitations } from "./pending-invitations";

/**
 * /settings/agents (docs/features/agents.md): the team's agents with their role (a select for admins
 * and owners, text for supervisors), last sign-in, whether they are online and whether they are
 * deactivated; deactivation and reactivation behind a confirmation; the invitation form and the
 * pending invitations. The server decides every rule; the page only leaves out what it would refuse.
 */
export function AgentsSettings() {
  const { t } = useI18n();
  const me = useMe();
  const agents = useTeamAgents();
  const role = me.data?.role;
  const canWrite = !!role && allows({ role }, "agents:write");
  return (
    <div className="space-y-6">
      <section aria-labelledby="agents-title">
        <h2 id="agents-title" className="text-lg font-semibold text-slate-900">
          {t("agents.title")}
        </h2>
        <p className="mb-3 mt-1 max-w-3xl text-sm text-slate-700">{t("agents.intro")}</p>
        {role && !canWrite && !agents.isError && <p className="mb-3 text-sm text-slate-700">{t("agents.readOnly")}</p>}
        {agents.isError ? (
          // A refused role is final: nothing to retry.
          <ErrorBox error={agents.error} onRetry={refused(agents.error) ? undefined : () => agents.refetch()} />
        ) : agents.isLoading || !role ? (
          <SkeletonRows rows={3} />
        ) : !agents.data?.length ? (
          <EmptyState>{t("agents.empty")}</EmptyState>
        ) : (
          <ul className="space-y-2" aria-label={t("agents.list")}>
            {agents.data.map((a) => (
              <AgentRow key={a.id} agent={a} myId={me.data!.id} myRole={role} canWrite={canWrite} />
            ))}
          </ul>
        )}
      </section>
      {canWrite && <InviteAgent myRole={role} />}
      {role && !agents.isError && <PendingInvitations canWrite={canWrite} />}
    </div>
  );
}

const refused = (err: unknown) => err instanceof ApiRequestError && err.status === 403;

function AgentRow({ agent, myId, myRole, canWrite }: { agent: TeamAgent; myId: number; myRole: Role; canWrite: boolean }) {
  const { t, locale } = useI18n();
  const update = useUpdateAgent();
  const isMe = agent.id === myId;
  const deactivated = !!agent.deactivated_at;
  // Only an owner grants or takes away `owner`, or (de)activates an owner (docs/roles.md).
  const ownerOnly = agent.role === "owner" && myRole !== "owner";
  const roles = ROLES.filter((r) => r !== "owner" || myRole === "owner" || agent.role === "owner");
  const roleId = `agent-role-${agent.id}`;
  const toggle = () => {
    const confirmText = deactivated
      ? t("agents.confirmReactivate", { name: agent.name })
      : t("agents.confirmDeactivate", { name: agent.name });
    if (window.confirm(confirmText)) update.mutate({ id: agent.id, active: deactivated });
  };
  return (
    <li
      className={cx("rounded-lg border border-slate-200 p-3 shadow-sm", deactivated ? "bg-slate-100" : "bg-white")}
      data-testid="agent-row"
      data-agent-id={agent.id}
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_11rem_minmax(0,1.2fr)_minmax(0,1.2fr)_8rem] lg:items-center">
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900">
            {agent.name} {isMe && <span className="text-sm font-normal text-slate-600">({t("agents.you")})</span>}
          </p>
          <p className="truncate text-sm text-slate-700">{agent.email}</p>
        </div>
        <div>
          {canWrite ? (
            <>
              <label htmlFor={roleId} className="sr-only">
                {t("agents.roleOf", { name: agent.name })}
              </label>
              <select
                id={roleId}
                className={inputClass}
                value={agent.role}
                disabled={ownerOnly || update.isPending}
                onChange={(e) => update.mutate({ id: agent.id, role: e.target.value as Role })}
              >
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {t(`role.${r}`)}
                  </option>
                ))}
              </select>
            </>
          ) : (
            <p className="text-sm">
              <span className="sr-only">{t("agents.role")}: </span>
              {t(`role.${agent.role}`)}
            </p>
          )}
        </div>
        <p className="text-sm text-slate-700">
          <span className="block text-xs text-slate-600">{t("agents.lastSignIn")}</span>
          {agent.last_sign_in_at ? formatDateTime(agent.last_sign_in_at, locale) : t("agents.never")}
        </p>
        <div className="text-sm">
          <span className="block text-xs text-slate-600">{t("agents.status")}</span>
          {deactivated ? (
            <span className="font-medium text-red-800" data-testid="agent-status">
              {t("agents.deactivatedSince", { date: formatDate(agent.deactivated_at!, locale) })}
            </span>
          ) : (
            <span className="inline-flex items-center gap-1.5" data-testid="agent-status">
              <span
                aria-hidden="true"
                className={cx("inline-block h-2 w-2 rounded-full", agent.active ? "bg-emerald-500" : "bg-slate-300")}
              />
              {t("agents.active")} · {agent.active ? t("agents.online") : t("agents.offline")}
            </span>
          )}
        </div>
        <div className="flex justify-start lg:justify-end">
          {canWrite && !isMe && (
            <Button
              variant={deactivated ? "secondary" : "danger"}
              disabled={ownerOnly || update.isPending}
              aria-label={deactivated ? t("agents.reactivateOf", { name: agent.name }) : t("agents.deactivateOf", { name: agent.name })}
              onClick={toggle}
            >
              {deactivated ? t("agents.reactivate") : t("agents.deactivate")}
            </Button>
          )}
        </div>
      </div>
      {update.error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {update.error.message}
        </p>
      )}
    </li>
  );
}
