import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";

/** A trivial query: resolves when the database answers, throws when it does not. */
export async function selectOne(db: DbOrTx): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
