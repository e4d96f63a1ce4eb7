import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";
import { agents, teams } from "@/db/schema";

/** Data layer of the first-run set-up (lib/setup/service.ts). */

/** Whether any team exists (the set-up is offered only while none does). */
export async function anyTeam(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ id: teams.id }).from(teams).limit(1);
  return !!row;
}

/**
 * Takes the lock that makes the first team once, for the rest of the caller's transaction: the
 * demo seed's own (lib/seed/repo.ts), so two set-ups, or a set-up and a seed, never both see an
 * empty database.
 */
export async function lockFirstTeam(db: Tx): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS.seed})`);
}

export async function insertSetupTeam(db: DbOrTx, values: { name: string; defaultCountry: string | null }) {
  const [row] = await db.insert(teams).values(values).returning({ id: teams.id, name: teams.name, defaultCountry: teams.defaultCountry });
  return row;
}

export async function insertSetupOwner(db: DbOrTx, values: { teamId: number; name: string; email: string; passwordHash: string }) {
  const [row] = await db
    .insert(agents)
    .values({ ...values, role: "owner" })
    .returning({ id: agents.id, name: agents.name, email: agents.email, teamId: agents.teamId, role: agents.role });
  return row;
}
