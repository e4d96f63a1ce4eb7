import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { ALL_IDS } from "@/lib/messages/history-bounds";
import { partitionsDatabaseUrl } from "../global-setup";

/**
 * The monthly partitions of messages by id (migration 0037, db/functions/messages_partitions.sql,
 * lib/messages/partitions.ts). The functions take "now" as a parameter, so a month boundary is
 * pinned rather than waited for. They move the id sequence (setval is never rolled back) and
 * drop whole months, so on a server this file works in a database of its own beside the suite's
 * (made and migrated by tests/global-setup.ts before the run), not in the shared one; without
 * DATABASE_URL it has its own in-memory PGlite anyway.
 */
let sharedUrl: string | undefined;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  sharedUrl = process.env.DATABASE_URL;
  const { closeDb } = await import("@/db/client");
  await closeDb();
  process.env.DATABASE_URL = partitionsDatabaseUrl(sharedUrl);
});

afterAll(async () => {
  if (!sharedUrl) return;
  const { closeDb } = await import("@/db/client");
  await closeDb();
  process.env.DATABASE_URL = sharedUrl;
});

const db = async () => (await import("@/db/client")).getDb();
const rows = async <T>(q: SQL, on?: DbOrTx): Promise<T[]> => {
  const { rowsOf } = await import("@/db/client");
  return rowsOf<T>(await (on ?? (await db())).execute(q));
};
const parts = async () => (await import("@/lib/messages/partitions-repo")).listMessagePartitions(await db());
const nextId = async () => Number((await rows<{ n: string }>(sql`SELECT messages_next_id() AS n`))[0].n);
const ensure = async (at: string, minCapacity: number) =>
  Number(
    (await rows<{ n: number }>(sql`SELECT made AS n FROM messages_ensure_partitions(${at}::timestamptz, ${minCapacity}::bigint)`))[0].n,
  );
/** The tail's lower bound (it takes every id from there to MAXVALUE). */
const tailLo = async () => {
  const [t] = await rows<{ bound: string }>(
    sql`SELECT pg_get_expr(relpartbound, oid) AS bound FROM pg_class WHERE relname = 'messages_tail' AND relispartition`,
  );
  return Number(/FROM \((\d+)\) TO \(MAXVALUE\)/.exec(t.bound)?.[1]);
};
const partOf = async (id: number) =>
  (await rows<{ p: string }>(sql`SELECT tableoid::regclass::text AS p FROM messages WHERE id = ${id}`))[0]?.p;
/** First instant (UTC) of the month `n` months after the one of `iso`. */
const monthStart = (iso: string, n: number) => {
  const d = new Date(iso);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)).toISOString();
};
const partName = (iso: string) => `messages_p${iso.slice(0, 7).replace("-", "")}`;

async function conversation() {
  const { createConversation } = await import("../helpers/history-factories");
  return createConversation();
}
async function insert(conv: Awaited<ReturnType<typeof conversation>>, values: Record<string, unknown>[]) {
  const { insertMessages } = await import("../helpers/history-factories");
  return insertMessages(conv, values);
}

describe("messages partitions", () => {
  it("the migration made the current and the next month's partitions, and the sequence draws from the current", async () => {
    const now = new Date().toISOString();
    const names = (await parts()).map((p) => p.name);
    expect(names).toEqual(["messages_legacy", partName(monthStart(now, 0)), partName(monthStart(now, 1))]);
    const conv = await conversation();
    const [m] = await insert(conv, [{}]);
    expect(await partOf(m.id)).toBe(partName(monthStart(now, 0)));
    // Above the next month, the tail takes every id up to MAXVALUE (no DEFAULT partition).
    expect(await tailLo()).toBe((await parts())[2].hi);
    // The chore at start changes nothing this month: both exist and the next one is unused.
    const { maintainMessages } = await import("@/lib/messages/partitions");
    expect(await maintainMessages()).toEqual({ made: 0, dropped: 0, tailInUse: false });
  });

  it("keeps the coming months ahead and jumps the sequence to a month's partition when it begins (only forward)", async () => {
    const conv = await conversation();
    const before = await parts();
    const newest = before[before.length - 1];
    // Pinned at the first second of the month after the newest partition's: that month and the next are made on top.
    const month = monthStart(`${newest.name.slice(10, 14)}-${newest.name.slice(14, 16)}-01T00:00:00Z`, 1);
    expect(await ensure(month, 10)).toBe(2);
    const after = await parts();
    const made = after.slice(before.length);
    expect(made.map((p) => p.name)).toEqual([partName(month), partName(monthStart(month, 1))]);
    expect(made[0].lo).toBe(newest.hi);
    expect(made[1].lo).toBe(made[0].hi);
    // The tail, empty, was dropped and made again above them (the references to messages, whose
    // rows it has none of, did not stand in the way).
    expect(await tailLo()).toBe(made[1].hi);
    // Room: at least 10 ids, and twice what the busiest recent partition used.
    expect(made[0].hi - (made[0].lo ?? 0)).toBeGreaterThanOrEqual(10);
    expect(await nextId()).toBe(made[0].lo);
    const [m] = await insert(conv, [{}]);
    expect(await partOf(m.id)).toBe(partName(month));
    // Again in the same month: nothing to do. In an earlier month: the sequence never moves back.
    expect(await ensure(month, 10)).toBe(0);
    const drawn = await nextId();
    expect(await ensure(monthStart(month, -1), 10)).toBe(0);
    expect(await nextId()).toBe(drawn);
  });

  it("lets a month overflow into the next month's partition, makes another ahead, and sends ids past every month to the tail", async () => {
    const conv = await conversation();
    let all = await parts();
    const [current, next] = all.slice(-2);
    const at = `${current.name.slice(10, 14)}-${current.name.slice(14, 16)}-15T12:00:00Z`;
    // The current month has used its room: ids go on in the next month's partition.
    await (await db()).execute(sql`SELECT setval('messages_id_seq', ${current.hi}, false)`);
    const [spill] = await insert(conv, [{}]);
    expect(spill.id).toBe(current.hi);
    expect(await partOf(spill.id)).toBe(next.name);
    // The newest partition has started to fill: the chore makes one more ahead.
    expect(await ensure(at, 10)).toBe(1);
    all = await parts();
    const ahead = all[all.length - 1];
    expect(ahead.lo).toBe(next.hi);
    expect(ahead.name > next.name).toBe(true);
    expect(await tailLo()).toBe(ahead.hi);
    // Past every partition (a burst outran every month made ahead): the tail takes the row, the
    // insert never fails.
    await (await db()).execute(sql`SELECT setval('messages_id_seq', ${ahead.hi + 5}, false)`);
    const [stray] = await insert(conv, [{ direction: "OUTBOUND", sender: "AGENT", status: "SENT", providerMessageId: "wamid.tail" }]);
    expect(await partOf(stray.id)).toBe("messages_tail");
    await (
      await db()
    ).execute(sql`INSERT INTO message_status_history (team_id, message_id, status) VALUES (${conv.team.id}, ${stray.id}, 'SENT')`);
    // A tail that holds rows is left as it is (they are referenced, and could not leave it): no
    // later month is made, and the chore says so. Ids go on in the tail.
    const beforeTail = (await parts()).length;
    const { maintainMessagePartitions } = await import("@/lib/messages/partitions-repo");
    const { transaction } = await import("@/db/client");
    expect(
      await transaction((tx) => maintainMessagePartitions(tx, { at: new Date(at), minCapacity: 10, retentionMonths: undefined })),
    ).toEqual({
      made: 0,
      dropped: 0,
      tailInUse: true,
    });
    expect(await parts()).toHaveLength(beforeTail);
    expect(await tailLo()).toBe(ahead.hi);
    const [more] = await insert(conv, [{}]);
    expect(await partOf(more.id)).toBe("messages_tail");
    // Once the tail is empty again (here: its rows deleted, the sequence set back below them),
    // months are made on top as before, the first from the tail's old lower bound.
    await (await db()).execute(sql`DELETE FROM messages WHERE id IN (${stray.id}, ${more.id}) AND team_id = ${conv.team.id}`);
    await (await db()).execute(sql`SELECT setval('messages_id_seq', ${ahead.hi}, false)`);
    expect(await ensure(at, 10)).toBe(1);
    all = await parts();
    expect(all[all.length - 1].lo).toBe(ahead.hi);
    expect(await tailLo()).toBe(all[all.length - 1].hi);
    const [after] = await insert(conv, [{}]);
    expect(await partOf(after.id)).toBe(all[all.length - 1].name);
  });

  it("drops a month past MESSAGES_RETENTION_MONTHS with the rows that reference it; replies keep their text, a conversation with nothing left goes", async () => {
    const conv = await conversation();
    const all = await parts();
    const newest = all[all.length - 1];
    const old = monthStart(`${newest.name.slice(10, 14)}-${newest.name.slice(14, 16)}-01T00:00:00Z`, 1);
    const later = monthStart(old, 1);
    // A month of its own, with a message that a status, a provider id, an outgoing webhook and a
    // later reply refer to.
    await ensure(old, 10);
    const [gone] = await insert(conv, [
      { direction: "OUTBOUND", sender: "AGENT", status: "SENT", providerMessageId: "wamid.old", createdAt: new Date(old), type: "text" },
    ]);
    expect(await partOf(gone.id)).toBe(partName(old));
    const lonely = await conversation();
    await insert(lonely, [{ createdAt: new Date(old) }]);
    const d = await db();
    await d.execute(sql`INSERT INTO message_status_history (team_id, message_id, status) VALUES (${conv.team.id}, ${gone.id}, 'SENT')`);
    await ensure(later, 10);
    const [reply] = await insert(conv, [{ replyToMessageId: gone.id, createdAt: new Date(later), payload: { text: "respuesta" } }]);
    expect(await partOf(reply.id)).toBe(partName(later));
    const provider = async () =>
      rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM message_provider_ids WHERE message_id = ${gone.id}`);
    expect((await provider())[0].n).toBe(1);
    // One month kept: at `later` + 1 month, `old` ended more than a month ago; `later` did not.
    const { maintainMessagePartitions } = await import("@/lib/messages/partitions-repo");
    const { transaction } = await import("@/db/client");
    const result = await transaction((tx) =>
      maintainMessagePartitions(tx, { at: new Date(monthStart(later, 1)), minCapacity: 10, retentionMonths: 1 }),
    );
    expect(result?.dropped).toBeGreaterThanOrEqual(1);
    const names = (await parts()).map((p) => p.name);
    expect(names).not.toContain(partName(old));
    expect(names).toContain(partName(later));
    expect(await partOf(gone.id)).toBeUndefined();
    expect((await provider())[0].n).toBe(0);
    expect((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM message_status_history WHERE message_id = ${gone.id}`))[0].n).toBe(
      0,
    );
    const [kept] = await rows<{ reply_to_message_id: number | null }>(sql`SELECT reply_to_message_id FROM messages WHERE id = ${reply.id}`);
    expect(kept.reply_to_message_id).toBeNull();
    // A conversation whose every message was dropped (its last one was in that month) has no
    // history left: its row goes, and the next message makes it again.
    const convOf = async () =>
      rows<{ last_message_id: number }>(
        sql`SELECT last_message_id FROM conversations WHERE team_id = ${lonely.team.id} AND contact_id = ${lonely.contact.id}`,
      );
    expect(await convOf()).toEqual([]);
    const [again] = await insert(lonely, [{ payload: { text: "sigo aquí" } }]);
    expect((await convOf()).map((c) => c.last_message_id)).toEqual([again.id]);
    // The rollups are aggregates and keep counting it: a dropped partition fires no row trigger.
  });

  it("a wamid is stored once: a duplicate webhook (even concurrent) is a duplicate, and no other message may take it", async () => {
    const conv = await conversation();
    const { ingestEach } = await import("@/lib/meta-webhooks/inbound");
    const { waNumbers } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const [row] = await (await db()).select().from(waNumbers).where(eq(waNumbers.id, conv.number.id));
    const number = { ...row, secrets: {} };
    const msg = {
      providerMessageId: `wamid.dup.${Date.now()}`,
      from: "573001112233",
      timestamp: Math.floor(Date.now() / 1000),
      type: "text",
      payload: { text: "hola" },
    };
    const outcomes = (await Promise.all([ingestEach(number, [msg]), ingestEach(number, [msg]), ingestEach(number, [msg])])).flat();
    expect(
      outcomes.filter((o) => o.ok),
      JSON.stringify(outcomes.map((o) => (!o.ok && !o.duplicate ? String(o.error) : o.ok))),
    ).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && o.duplicate)).toHaveLength(2);
    const stored = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM messages WHERE wa_number_id = ${conv.number.id} AND provider_message_id = ${msg.providerMessageId}`,
    );
    expect(stored[0].n).toBe(1);
    // Hand-written SQL cannot give another message the same wamid on that number.
    const [other] = await insert(conv, [{ direction: "OUTBOUND", sender: "AGENT", status: "QUEUED" }]);
    await expect(
      (await db()).execute(sql`UPDATE messages SET provider_message_id = ${msg.providerMessageId} WHERE id = ${other.id}`),
    ).rejects.toMatchObject({ cause: { code: "23505" } });
    // A changed wamid moves its claim.
    await (await db()).execute(sql`UPDATE messages SET provider_message_id = 'wamid.moved' WHERE id = ${other.id}`);
    const claims = await rows<{ provider_message_id: string }>(
      sql`SELECT provider_message_id FROM message_provider_ids WHERE message_id = ${other.id}`,
    );
    expect(claims.map((c) => c.provider_message_id)).toEqual(["wamid.moved"]);
  });

  it("plans: a lookup by id and a status lookup by wamid read one partition; the queue claim reads each partition's small partial index", async () => {
    const conv = await conversation();
    const all = await parts();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const [m] = await insert(conv, [{ direction: "OUTBOUND", sender: "AGENT", status: "SENT", providerMessageId: "wamid.plan" }]);
    const d = await db();
    const explain = (q: SQL, analyze = false) =>
      d.transaction(async (tx) => {
        // As tests/api/history-plan.test.ts does: on near-empty tables the planner may prefer a seq scan.
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        const lines = await rows<{ "QUERY PLAN": string }>(
          analyze ? sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${q}` : sql`EXPLAIN (COSTS OFF) ${q}`,
          tx,
        );
        return lines.map((l) => l["QUERY PLAN"]).join("\n");
      });
    const scans = (plan: string) => plan.split("\n").filter((l) => / on messages_\w+/.test(l) && /Scan/.test(l));
    // By id (and team): pruned when planned, one partition's key.
    const byId = await explain(sql`SELECT * FROM messages WHERE id = ${m.id} AND team_id = ${conv.team.id}`);
    expect(scans(byId), byId).toHaveLength(1);
    expect(byId).toMatch(/Index (Only )?Scan using messages_p\d{6}_\w+ on messages_p\d{6}/);
    // By wamid, as the status path looks it up (the statement of lib/delivery/status-repo.ts
    // moveKnownStatuses): message_provider_ids' key, then the message by its id, pruned as it
    // runs: every other partition "never executed".
    const byWamid = await explain(
      sql`SELECT m.id FROM jsonb_to_recordset(${JSON.stringify([{ team_id: conv.team.id, wa_number_id: conv.number.id, provider_id: "wamid.plan" }])}::jsonb)
          AS i(team_id int, wa_number_id int, provider_id text)
        CROSS JOIN LATERAL (
          SELECT m.* FROM message_provider_ids p
          CROSS JOIN LATERAL (SELECT * FROM messages m WHERE m.id = p.message_id AND m.team_id = p.team_id OFFSET 0) m
          WHERE p.wa_number_id = i.wa_number_id AND p.provider_message_id = i.provider_id AND p.team_id = i.team_id
          LIMIT 1) m`,
      true,
    );
    expect(byWamid).toMatch(/Index Scan using message_provider_ids_pkey/);
    const executed = scans(byWamid).filter((l) => !l.includes("never executed"));
    expect(executed, byWamid).toHaveLength(1);
    // The worker's claim (lib/delivery/repo.ts claimMessages): due QUEUED rows earliest first, a
    // Merge Append of every partition's partial queue index (only QUEUED rows: a month whose sends
    // are done has an empty one, one page to read).
    const claim = await explain(
      sql`SELECT id FROM messages WHERE status = 'QUEUED' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT 40`,
    );
    expect(claim).toMatch(/Merge Append/);
    expect(claim).not.toMatch(/Seq Scan/);
    expect(
      scans(claim).every((l) => /messages_\w+_queue_idx/.test(l)),
      claim,
    ).toBe(true);
    expect(scans(claim)).toHaveLength(all.length + 1);
  });

  it("plans: a history page is an ordered Append (no Merge Append) that stops in the newest partitions it needs", async () => {
    const conv = await conversation();
    // Two months of their own on top, ten of the conversation's messages in each.
    const newest = (await parts()).at(-1)!;
    const month = monthStart(`${newest.name.slice(10, 14)}-${newest.name.slice(14, 16)}-01T00:00:00Z`, 1);
    await ensure(month, 100);
    const [older, newer] = (await parts()).slice(-2);
    const d = await db();
    const at = new Date(Date.now() - 3600_000);
    for (const p of [older, newer]) {
      await d.execute(sql`SELECT setval('messages_id_seq', ${p.lo}, false)`);
      await insert(
        conv,
        Array.from({ length: 10 }, (_, i) => ({ createdAt: new Date(at.getTime() + i * 1000) })),
      );
    }
    const { pageQuery } = await import("@/lib/messages/history-repo");
    const day = at.toISOString().slice(0, 10);
    const page = pageQuery(d, {
      conversation: {
        teamId: conv.team.id,
        waNumberId: conv.number.id,
        contactId: conv.contact.id,
        window: { from: `${day} 00:00:00`, toExclusive: null },
        timeZone: "UTC",
        // Every id: what the Append does unpruned (the pruning by a window's ids is tested below).
        ids: ALL_IDS,
      },
      order: "DESC",
      limit: 5,
      offset: 0,
    });
    const plan = await d.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const lines = await rows<{ "QUERY PLAN": string }>(sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${page.getSQL()}`, tx);
      return lines.map((l) => l["QUERY PLAN"]);
    });
    // The page's ids: the Limit's subtree (the count beside it reads every partition's edge days).
    const start = plan.findIndex((l) => /->\s+Limit/.test(l));
    const indent = plan[start].search(/\S/);
    const end = plan.findIndex((l, i) => i > start && l.search(/\S/) <= indent);
    const ids = plan.slice(start, end === -1 ? undefined : end);
    const text = plan.join("\n");
    expect(ids.join("\n"), text).toMatch(/->\s+Append/);
    expect(ids.join("\n"), text).not.toMatch(/Merge Append/);
    const idScans = ids.filter((l) => /Index Only Scan Backward using messages_\w+_history_idx on messages_\w+/.test(l));
    // Every partition is in the plan (no id bound to prune by)…
    expect(idScans.length, text).toBe((await parts()).length + 1);
    // …but only the tail (empty, newest) and the newest month were read: the five ids came from there.
    const read = idScans.filter((l) => !l.includes("never executed")).map((l) => / on (messages_\w+)/.exec(l)?.[1]);
    expect(read, text).toEqual(["messages_tail", newer.name]);
  });

  it("a history window becomes an id range that never leaves out a message whose created_at does not follow its id", async () => {
    const { messageHistory } = await import("@/lib/messages/history-service");
    const { parseLocalDate } = await import("@/lib/messages/history-schemas");
    const conv = await conversation();
    const d = await db();
    // Every partition has its bounds row, with its range (the chore and the drop above kept them).
    const catalog = await rows<{ name: string; lo: string; hi: string }>(
      sql`SELECT name, lo, hi FROM messages_partitions_all() ORDER BY lo`,
    );
    const kept = await rows<{ name: string; lo: string; hi: string }>(
      sql`SELECT partition AS name, lo, hi FROM message_partition_bounds ORDER BY lo`,
    );
    expect(kept).toEqual(catalog);
    const ask = async (day: string) => {
      const out = await messageHistory({
        ctx: { teamId: conv.team.id } as never,
        input: {
          wa_number: conv.number.number,
          customer_source: conv.contact.customerNumber!,
          from_date: parseLocalDate(day)!,
          to_date: parseLocalDate(day)!,
          with_pagination: true,
          per_page: 50,
          page: 1,
          order: "DESC",
          include: [],
        } as never,
      });
      if (!("data" in out)) throw new Error("paginated history expected");
      return { ids: out.data.map((r) => r.id), total: out.pagination!.total_items };
    };
    const [m1] = await insert(conv, [{ createdAt: new Date("2026-02-10T15:00:00Z") }]);
    // The first page reads the bounds into the process's cache: the partition the sequence draws from.
    expect(await ask("2026-02-10")).toEqual({ ids: [m1.id], total: 1 });
    // Hand-written SQL: free ids of the oldest partition (the tests above dropped messages_legacy),
    // with a created_at in the same window. Its partition's bounds widen in its own statement; the
    // cached ones do not know it: the page's check raises, the bounds are read again, and the
    // page has both.
    const oldest = (await parts())[0];
    const free = (
      await rows<{ id: number }>(sql`SELECT g AS id FROM generate_series(${oldest.lo}::int, ${oldest.hi - 1}::int) g
        WHERE NOT EXISTS (SELECT 1 FROM messages WHERE id = g) ORDER BY g LIMIT 2`)
    ).map((r) => Number(r.id));
    expect(oldest.name).not.toBe(await partOf(m1.id));
    // …whose bounds did not meet the day: the cached range left it out (what the check must catch).
    const meets = async (name: string, day: string) =>
      (
        await rows<{ ok: boolean }>(sql`SELECT coalesce(min_created_at < ${day}::timestamptz + interval '2 days'
          AND max_created_at >= ${day}::timestamptz - interval '1 day', false) AS ok FROM message_partition_bounds WHERE partition = ${name}`)
      )[0].ok;
    expect(await meets(oldest.name, "2026-02-10")).toBe(false);
    const hand = (id: number, at: string) =>
      d.execute(sql`INSERT INTO messages (id, team_id, wa_number_id, contact_id, customer_number, sender, direction, type, status, payload, created_at)
        VALUES (${id}, ${conv.team.id}, ${conv.number.id}, ${conv.contact.id}, ${conv.contact.customerNumber}, 'CUSTOMER', 'INBOUND', 'text',
          'RECEIVED', '{"text":"a mano"}', ${at}::timestamptz)`);
    await hand(free[0], "2026-02-10T16:00:00Z");
    expect(await partOf(free[0])).toBe(oldest.name);
    expect(await ask("2026-02-10")).toEqual({ ids: [m1.id, free[0]], total: 2 });
    // A change of id moves a message to another partition: that partition's bounds widen before the move.
    const [m2, m3] = await insert(conv, [{ createdAt: new Date("2026-01-20T15:00:00Z") }, { createdAt: new Date("2026-01-20T15:05:00Z") }]);
    expect(await ask("2026-01-20")).toEqual({ ids: [m3.id, m2.id], total: 2 });
    expect(await meets(oldest.name, "2026-01-20")).toBe(false);
    await d.execute(sql`UPDATE messages SET id = ${free[1]} WHERE id = ${m2.id}`);
    expect(await partOf(free[1])).toBe(oldest.name);
    expect(await ask("2026-01-20")).toEqual({ ids: [m3.id, free[1]], total: 2 });
    // The bounds only widen, by whole UTC days, and cover every row of their partition.
    const [bad] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM messages m JOIN message_partition_bounds b
      ON m.id >= b.lo AND m.id < b.hi WHERE NOT (m.created_at >= b.min_created_at AND m.created_at <= b.max_created_at)`);
    expect(bad.n).toBe(0);
    const [widened] = await rows<{ lo: string }>(
      sql`SELECT min_created_at::text AS lo FROM message_partition_bounds WHERE partition = ${oldest.name}`,
    );
    expect(new Date(widened.lo).toISOString()).toBe("2026-01-20T00:00:00.000Z");
  });
});
