import "server-only";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { agentInvitations, teams } from "@/db/schema";

/** Data layer of the invitations to join a team (lib/agents/invitation-service.ts). */
const columns = {
  id: agentInvitations.id,
  teamId: agentInvitations.teamId,
  email: agentInvitations.email,
  role: agentInvitations.role,
  invitedByKind: agentInvitations.invitedByKind,
  invitedById: agentInvitations.invitedById,
  invitedByLabel: agentInvitations.invitedByLabel,
  createdAt: agentInvitations.createdAt,
  expiresAt: agentInvitations.expiresAt,
  usedAt: agentInvitations.usedAt,
  revokedAt: agentInvitations.revokedAt,
  // Compared on the database's clock, like every other expiry.
  expired: sql<boolean>`${agentInvitations.expiresAt} <= now()`.mapWith(Boolean),
};

export type InvitationRow = {
  id: number;
  teamId: number;
  email: string;
  role: string;
  invitedByKind: string;
  invitedById: number | null;
  invitedByLabel: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  expired: boolean;
};

const pending = and(isNull(agentInvitations.usedAt), isNull(agentInvitations.revokedAt));

/**
 * Revokes the team's pending invitation for `email`, if any (a new one replaces it: one pending
 * link per e-mail, agent_invitations_pending_email_uq). Returns the ids revoked.
 */
export async function revokePendingForEmail(db: DbOrTx, { teamId, email }: { teamId: number; email: string }): Promise<number[]> {
  const rows = await db
    .update(agentInvitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(agentInvitations.teamId, teamId), eq(agentInvitations.email, email), pending))
    .returning({ id: agentInvitations.id });
  return rows.map((r) => r.id);
}

export async function insertInvitation(
  db: DbOrTx,
  values: {
    teamId: number;
    email: string;
    role: string;
    tokenHash: string;
    invitedByKind: string;
    invitedById: number | null;
    invitedByLabel: string;
    ttlHours: number;
  },
): Promise<InvitationRow> {
  const { ttlHours, ...row } = values;
  const [inserted] = await db
    .insert(agentInvitations)
    .values({ ...row, expiresAt: sql`now() + make_interval(hours => ${ttlHours})` })
    .returning(columns);
  return inserted;
}

/** The team's pending invitations (not used, not revoked; expired ones too, marked), newest first. */
export async function listPendingInvitations(db: DbOrTx, teamId: number): Promise<InvitationRow[]> {
  return db
    .select(columns)
    .from(agentInvitations)
    .where(and(eq(agentInvitations.teamId, teamId), pending))
    .orderBy(desc(agentInvitations.id));
}

/** One invitation of the team, locked (FOR UPDATE) until the caller's transaction ends. */
export async function lockInvitation(tx: Tx, { teamId, id }: { teamId: number; id: number }): Promise<InvitationRow | undefined> {
  const [row] = await tx
    .select(columns)
    .from(agentInvitations)
    .where(and(eq(agentInvitations.teamId, teamId), eq(agentInvitations.id, id)))
    .limit(1)
    .for("update");
  return row;
}

export async function markInvitationRevoked(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  await db
    .update(agentInvitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(agentInvitations.teamId, teamId), eq(agentInvitations.id, id), pending));
}

/** An invitation by its token's hash, with its team's name (the accept page shows it). */
export async function findInvitationByHash(db: DbOrTx, tokenHash: string): Promise<(InvitationRow & { teamName: string }) | undefined> {
  const [row] = await db
    .select({ ...columns, teamName: teams.name })
    .from(agentInvitations)
    .innerJoin(teams, eq(teams.id, agentInvitations.teamId))
    .where(eq(agentInvitations.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/**
 * Uses the invitation: one conditional UPDATE, so of two accepts of one link only the first gets
 * the row (the second waits for its lock, then finds it used). Undefined when it was not usable:
 * used, revoked or expired by now.
 */
export async function claimInvitation(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(agentInvitations)
    .set({ usedAt: sql`now()` })
    .where(and(eq(agentInvitations.teamId, teamId), eq(agentInvitations.id, id), pending, gt(agentInvitations.expiresAt, sql`now()`)))
    .returning(columns);
  return row;
}

export async function noteInvitationAgent(db: DbOrTx, { teamId, id, agentId }: { teamId: number; id: number; agentId: number }) {
  await db
    .update(agentInvitations)
    .set({ usedByAgentId: agentId })
    .where(and(eq(agentInvitations.teamId, teamId), eq(agentInvitations.id, id)));
}

/** The team's name, for the invitation's mail. */
export async function teamNameOf(db: DbOrTx, teamId: number): Promise<string | undefined> {
  const [row] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId)).limit(1);
  return row?.name;
}
