import { describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { batchQuery, countQuery, pageQuery, type Conversation } from "@/lib/messages/history-repo";
import { createConversation, insertMessages, minuteSeries } from "../helpers/history-factories";

/**
 * The history queries must be answered from `messages_history_idx` (DESIGN §12). These EXPLAIN
 * the very SQL objects the repository sends. On a near-empty test table the planner may prefer a
 * sequential scan, which says nothing about production, so seq scans are disabled for this
 * transaction only; the point is that the index *can* serve every query shape, index-only.
 */
async function plan(query: SQL): Promise<string> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql`EXPLAIN (COSTS OFF) ${query}`));
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

describe("history query plans", () => {
  it("page (with its count), count and keyset batch all use messages_history_idx", async () => {
    const conv = await createConversation();
    await insertMessages(conv, minuteSeries("2026-03-10T00:00:00Z", 200));
    const db = await getDb();
    const c: Conversation = {
      teamId: conv.team.id,
      waNumberId: conv.number.id,
      contactId: conv.contact.id,
      window: { from: "2026-03-10 00:00:00", toExclusive: "2026-03-11 00:00:00" },
      timeZone: "America/Bogota",
    };
    const plans = {
      pageDesc: await plan(pageQuery(db, c, "DESC", 50, 100).getSQL()),
      pageAsc: await plan(pageQuery(db, c, "ASC", 50, 0).getSQL()),
      count: await plan(countQuery(db, c).getSQL()),
      batch: await plan(batchQuery(db, c, "ASC", 12345).getSQL()),
      openEnded: await plan(pageQuery(db, { ...c, window: { from: "2026-03-10 00:00:00", toExclusive: null } }, "DESC", 50, 0).getSQL()),
      multiDay: await plan(
        pageQuery(db, { ...c, window: { from: "2026-03-01 08:30:00", toExclusive: "2026-03-21 00:00:00" } }, "DESC", 50, 0).getSQL(),
      ),
    };
    if (process.env.HISTORY_PLAN_PRINT) console.log(JSON.stringify(plans, null, 2));
    for (const [name, text] of Object.entries(plans)) {
      // Ids come from an index-only scan of the history index, in id order: no heap, no sort of the conversation.
      expect(text, name).toMatch(/Index Only Scan( Backward)? using messages_history_(range_)?idx/);
      expect(text, name).not.toMatch(/Seq Scan|Bitmap Index Scan on messages_history_idx/);
    }
    // A page carries the conversation's total: its count is an InitPlan of the same statement,
    // not another round trip. A window inside one day is counted in the index alone (the page's
    // ids plus the count: two index-only scans)…
    for (const name of ["pageDesc", "pageAsc"] as const) {
      expect(plans[name].match(/Index Only Scan( Backward)? using messages_history_(range_)?idx/g)?.length, name).toBe(2);
      expect(plans[name], name).toMatch(/Aggregate/);
      expect(plans[name], name).not.toContain("conversation_days");
    }
    // …and a window of whole days sums them from the conversation_days rollup by its primary key,
    // counting only its partial edge days in the index.
    for (const name of ["openEnded", "multiDay"] as const) {
      expect(plans[name], name).toMatch(
        /Index (Only )?Scan using conversation_days_team_id_wa_number_id_contact_id_day_pk on conversation_days/,
      );
      expect(plans[name].match(/Index Only Scan( Backward)? using messages_history_(range_)?idx/g)?.length, name).toBeGreaterThanOrEqual(3);
    }
    // Rows are then read by primary key, only for the ids returned (deferred join); the final sort
    // orders at most one page or batch.
    for (const name of ["pageDesc", "pageAsc", "batch", "openEnded", "multiDay"] as const) {
      expect(plans[name], name).toMatch(/Index Scan on messages_pkey|Index Scan using messages_pkey/);
      expect(plans[name], name).toContain("InitPlan");
    }
    expect(plans.pageDesc).toContain("Index Only Scan Backward using messages_history_idx");
    // The keyset bound is an index condition of the history index, not a walk along the primary key.
    expect(plans.batch).toMatch(/Index Cond: \(\(ROW\(team_id, wa_number_id, contact_id, id\) > ROW\(/);
    // The count may read either covering index; both are index-only (0005 adds the range-keyed one).
    expect(plans.count).toMatch(/Index Only Scan using messages_history_(range_)?idx/);
  });
});
