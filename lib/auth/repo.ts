import "server-only";
import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { placeholder, preparedOnce } from "@/db/prepared";
import { agents, agentSessions, apiTokens } from "@/db/schema";

// Every /api/v1 request runs one of these two: built once, executed as prepared statements, so
// their functions take `Db`, not `DbOrTx` (prepared once per pool handle, db/prepared.ts).
/**
 * A token not revoked, by its hash (placeholder tokenHash); also sent as is by the bench's floor.
 * Its expiry and the end of a roll's overlap come with it: authenticate() refuses an ended one
 * with a 401 that says why, even from the cache (lib/auth/token-validity.ts).
 */
export function tokenStatement(db: Db) {
  return db
    .select({
      id: apiTokens.id,
      teamId: apiTokens.teamId,
      scopes: apiTokens.scopes,
      expiresAt: apiTokens.expiresAt,
      overlapEndsAt: apiTokens.overlapEndsAt,
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, placeholder("tokenHash")), isNull(apiTokens.revokedAt)))
    .limit(1);
}
const tokenByHash = preparedOnce((db) => tokenStatement(db).prepare("auth_token_by_hash"));

const sessionByHash = preparedOnce((db) =>
  db
    .select({
      id: agentSessions.id,
      teamId: agentSessions.teamId,
      agentId: agents.id,
      agentName: agents.name,
      role: agents.role,
      endedReason: agentSessions.endedReason,
      deactivatedAt: agents.deactivatedAt,
    })
    .from(agentSessions)
    .innerJoin(agents, and(eq(agents.id, agentSessions.agentId), eq(agents.teamId, agentSessions.teamId)))
    .where(and(eq(agentSessions.tokenHash, placeholder("tokenHash")), gt(agentSessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare("auth_session_by_hash"),
);

/** Data layer of auth: one indexed read per request (by hash), nothing else. */
export async function findActiveTokenByHash(db: Db, tokenHash: string) {
  const [row] = await tokenByHash(db).execute({ tokenHash });
  return row;
}

/** Marks a token used at most once a minute, so reads do not become writes on every request. */
export async function touchToken(db: DbOrTx, id: number) {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`now() - interval '1 minute'`))));
}

export type NewTokenRow = {
  teamId: number;
  name: string;
  tokenHash: string;
  prefix: string;
  scopes: string[];
  expiresAt?: Date | null;
  createdByKind?: "agent" | "token" | "system";
  createdById?: number | null;
  createdByName?: string;
};

export async function insertToken(db: DbOrTx, input: NewTokenRow) {
  const [row] = await db.insert(apiTokens).values(input).returning({ id: apiTokens.id });
  return row;
}

/**
 * Revokes a token (the first revocation's time is kept); `teamId` keeps it to that team's tokens.
 * Its trigger announces it to every process (db/functions/api_tokens_announce_change.sql).
 */
export async function revokeToken(db: DbOrTx, { id, teamId }: { id: number; teamId?: number }) {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: sql`coalesce(${apiTokens.revokedAt}, now())` })
    .where(teamId === undefined ? eq(apiTokens.id, id) : and(eq(apiTokens.id, id), eq(apiTokens.teamId, teamId)))
    .returning({ id: apiTokens.id, teamId: apiTokens.teamId, name: apiTokens.name, revokedAt: apiTokens.revokedAt });
  return row;
}

export async function findSessionByHash(db: Db, tokenHash: string) {
  const [row] = await sessionByHash(db).execute({ tokenHash });
  return row;
}

/**
 * Of these token ids, the ones still active for their team (not revoked, expired, past a roll's
 * overlap, nor moved). Open event streams are re-checked with it (lib/events/stream-registry.ts):
 * one query for all of them.
 */
export async function stillActiveTokenIds(db: DbOrTx, tokens: { id: number; teamId: number }[]): Promise<Set<number>> {
  if (!tokens.length) return new Set();
  const rows = await db
    .select({ id: apiTokens.id, teamId: apiTokens.teamId })
    .from(apiTokens)
    .where(
      and(
        inArray(
          apiTokens.id,
          tokens.map((t) => t.id),
        ),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`)),
        or(isNull(apiTokens.overlapEndsAt), gt(apiTokens.overlapEndsAt, sql`now()`)),
      ),
    );
  const teamOf = new Map(rows.map((r) => [r.id, r.teamId]));
  return new Set(tokens.filter((t) => teamOf.get(t.id) === t.teamId).map((t) => t.id));
}

/**
 * Of these session ids, the ones still live: not signed out, ended or expired, and whose agent still
 * exists in the team and is not deactivated (an agent removed takes its sessions with it). Same use
 * as above.
 */
export async function stillLiveSessionIds(db: DbOrTx, sessions: { id: number; teamId: number }[]): Promise<Set<number>> {
  if (!sessions.length) return new Set();
  const rows = await db
    .select({ id: agentSessions.id, teamId: agentSessions.teamId })
    .from(agentSessions)
    .innerJoin(agents, and(eq(agents.id, agentSessions.agentId), eq(agents.teamId, agentSessions.teamId)))
    .where(
      and(
        inArray(
          agentSessions.id,
          sessions.map((t) => t.id),
        ),
        gt(agentSessions.expiresAt, sql`now()`),
        isNull(agentSessions.endedAt),
        isNull(agents.deactivatedAt),
      ),
    );
  const teamOf = new Map(rows.map((r) => [r.id, r.teamId]));
  return new Set(sessions.filter((t) => teamOf.get(t.id) === t.teamId).map((t) => t.id));
}
