import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { waNumbers } from "@/db/schema";

/** A number by its digits; numbers are unique across the service (operator tooling only). */
export async function findNumberByDigits(db: DbOrTx, digits: string) {
  const [row] = await db.select().from(waNumbers).where(eq(waNumbers.number, digits)).limit(1);
  return row;
}
