import "server-only";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { agents, agentSessions } from "@/db/schema";

/** Data layer of the team's agents and their roles (lib/agents/service.ts). */
const liveSession = (db: DbOrTx) =>
  db
    .select({ one: sql`1` })
    .from(agentSessions)
    .where(
      and(
        eq(agentSessions.agentId, agents.id),
        eq(agentSessions.teamId, agents.teamId),
        gt(agentSessions.expiresAt, sql`now()`),
        isNull(agentSessions.endedAt),
      ),
    );

const agentColumns = (db: DbOrTx) => ({
  id: agents.id,
  name: agents.name,
  email: agents.email,
  role: agents.role,
  lastSignInAt: agents.lastSignInAt,
  active: sql<boolean>`exists (${liveSession(db)})`.mapWith(Boolean),
  deactivatedAt: agents.deactivatedAt,
});

export type TeamAgentRow = {
  id: number;
  name: string;
  email: string;
  role: string;
  lastSignInAt: Date | null;
  active: boolean;
  deactivatedAt: Date | null;
};

export async function listTeamAgentRows(db: DbOrTx, teamId: number): Promise<TeamAgentRow[]> {
  return db.select(agentColumns(db)).from(agents).where(eq(agents.teamId, teamId)).orderBy(asc(agents.id));
}

/** One agent of the team, its row locked (FOR UPDATE) until the caller's transaction ends. */
export async function lockTeamAgentRow(
  tx: Tx,
  { teamId, agentId }: { teamId: number; agentId: number },
): Promise<TeamAgentRow | undefined> {
  const [row] = await tx
    .select(agentColumns(tx))
    .from(agents)
    .where(and(eq(agents.teamId, teamId), eq(agents.id, agentId)))
    .limit(1)
    .for("update");
  return row;
}

/**
 * Locks the team's owners (FOR UPDATE) and returns the ids of the active ones (not deactivated).
 * Every role change and every (de)activation takes this lock first (then the target's row), so two
 * owners demoting or deactivating each other at once cannot both pass: the second one waits, then
 * sees one active owner fewer. Needs the caller's transaction.
 */
export async function lockTeamOwners(tx: Tx, teamId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: agents.id, deactivatedAt: agents.deactivatedAt })
    .from(agents)
    .where(and(eq(agents.teamId, teamId), eq(agents.role, "owner")))
    .for("update");
  return rows.filter((r) => !r.deactivatedAt).map((r) => r.id);
}

export async function setAgentRole(db: DbOrTx, { teamId, agentId, role }: { teamId: number; agentId: number; role: string }) {
  await db
    .update(agents)
    .set({ role })
    .where(and(eq(agents.teamId, teamId), eq(agents.id, agentId)));
}

/** Deactivates (`now()`) or reactivates (null) the agent; returns its new `deactivated_at`. */
export async function setAgentDeactivated(
  db: DbOrTx,
  { teamId, agentId, deactivated }: { teamId: number; agentId: number; deactivated: boolean },
) {
  const [row] = await db
    .update(agents)
    .set({ deactivatedAt: deactivated ? sql`now()` : null })
    .where(and(eq(agents.teamId, teamId), eq(agents.id, agentId)))
    .returning({ deactivatedAt: agents.deactivatedAt });
  return row?.deactivatedAt ?? null;
}

/** A new agent of the team (an accepted invitation); a taken e-mail raises the unique violation. */
export async function insertTeamAgent(
  db: DbOrTx,
  values: { teamId: number; email: string; name: string; passwordHash: string; role: string },
): Promise<{ id: number; name: string; email: string; teamId: number; role: string }> {
  const [row] = await db
    .insert(agents)
    .values(values)
    .returning({ id: agents.id, name: agents.name, email: agents.email, teamId: agents.teamId, role: agents.role });
  return row;
}
