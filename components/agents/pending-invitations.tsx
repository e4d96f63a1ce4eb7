"use client";
import { useInvitationMutations, useInvitations, type Invitation } from "@/lib/api-client/agents";
import { useI18n } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { Button, cx, EmptyState, ErrorBox, SkeletonRows } from "@/components/ui";

/** The invitations not used nor revoked (an expired one marked), each revocable by admins and owners. */
export function PendingInvitations({ canWrite }: { canWrite: boolean }) {
  const { t } = useI18n();
  const invitations = useInvitations();
  return (
    <section aria-labelledby="pending-title">
      <h2 id="pending-title" className="mb-3 text-lg font-semibold text-slate-900">
        {t("invite.pending")}
      </h2>
      {invitations.isError ? (
        <ErrorBox error={invitations.error} onRetry={() => invitations.refetch()} />
      ) : invitations.isLoading ? (
        <SkeletonRows rows={2} />
      ) : !invitations.data?.length ? (
        <EmptyState>{t("invite.pendingEmpty")}</EmptyState>
      ) : (
        <ul className="space-y-2" aria-labelledby="pending-title">
          {invitations.data.map((i) => (
            <InvitationRow key={i.id} invitation={i} canWrite={canWrite} />
          ))}
        </ul>
      )}
    </section>
  );
}

function InvitationRow({ invitation, canWrite }: { invitation: Invitation; canWrite: boolean }) {
  const { t, locale } = useI18n();
  const { revoke } = useInvitationMutations();
  const when = formatDateTime(invitation.expires_at, locale);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid="invitation-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="break-all font-medium text-slate-900">{invitation.email}</p>
          <p className="text-sm text-slate-700">
            {t(`role.${invitation.role}`)} · {t("invite.by", { name: invitation.invited_by.name })} ·{" "}
            <span className={cx(invitation.expired && "font-medium text-red-800")}>
              {invitation.expired ? t("invite.expired", { date: when }) : t("invite.expires", { date: when })}
            </span>
          </p>
        </div>
        {canWrite && (
          <Button
            variant="danger"
            disabled={revoke.isPending}
            aria-label={t("invite.revokeOf", { email: invitation.email })}
            onClick={() => {
              if (window.confirm(t("invite.confirmRevoke", { email: invitation.email }))) revoke.mutate(invitation.id);
            }}
          >
            {t("invite.revoke")}
          </Button>
        )}
      </div>
      {revoke.error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {revoke.error.message}
        </p>
      )}
    </li>
  );
}
