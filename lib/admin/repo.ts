import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { agents, teams } from "@/db/schema";

/** Data layer of the admin CLI for what no domain service covers: teams and agents. */
export async function insertTeam(db: DbOrTx, name: string) {
  const [row] = await db.insert(teams).values({ name }).returning({ id: teams.id, name: teams.name });
  return row;
}

export async function findTeam(db: DbOrTx, id: number) {
  const [row] = await db.select({ id: teams.id }).from(teams).where(eq(teams.id, id)).limit(1);
  return row;
}

export async function findAgentByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select({ id: agents.id }).from(agents).where(eq(agents.email, email)).limit(1);
  return row;
}

export async function insertAgent(db: DbOrTx, values: typeof agents.$inferInsert) {
  const [row] = await db.insert(agents).values(values).returning({ id: agents.id, email: agents.email, role: agents.role });
  return row;
}
