import "server-only";
import { getDb, transaction } from "@/db/client";
import { uniqueViolation } from "@/db/errors";
import { config } from "@/lib/config";
import type { AuthContext } from "@/lib/auth/context";
import { actingRole, isRole, type Role } from "@/lib/auth/permissions";
import { hashPassword } from "@/lib/auth/password";
import { hashToken } from "@/lib/auth/tokens";
import { findAgentByEmail, openSession } from "@/lib/auth/session-repo";
import type { AgentDto } from "@/lib/auth/session-schemas";
import { randomSecret } from "@/lib/crypto/hash";
import { ApiError } from "@/lib/http/errors";
import { actorOf, recordAudit, recordCallerAudit } from "@/lib/audit/service";
import { mailInvitation } from "@/lib/mail/invitation-mail";
import { insertTeamAgent } from "./repo";
import {
  claimInvitation,
  findInvitationByHash,
  insertInvitation,
  teamNameOf,
  listPendingInvitations,
  lockInvitation,
  markInvitationRevoked,
  noteInvitationAgent,
  revokePendingForEmail,
  type InvitationRow,
} from "./invitation-repo";
import {
  acceptEmailTaken,
  INVITATION_ALREADY_USED,
  INVITATION_BUSY,
  INVITATION_NOT_FOUND,
  INVITATION_TTL_HOURS,
  INVITE_LINK_EXPIRED,
  INVITE_LINK_REVOKED,
  INVITE_LINK_UNKNOWN,
  INVITE_LINK_USED,
  INVITE_OWNER_ONLY,
  inviteEmailTaken,
  type AcceptInvitationInput,
  type CreatedInvitationDto,
  type CreateInvitationInput,
  type InvitationDto,
  type InvitationLookupInput,
  type InvitationPreviewDto,
} from "./invitation-schemas";

/**
 * Invitations (docs/features/agents.md): an admin or owner creates a one-time link for an e-mail and
 * a role; whoever opens it chooses a name and a password, becomes the team's agent with that role
 * and is signed in. No e-mail is sent: the link is answered once, to whoever invited.
 */

const roleOf = (role: string): Role => (isRole(role) ? role : "agent");

function toDto(row: InvitationRow): InvitationDto {
  const kind = row.invitedByKind === "agent" || row.invitedByKind === "token" ? row.invitedByKind : "system";
  return {
    id: row.id,
    email: row.email,
    role: roleOf(row.role),
    invited_by: { kind, id: row.invitedById, name: row.invitedByLabel },
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    expired: row.expired,
  };
}

const auditTarget = (row: { id: number; email: string }) => ({ kind: "agent_invitation", id: row.id, name: row.email });

/**
 * A new invitation. Only an owner invites an owner (as only an owner grants the role); an e-mail
 * that already belongs to an agent is refused (409); a pending invitation for the same e-mail is
 * revoked and replaced (its link stops working), so a lost link is mended by inviting again.
 */
export async function createInvitation({ ctx, input }: { ctx: AuthContext; input: CreateInvitationInput }): Promise<CreatedInvitationDto> {
  if (input.role === "owner" && actingRole(ctx) !== "owner") throw ApiError.forbidden(INVITE_OWNER_ONLY);
  if (await findAgentByEmail(await getDb(), input.email)) throw ApiError.conflict(inviteEmailTaken(input.email));
  const token = randomSecret(32);
  const actor = actorOf(ctx);
  let row: InvitationRow;
  try {
    row = await transaction(async (tx) => {
      const replaced = await revokePendingForEmail(tx, { teamId: ctx.teamId, email: input.email });
      for (const id of replaced) {
        await recordCallerAudit(tx, ctx, { action: "agent.invitation_revoked", target: auditTarget({ id, email: input.email }) });
      }
      const created = await insertInvitation(tx, {
        teamId: ctx.teamId,
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedByKind: actor.kind,
        invitedById: actor.kind === "system" ? null : actor.id,
        invitedByLabel: actor.kind === "token" ? `token #${actor.id}` : actor.name,
        ttlHours: INVITATION_TTL_HOURS,
      });
      // The link is a secret: the trail keeps that one was made, never the link.
      await recordCallerAudit(tx, ctx, {
        action: "agent.invited",
        target: auditTarget(created),
        after: { email: created.email, role: created.role, expires_at: created.expiresAt.toISOString(), token: "set" },
      });
      return created;
    });
  } catch (err) {
    // Two invitations of one e-mail at once: the pending-link index lets one in.
    if (uniqueViolation(err)) throw ApiError.conflict(INVITATION_BUSY);
    throw err;
  }
  const link = `${config.appUrl}/invite/${token}`;
  // After the commit: a mail never announces an invitation that does not exist.
  const emailSent = await mailInvitation({
    to: row.email,
    link,
    teamName: (await teamNameOf(await getDb(), ctx.teamId)) ?? "",
    role: row.role,
    invitedBy: row.invitedByLabel,
    expiresAt: row.expiresAt,
  });
  return { ...toDto(row), link, email_sent: emailSent };
}

export async function listInvitations({ ctx }: { ctx: AuthContext }): Promise<InvitationDto[]> {
  return (await listPendingInvitations(await getDb(), ctx.teamId)).map(toDto);
}

/** Revokes a pending invitation: its link stops working. Revoking one already revoked changes nothing. */
export async function revokeInvitation({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<void> {
  await transaction(async (tx) => {
    const row = await lockInvitation(tx, { teamId: ctx.teamId, id: input.id });
    if (!row) throw ApiError.notFound(INVITATION_NOT_FOUND);
    if (row.usedAt) throw ApiError.conflict(INVITATION_ALREADY_USED);
    if (row.revokedAt) return;
    await markInvitationRevoked(tx, { teamId: ctx.teamId, id: row.id });
    await recordCallerAudit(tx, ctx, { action: "agent.invitation_revoked", target: auditTarget(row) });
  });
}

/** Throws what the accept page says of a link that cannot be used (unknown, used, revoked, expired). */
function assertUsable<T extends InvitationRow>(row: T | undefined): asserts row is T {
  if (!row) throw ApiError.notFound(INVITE_LINK_UNKNOWN);
  if (row.usedAt) throw new ApiError(410, INVITE_LINK_USED);
  if (row.revokedAt) throw new ApiError(410, INVITE_LINK_REVOKED);
  if (row.expired) throw new ApiError(410, INVITE_LINK_EXPIRED);
}

/** What the accept page shows before asking for a name and a password. */
export async function lookupInvitation({ input }: { input: InvitationLookupInput }): Promise<InvitationPreviewDto> {
  const db = await getDb();
  const row = await findInvitationByHash(db, hashToken(input.token));
  assertUsable(row);
  if (await findAgentByEmail(db, row.email)) throw ApiError.conflict(acceptEmailTaken(row.email));
  return { team_name: row.teamName, email: row.email, role: roleOf(row.role), expires_at: row.expiresAt.toISOString() };
}

/**
 * Accepts an invitation: creates the agent with the invited role, uses the invitation and opens a
 * session, in one transaction (of two accepts of one link, one wins; the other answers 410).
 * The link is checked before the password is hashed, so a dead link costs no scrypt. Returns the
 * session's raw token (only its hash is stored), as sign-in does.
 */
export async function acceptInvitation({ input, address }: { input: AcceptInvitationInput; address: string }) {
  const db = await getDb();
  const tokenHash = hashToken(input.token);
  const found = await findInvitationByHash(db, tokenHash);
  assertUsable(found);
  const taken = () => ApiError.conflict(acceptEmailTaken(found.email));
  if (await findAgentByEmail(db, found.email)) throw taken();
  const passwordHash = await hashPassword(input.password);
  const session = randomSecret(32);
  try {
    const agent = await transaction(async (tx) => {
      const claimed = await claimInvitation(tx, { teamId: found.teamId, id: found.id });
      if (!claimed) {
        // Used, revoked or expired since it was read: say which.
        assertUsable(await findInvitationByHash(tx, tokenHash));
        throw new ApiError(410, INVITE_LINK_USED);
      }
      const created = await insertTeamAgent(tx, {
        teamId: claimed.teamId,
        email: claimed.email,
        name: input.name,
        passwordHash,
        role: claimed.role,
      });
      await noteInvitationAgent(tx, { teamId: claimed.teamId, id: claimed.id, agentId: created.id });
      await openSession(tx, {
        agentId: created.id,
        teamId: created.teamId,
        tokenHash: hashToken(session),
        expiresAt: new Date(Date.now() + config.sessionTtlSeconds * 1000),
        keep: config.sessionsPerAgent,
      });
      const actor = { kind: "agent" as const, id: created.id, name: created.name };
      await recordAudit(tx, {
        teamId: created.teamId,
        actor,
        ip: address,
        action: "agent.joined",
        target: { kind: "agent", id: created.id, name: created.name },
        after: { name: created.name, email: created.email, role: created.role, password: "set", invitation: claimed.id },
      });
      return created;
    });
    const dto: AgentDto = { id: agent.id, name: agent.name, email: agent.email, team_id: agent.teamId, role: roleOf(agent.role) };
    return { token: session, agent: dto };
  } catch (err) {
    // The e-mail became an agent's meanwhile (another team's invitation, the admin CLI).
    if (uniqueViolation(err)) throw taken();
    throw err;
  }
}
