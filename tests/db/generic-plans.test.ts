import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { genericPlansOf, getDb, getHandle, preparesNamed, rowsOf } from "@/db/client";
import { historyPage, partitionBounds } from "@/lib/messages/history-repo";
import { idRangeFor } from "@/lib/messages/history-bounds";
import { createConversation, insertMessages, minuteSeries } from "../helpers/history-factories";

const planCacheMode = async (db: Awaited<ReturnType<typeof getDb>>) =>
  rowsOf<{ plan_cache_mode: string }>(await db.execute(sql`SHOW plan_cache_mode`))[0].plan_cache_mode;

/**
 * The history's statements keep their generic plan on a direct connection (db/client.ts
 * genericPlansOf): with plan_cache_mode auto, PostgreSQL replanned the page at every execution on
 * the 50 M set's 52 partitions (11 ms of planning a page). Statements sent unnamed (PGlite, or
 * behind a transaction pooler in the scale pass) are planned with their values every time, pruned
 * when planned, and go through the pool itself.
 */
describe("the history's generic plans", () => {
  it("run the page on sessions with plan_cache_mode force_generic_plan when statements are named, else on the pool itself", async () => {
    const db = await getDb();
    const twin = genericPlansOf(db);
    if (preparesNamed(db)) {
      expect(twin).not.toBe(db);
      expect(preparesNamed(twin)).toBe(true);
      expect(await planCacheMode(twin)).toBe("force_generic_plan");
      // Nothing else changes: the pool's other statements keep PostgreSQL's own choice.
      expect(await planCacheMode(db)).toBe("auto");
    } else {
      expect(twin).toBe(db);
    }
    // The replica's handle, when there is one, has its own twin alike.
    const replica = (await getHandle()).replica?.db;
    if (replica) expect(genericPlansOf(replica) !== replica).toBe(preparesNamed(replica));

    // The page answers through it as through the pool, more times than PostgreSQL plans a named
    // statement with its values before it may settle on the generic plan.
    const conv = await createConversation();
    await insertMessages(conv, minuteSeries("2026-03-10T00:00:00Z", 30));
    const window = { from: "2026-03-10 00:00:00", toExclusive: "2026-03-11 00:00:00" };
    const c = {
      teamId: conv.team.id,
      waNumberId: conv.number.id,
      contactId: conv.contact.id,
      window,
      timeZone: "UTC",
      ids: idRangeFor(await partitionBounds(db), window),
    };
    for (let i = 0; i < 7; i++) {
      const { rows, total } = await historyPage(db, { conversation: c, order: "DESC", limit: 10, offset: 5 });
      expect(Number(total)).toBe(30);
      expect(rows.map((r) => r.payload)).toEqual(Array.from({ length: 10 }, (_, k) => ({ text: `mensaje ${24 - k}` })));
    }
  });
});
