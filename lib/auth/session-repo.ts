import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
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

export async function findAgentById(db: DbOrTx, teamId: number, agentId: number) {
  const [row] = await db
    .select({ id: agents.id, name: agents.name, email: agents.email, teamId: agents.teamId, locale: agents.locale })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.teamId, teamId)))
    .limit(1);
  return row;
}

export async function insertSession(db: DbOrTx, values: { agentId: number; teamId: number; tokenHash: string; expiresAt: Date }) {
  // Expired rows of this agent are cleared on the way in, so the table never grows without bound.
  await db.delete(agentSessions).where(and(eq(agentSessions.agentId, values.agentId), lt(agentSessions.expiresAt, sql`now()`)));
  const [row] = await db.insert(agentSessions).values(values).returning({ id: agentSessions.id });
  return row;
}

export async function deleteSession(db: DbOrTx, teamId: number, sessionId: number) {
  await db.delete(agentSessions).where(and(eq(agentSessions.id, sessionId), eq(agentSessions.teamId, teamId)));
}
