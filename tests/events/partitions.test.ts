import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rowsOf, transaction, type Tx } from "@/db/client";
import { events } from "@/db/schema";
import { insertEvents, pruneEventsBefore } from "@/lib/events/repo";
import { PARTITIONS_AHEAD_DAYS, pruneEvents } from "@/lib/events/prune";
import { createTeam } from "../helpers/factories";

/**
 * The event log's daily partitions (migration 0032, db/functions/events_partitions.sql,
 * lib/events/prune.ts). What drops partitions runs in a transaction this test rolls back: on a
 * shared Postgres the other test files' events live in the same partitions.
 */
const DAY = 86_400_000;
const utcMidnight = (offsetDays: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + offsetDays * DAY);
};
const partName = (day: Date) => `events_p${day.toISOString().slice(0, 10).replaceAll("-", "")}`;

class RolledBack extends Error {}
async function rolledBack(fn: (tx: Tx) => Promise<void>) {
  await transaction(async (tx) => {
    await fn(tx);
    throw new RolledBack();
  }).catch((err) => {
    if (!(err instanceof RolledBack)) throw err;
  });
}

const partitions = async (tx: Tx) =>
  rowsOf<{ name: string; bound: string }>(
    await tx.execute(sql`
      SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'events'::regclass ORDER BY c.relname`),
  );
async function insertAt(tx: Tx, teamId: number, createdAt: Date): Promise<{ id: number; part: string }> {
  const [row] = await tx
    .insert(events)
    .values({ teamId, type: "contact.labels", data: { labels: [] }, createdAt })
    .returning({ id: events.id });
  const [where] = rowsOf<{ part: string }>(await tx.execute(sql`SELECT tableoid::regclass::text AS part FROM events WHERE id = ${row.id}`));
  return { id: row.id, part: where.part };
}

describe("event log partitions", () => {
  it("is partitioned by day: the chore makes the coming week's partitions, and an event lands in its day's", async () => {
    const team = await createTeam();
    await pruneEvents();
    await rolledBack(async (tx) => {
      const names = (await partitions(tx)).map((p) => p.name);
      expect(names).toContain("events_default");
      // Today may still be the pre-partitioning partition's (the migration's day and the next);
      // every day after that up to a week ahead has its own.
      for (let d = 2; d <= PARTITIONS_AHEAD_DAYS; d++) expect(names).toContain(partName(utcMidnight(d)));
      const inThreeDays = await insertAt(tx, team.id, new Date(utcMidnight(3).getTime() + 3_600_000));
      expect(inThreeDays.part).toBe(partName(utcMidnight(3)));
      // A day no partition covers yet: the default partition takes it rather than failing the write.
      const farAhead = await insertAt(tx, team.id, utcMidnight(40));
      expect(farAhead.part).toBe("events_default");
      // The tail's order and the team's replay read across partitions.
      await insertEvents(tx, [{ teamId: team.id, type: "contact.labels", data: { contact_id: 1, labels: [] } }]);
      const ids = rowsOf<{ id: string }>(await tx.execute(sql`SELECT id FROM events WHERE team_id = ${team.id} ORDER BY xact_id, id`));
      expect(ids.length).toBe(3);
    });
  });

  it("making partitions twice changes nothing, and a day whose rows already sit in the default partition is left to it", async () => {
    const team = await createTeam();
    await rolledBack(async (tx) => {
      await tx.execute(sql`SELECT events_ensure_partitions(${PARTITIONS_AHEAD_DAYS}::int)`);
      const before = await partitions(tx);
      const [again] = rowsOf<{ made: number }>(
        await tx.execute(sql`SELECT events_ensure_partitions(${PARTITIONS_AHEAD_DAYS}::int) AS made`),
      );
      expect(Number(again.made)).toBe(0);
      expect(await partitions(tx)).toEqual(before);

      const stray = await insertAt(tx, team.id, new Date(utcMidnight(PARTITIONS_AHEAD_DAYS + 3).getTime() + 60_000));
      expect(stray.part).toBe("events_default");
      const [wider] = rowsOf<{ made: number }>(
        await tx.execute(sql`SELECT events_ensure_partitions(${PARTITIONS_AHEAD_DAYS + 5}::int) AS made`),
      );
      // Five more days asked, one of them taken by the stray row: four made, no error.
      expect(Number(wider.made)).toBe(4);
      const names = (await partitions(tx)).map((p) => p.name);
      expect(names).not.toContain(partName(utcMidnight(PARTITIONS_AHEAD_DAYS + 3)));
      expect(names).toContain(partName(utcMidnight(PARTITIONS_AHEAD_DAYS + 4)));
    });
  });

  it("the retention drops whole days older than it (the pre-partitioning one too) and keeps the others with their rows", async () => {
    const team = await createTeam();
    await rolledBack(async (tx) => {
      await tx.execute(sql`SELECT events_ensure_partitions(${PARTITIONS_AHEAD_DAYS}::int)`);
      const kept = await insertAt(tx, team.id, new Date(utcMidnight(5).getTime() + 60_000));
      const gone = await insertAt(tx, team.id, new Date(utcMidnight(3).getTime() + 60_000));
      const old = await insertAt(tx, team.id, new Date(Date.now() - 30 * DAY));
      // As if it were four days from now: every day up to the end of day 3 is past the retention.
      const [r] = rowsOf<{ dropped: number }>(
        await tx.execute(sql`SELECT events_drop_partitions(${utcMidnight(4).toISOString()}::timestamptz) AS dropped`),
      );
      expect(Number(r.dropped)).toBeGreaterThanOrEqual(3);
      const names = (await partitions(tx)).map((p) => p.name);
      expect(names).not.toContain(partName(utcMidnight(3)));
      expect(names).not.toContain(old.part);
      expect(names).toContain(partName(utcMidnight(4)));
      expect(names).toContain("events_default");
      const left = rowsOf<{ id: string }>(await tx.execute(sql`SELECT id FROM events WHERE team_id = ${team.id} ORDER BY id`)).map((x) =>
        Number(x.id),
      );
      expect(left).toEqual([kept.id]);
      expect(left).not.toContain(gone.id);
    });
  });

  it("only the default partition is indexed by age: a day's partition pays one index fewer per event (migration 0035)", async () => {
    await pruneEvents();
    const rows = rowsOf<{ part: string; def: string }>(
      await (
        await getDb()
      ).execute(sql`
        SELECT c.relname AS part, pg_get_indexdef(x.indexrelid) AS def
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_index x ON x.indrelid = c.oid
        WHERE i.inhparent = 'events'::regclass`),
    );
    const byAge = (part: string) => rows.filter((r) => r.part === part && /\(created_at\)$/.test(r.def));
    expect(byAge("events_default")).toHaveLength(1);
    // A day the chore made (today's may still be the pre-partitioning partition's).
    const day = partName(utcMidnight(3));
    expect(rows.some((r) => r.part === day)).toBe(true);
    expect(byAge(day)).toHaveLength(0);
  });

  it("rows no day's drop can take (the pre-partitioning partition's) are deleted in batches once past the retention", async () => {
    const team = await createTeam();
    // Older than anything another test writes, so the delete below takes this row only.
    const old = await transaction((tx) => insertAt(tx, team.id, new Date(Date.now() - 400 * DAY)));
    expect(old.part).not.toMatch(/^events_p\d{8}$/);
    let deletedUpTo = 0;
    for (let i = 0; i < 50; i++) {
      const max = await pruneEventsBefore(await getDb(), { before: new Date(Date.now() - 399 * DAY), batch: 100 });
      if (!max) break;
      deletedUpTo = Math.max(deletedUpTo, max);
    }
    expect(deletedUpTo).toBeGreaterThanOrEqual(old.id);
  });
});
