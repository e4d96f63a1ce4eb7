/**
 * Which template statuses may be sent, and the 422 text of one that may not. Meta's statuses
 * (docs/features/templates-and-number-health.md): only APPROVED templates are accepted by the
 * Cloud API; PENDING, REJECTED, PAUSED, DISABLED, IN_APPEAL, LIMIT_EXCEEDED, PENDING_DELETION,
 * DELETED and ARCHIVED are not. Client-safe: no server module is imported here.
 */
export const SENDABLE_STATUSES = ["APPROVED"] as const;

export const isSendableStatus = (status: string) => (SENDABLE_STATUSES as readonly string[]).includes(status);

/**
 * `La plantilla X no está aprobada (estado: PAUSED).`, and Meta's reason when it gave one
 * (a rejection's, a pause's): ` Motivo: INVALID_FORMAT.`
 */
export function templateNotApproved(name: string, status: string, reason?: string | null): string {
  const base = `La plantilla ${name} no está aprobada (estado: ${status}).`;
  return reason && reason.toUpperCase() !== "NONE" ? `${base} Motivo: ${reason}.` : base;
}
