import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { apiTokens } from "@/db/schema";

/** Data layer of the team's API tokens as the API lists them (lib/api-tokens/service.ts); never the hash. */
const tokenColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  scopes: apiTokens.scopes,
  createdAt: apiTokens.createdAt,
  createdByKind: apiTokens.createdByKind,
  createdById: apiTokens.createdById,
  createdByName: apiTokens.createdByName,
  lastUsedAt: apiTokens.lastUsedAt,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
  replacedById: apiTokens.replacedById,
  overlapEndsAt: apiTokens.overlapEndsAt,
};

export type TeamTokenRow = {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  createdByKind: string;
  createdById: number | null;
  createdByName: string;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedById: number | null;
  overlapEndsAt: Date | null;
};

/** The team's tokens, newest first. */
export async function listTeamTokenRows(db: DbOrTx, teamId: number): Promise<TeamTokenRow[]> {
  return db.select(tokenColumns).from(apiTokens).where(eq(apiTokens.teamId, teamId)).orderBy(desc(apiTokens.id));
}

export async function findTeamTokenRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<TeamTokenRow | undefined> {
  const [row] = await db
    .select(tokenColumns)
    .from(apiTokens)
    .where(and(eq(apiTokens.teamId, teamId), eq(apiTokens.id, id)))
    .limit(1);
  return row;
}

/** One token of the team, its row locked (FOR UPDATE) until the caller's transaction ends: two rolls of it cannot both pass. */
export async function lockTeamTokenRow(tx: Tx, { teamId, id }: { teamId: number; id: number }): Promise<TeamTokenRow | undefined> {
  const [row] = await tx
    .select(tokenColumns)
    .from(apiTokens)
    .where(and(eq(apiTokens.teamId, teamId), eq(apiTokens.id, id)))
    .limit(1)
    .for("update");
  return row;
}

/**
 * Marks a token rolled into `successorId`: it keeps working `overlapHours` more (the database's
 * clock), and with 0 it is revoked now. Either change is announced to every process by the
 * table's trigger.
 */
export async function markTokenRolled(
  tx: Tx,
  { teamId, id, successorId, overlapHours }: { teamId: number; id: number; successorId: number; overlapHours: number },
): Promise<TeamTokenRow> {
  const end = sql`now() + make_interval(hours => ${overlapHours}::int)`;
  const [row] = await tx
    .update(apiTokens)
    .set({ replacedById: successorId, overlapEndsAt: end, ...(overlapHours === 0 ? { revokedAt: sql`now()` } : {}) })
    .where(and(eq(apiTokens.teamId, teamId), eq(apiTokens.id, id)))
    .returning(tokenColumns);
  return row;
}
