import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, transaction } from "@/db/client";
import { openStreams } from "@/db/schema";
import { countLeases, deleteExpiredLeases, dropLeases, renewLeases, takeLease } from "@/lib/events/stream-lease-repo";

/**
 * The leases behind the cross-process stream cap (lib/events/stream-registry.ts): a holder takes
 * at most `max`, a lease that ran out (its process died) stops counting, a renewal writes back a
 * lease that was swept while its process stalled, and a dropped one frees its slot.
 */
const take = (holder: string, max = 3) => transaction((tx) => takeLease(tx, { holder, max, leaseSeconds: 30 }));

describe("stream leases", () => {
  it("a holder takes at most the cap, even all at once; others are counted apart", async () => {
    const holder = `test:${randomUUID()}`;
    const taken = await Promise.all(Array.from({ length: 8 }, () => take(holder)));
    expect(taken.filter((id) => id !== null)).toHaveLength(3);
    expect(await countLeases(await getDb(), holder)).toBe(3);
    expect(await take(`test:${randomUUID()}`)).not.toBeNull();
    await dropLeases(await getDb(), [taken.find((id) => id !== null)!]);
    expect(await take(holder)).not.toBeNull();
  });

  it("a lease past its expiry stops counting and is deleted a minute later; a renewal writes a swept lease back", async () => {
    const db = await getDb();
    const holder = `test:${randomUUID()}`;
    const ids = (await Promise.all([take(holder), take(holder), take(holder)])) as number[];
    expect(await take(holder)).toBeNull();
    // The process holding the first one died 2 minutes ago.
    await db
      .update(openStreams)
      .set({ expiresAt: sql`now() - interval '2 minutes'` })
      .where(eq(openStreams.id, ids[0]));
    expect(await countLeases(db, holder)).toBe(2);
    await deleteExpiredLeases(db);
    expect(await db.select().from(openStreams).where(eq(openStreams.id, ids[0]))).toHaveLength(0);
    // The second one's process stalled past its lease and was swept, yet its stream is still open.
    await db.delete(openStreams).where(eq(openStreams.id, ids[1]));
    await renewLeases(db, {
      leases: [
        { id: ids[1], holder },
        { id: ids[2], holder },
      ],
      leaseSeconds: 30,
    });
    expect(await countLeases(db, holder)).toBe(2);
    const [renewed] = await db
      .select({ live: sql<boolean>`${openStreams.expiresAt} > now() + interval '20 seconds'` })
      .from(openStreams)
      .where(eq(openStreams.id, ids[2]));
    expect(renewed.live).toBe(true);
  });
});
