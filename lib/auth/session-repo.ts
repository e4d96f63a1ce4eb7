import "server-only";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { agents, agentSessions } from "@/db/schema";

/** Data layer of agent sign-in: sessions are rows keyed by the SHA-256 of the cookie's token. */
export async function findAgentByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select()
    .from(agents)
    .where(sql`lower(${agents.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findAgentById(db: DbOrTx, { teamId, agentId }: { teamId: number; agentId: number }) {
  const [row] = await db
    .select({ id: agents.id, name: agents.name, email: agents.email, teamId: agents.teamId, locale: agents.locale, role: agents.role })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.teamId, teamId)))
    .limit(1);
  return row;
}

/** Why a session was ended for its agent (`ended_reason`); its next request is told (lib/auth/authenticate.ts). */
export const SESSION_LIMIT_REASON = "session_limit";
/** The agent was deactivated (lib/agents/service.ts). */
export const AGENT_DEACTIVATED_REASON = "agent_deactivated";

/**
 * Opens a session, notes the agent's last sign-in, and ends its oldest live ones beyond `keep`. The ended rows stay until
 * they expire, so their next request can be told why instead of a bare 401. Concurrent sign-ins
 * each end whatever lies beyond the newest `keep` they see: the last of them sees every other
 * session, so no more than `keep` stay live.
 */
export async function openSession(
  db: DbOrTx,
  values: { agentId: number; teamId: number; tokenHash: string; expiresAt: Date; keep: number },
) {
  const { keep, ...session } = values;
  // Expired rows of this agent are cleared on the way in, so the table never grows without bound.
  await db.delete(agentSessions).where(and(eq(agentSessions.agentId, values.agentId), lt(agentSessions.expiresAt, sql`now()`)));
  const [row] = await db.insert(agentSessions).values(session).returning({ id: agentSessions.id });
  const live = and(eq(agentSessions.agentId, values.agentId), eq(agentSessions.teamId, values.teamId), isNull(agentSessions.endedAt));
  const oldestKept = db
    .select({ id: agentSessions.id })
    .from(agentSessions)
    .where(and(live, gt(agentSessions.expiresAt, sql`now()`)))
    .orderBy(desc(agentSessions.id))
    .offset(keep - 1)
    .limit(1);
  await db
    .update(agentSessions)
    .set({ endedAt: sql`now()`, endedReason: SESSION_LIMIT_REASON })
    .where(and(live, lt(agentSessions.id, sql`(${oldestKept})`)));
  await db
    .update(agents)
    .set({ lastSignInAt: sql`now()` })
    .where(and(eq(agents.id, values.agentId), eq(agents.teamId, values.teamId)));
  return row;
}

export async function deleteSession(db: DbOrTx, { teamId, sessionId }: { teamId: number; sessionId: number }) {
  await db.delete(agentSessions).where(and(eq(agentSessions.id, sessionId), eq(agentSessions.teamId, teamId)));
}

/**
 * Ends every live session of the agent with `reason`, in the caller's transaction. The rows stay
 * until they expire, like the session limit's, so the next request of each is told why; the
 * agent's open event streams end at the stream registry's next check (lib/events/stream-registry.ts).
 * Returns how many were ended.
 */
export async function endAgentSessions(db: DbOrTx, { teamId, agentId, reason }: { teamId: number; agentId: number; reason: string }) {
  const rows = await db
    .update(agentSessions)
    .set({ endedAt: sql`now()`, endedReason: reason })
    .where(and(eq(agentSessions.teamId, teamId), eq(agentSessions.agentId, agentId), isNull(agentSessions.endedAt)))
    .returning({ id: agentSessions.id });
  return rows.length;
}
