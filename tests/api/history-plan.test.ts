import { describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { idRangeFor } from "@/lib/messages/history-bounds";
import { batchQuery, countQuery, pageQuery, pageStatement, partitionBounds, type Conversation } from "@/lib/messages/history-repo";
import { createConversation, insertMessages, minuteSeries } from "../helpers/history-factories";

/**
 * The history queries must be answered from `messages_history_idx` (DESIGN §12). These EXPLAIN
 * the very SQL objects the repository sends. On a near-empty test table the planner may prefer a
 * sequential scan, which says nothing about production, so seq scans are disabled for this
 * transaction only; the point is that the index *can* serve every query shape, index-only.
 */
// messages is partitioned (migration 0037): each partition's copy of the index is named after it
// (messages_p202611_history_idx), and a query over a conversation reads each partition's.
const HISTORY_SCAN = /Index Only Scan( Backward)? using messages_(\w+_)?history_(range_)?idx/;
const HISTORY_SCAN_G = new RegExp(HISTORY_SCAN.source, "g");

async function partitionCount(): Promise<number> {
  const db = await getDb();
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'messages'::regclass`),
  );
  return Number(row.n);
}

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
    const bounds = await partitionBounds(db);
    const window = { from: "2026-03-10 00:00:00", toExclusive: "2026-03-11 00:00:00" };
    const c: Conversation = {
      teamId: conv.team.id,
      waNumberId: conv.number.id,
      contactId: conv.contact.id,
      window,
      timeZone: "America/Bogota",
      ids: idRangeFor(bounds, window),
    };
    const within = (w: Conversation["window"]): Conversation => ({ ...c, window: w, ids: idRangeFor(bounds, w) });
    const plans = {
      pageDesc: await plan(pageQuery(db, c, "DESC", 50, 100).getSQL()),
      pageAsc: await plan(pageQuery(db, c, "ASC", 50, 0).getSQL()),
      count: await plan(countQuery(db, c).getSQL()),
      batch: await plan(batchQuery(db, c, "ASC", 12345).getSQL()),
      openEnded: await plan(pageQuery(db, within({ from: "2026-03-10 00:00:00", toExclusive: null }), "DESC", 50, 0).getSQL()),
      multiDay: await plan(
        pageQuery(db, within({ from: "2026-03-01 08:30:00", toExclusive: "2026-03-21 00:00:00" }), "DESC", 50, 0).getSQL(),
      ),
    };
    if (process.env.HISTORY_PLAN_PRINT) console.log(JSON.stringify(plans, null, 2));
    for (const [name, text] of Object.entries(plans)) {
      // Ids come from an index-only scan of the history index, in id order: no heap, no sort of the conversation.
      expect(text, name).toMatch(HISTORY_SCAN);
      expect(text, name).not.toMatch(/Seq Scan|Bitmap Index Scan on messages_(\w+_)?history_idx/);
      // The partitions' ranges cover every id without a DEFAULT partition (messages_tail above the
      // newest month), so ids in id order are an ordered Append that a LIMIT stops early, not a
      // Merge Append over every partition (tests/db/messages-partitions.test.ts shows what it reads).
      expect(text, name).not.toMatch(/Merge Append/);
    }
    // The window's id range prunes: of the partitions (legacy, two months, the tail), only the
    // one whose created_at bounds meet March 2026 is read (its ids hold the conversation's rows).
    expect(await partitionCount()).toBeGreaterThanOrEqual(4);
    for (const [name, text] of Object.entries(plans)) {
      const read = new Set([...text.matchAll(/using (messages_\w+?)_(history|pkey)/g)].map((m) => m[1]));
      expect([...read], name).toHaveLength(1);
    }
    // A page carries the conversation's total: its count is an InitPlan of the same statement,
    // not another round trip. A window inside one day is counted in the index alone (the page's
    // ids plus the count: two index-only scans)…
    for (const name of ["pageDesc", "pageAsc"] as const) {
      expect(plans[name].match(HISTORY_SCAN_G)?.length, name).toBe(2);
      expect(plans[name], name).toMatch(/Aggregate/);
      expect(plans[name], name).not.toContain("conversation_days");
    }
    // …and a window of whole days sums them from the conversation_days rollup by its primary key,
    // counting only its partial edge days in the index.
    for (const name of ["openEnded", "multiDay"] as const) {
      expect(plans[name], name).toMatch(
        /Index (Only )?Scan using conversation_days_team_id_wa_number_id_contact_id_day_pk on conversation_days/,
      );
      expect(plans[name].match(HISTORY_SCAN_G)?.length, name).toBeGreaterThanOrEqual(3);
    }
    // Rows are then read by primary key, only for the ids returned (deferred join); the final sort
    // orders at most one page or batch.
    for (const name of ["pageDesc", "pageAsc", "batch", "openEnded", "multiDay"] as const) {
      expect(plans[name], name).toMatch(/Index Scan( Backward)? (on|using) messages_(\w+_)?pkey/);
      expect(plans[name], name).toContain("InitPlan");
    }
    expect(plans.pageDesc).toMatch(/Index Only Scan Backward using messages_(\w+_)?history_idx/);
    // The keyset bound is an index condition of the history index, not a walk along the primary key.
    expect(plans.batch).toMatch(/Index Cond: \(\(ROW\(team_id, wa_number_id, contact_id, id\) > ROW\(/);
    // The count may read either covering index; both are index-only (0005 adds the range-keyed one).
    expect(plans.count).toMatch(HISTORY_SCAN);
    // Every statement checks its range in its own snapshot (messages_history_ids_cover), once
    // before any row: an InitPlan that gates the whole statement, not a filter per row
    // (PostgreSQL 15 shows its result as $n, PGlite's 17 as (InitPlan n).col1).
    for (const [name, text] of Object.entries(plans))
      expect(text.split("\n")[1], name).toMatch(/^\s*One-Time Filter: (\$\d+|\(InitPlan \d+\)\.col1)$/);
  });

  it("the app's prepared page prunes by its id range in a generic plan too (Subplans Removed), when it starts", async () => {
    const conv = await createConversation();
    await insertMessages(conv, minuteSeries("2026-03-10T00:00:00Z", 50));
    const db = await getDb();
    const window = { from: "2026-03-10 00:00:00", toExclusive: "2026-03-11 00:00:00" };
    const ids = idRangeFor(await partitionBounds(db), window);
    const values: Record<string, string | number> = {
      teamId: conv.team.id,
      waNumberId: conv.number.id,
      contactId: conv.contact.id,
      from: window.from,
      to: window.toExclusive,
      tz: "UTC",
      lo: ids.lo,
      hi: ids.hi,
      limit: 20,
      offset: 0,
    };
    // The statement the app prepares (history_page_desc_bounded), its placeholders as $n, PREPAREd
    // and run under a forced generic plan: planned once without the values, as a connection's
    // prepared statement is after its first executions. Both ways of writing the bounds: as they
    // are (unnamed statements, pruned when planned) and through messages_history_id (named ones).
    const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
    const partitions = await partitionCount();
    for (const pruneAt of ["plan", "start"] as const) {
      const { sql: text, params } = pageStatement(db, "DESC", true, pruneAt).toSQL();
      const args = params.map((p) =>
        literal(typeof p === "object" && p !== null && "name" in p ? values[(p as { name: string }).name] : p),
      );
      const lines = await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
        await tx.execute(sql.raw(`PREPARE history_generic AS ${text}`));
        const out = rowsOf<{ "QUERY PLAN": string }>(
          await tx.execute(sql.raw(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE history_generic(${args.join(", ")})`)),
        );
        const rows = rowsOf<{ id: number }>(await tx.execute(sql.raw(`EXECUTE history_generic(${args.join(", ")})`)));
        await tx.execute(sql`DEALLOCATE history_generic`);
        return { plan: out.map((r) => r["QUERY PLAN"]).join("\n"), rows: rows.length };
      });
      if (process.env.HISTORY_PLAN_PRINT) console.log(lines.plan);
      expect(lines.rows, pruneAt).toBe(20);
      // A generic plan holds every partition; the executor removes the others as it starts, by $lo and $hi.
      const removed = [...lines.plan.matchAll(/Subplans Removed: (\d+)/g)].map((m) => Number(m[1]));
      expect(removed.length, lines.plan).toBeGreaterThanOrEqual(3);
      for (const n of removed) expect(n, lines.plan).toBe(partitions - 1);
    }
  });
});
