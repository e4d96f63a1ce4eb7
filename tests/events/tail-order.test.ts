import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "@/lib/events/schemas";
import { waitFor } from "../helpers/wait";

/**
 * The event log is read by transaction order, not by id (docs/write-path.md, "No NOTIFY in a writing transaction"): an event whose id is
 * lower than one already delivered, but whose transaction commits later, must still be delivered,
 * live and on a Last-Event-ID replay. Two interleaved transactions need two sessions, so this file
 * runs on a server Postgres: DATABASE_URL when the suite runs on one, else a throwaway database on
 * this machine's PostgreSQL (PG_SERVER_URL, default postgres://postgres@127.0.0.1:5432).
 */
const server = process.env.PG_SERVER_URL ?? "postgres://postgres@127.0.0.1:5432";
let throwaway: string | undefined;
let a: postgres.Sql;
let b: postgres.Sql;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) {
    throwaway = `wa_tail_${process.pid}_${Date.now()}`;
    const admin = postgres(`${server}/postgres`, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE "${throwaway}"`);
    await admin.end();
    // This file's database handle moves from the in-memory PGlite of tests/setup.ts to the server.
    const { closeDb } = await import("@/db/client");
    await closeDb();
    process.env.DATABASE_URL = `${server}/${throwaway}`;
    delete process.env.PGLITE_DIR;
    const { runMigrations } = await import("@/db/migrate");
    await runMigrations();
  }
  a = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  b = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await a?.end();
  await b?.end();
  if (!throwaway) return;
  const { closeDb } = await import("@/db/client");
  await closeDb();
  const admin = postgres(`${server}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS "${throwaway}" WITH (FORCE)`);
  await admin.end();
});

const until = (ok: () => boolean, ms = 20_000) => waitFor(ok, Boolean, ms, 20, "return");

describe("the event log's tail", () => {
  it("delivers a lower id that commits after a higher one, live and on replay, in transaction order", async () => {
    const { createTeam } = await import("../helpers/factories");
    const { nextTailRead, subscribe } = await import("@/lib/events/bus");
    const { eventCursor, listEventsAfter } = await import("@/lib/events/repo");
    const db = await (await import("@/db/client")).getDb();
    const team = await createTeam();
    const got: StoredEvent[] = [];
    const unsubscribe = await subscribe({ teamId: team.id, deliver: (events) => got.push(...events) });
    const insert = (tx: postgres.TransactionSql, n: string) =>
      tx`INSERT INTO events (team_id, type, data) VALUES (${team.id}, 'label.updated', ${tx.json({ n })}) RETURNING id`;
    try {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let firstId = 0;
      let thirdId = 0;
      // A: its first event takes the lower id, then A stays open while B commits.
      const slow = a.begin(async (tx) => {
        firstId = Number((await insert(tx, "A1"))[0].id);
        await released;
        thirdId = Number((await insert(tx, "A2"))[0].id);
      });
      await until(() => firstId > 0);
      const [{ id: secondId }] = await b.begin((tx) => insert(tx, "B1"));
      expect(Number(secondId)).toBeGreaterThan(firstId);
      // B committed, but A (older) is still running: a read of the log after B's commit delivers
      // nothing past A's horizon.
      await nextTailRead();
      expect(got.map((e) => e.id)).toEqual([]);
      release();
      await slow;
      await until(() => got.length >= 3);
      // Transaction order: A's two events (the second has the highest id), then B's.
      expect(got.map((e) => (e.data as { n: string }).n)).toEqual(["A1", "A2", "B1"]);
      expect(got.map((e) => e.id)).toEqual([firstId, thirdId, Number(secondId)]);

      // A client that saw only A1 is replayed A2 then B1 (ids after A1 alone would give the same
      // here; a client that saw B1 first is the case ids get wrong, shown by the live order above).
      const cursor = await eventCursor(db, { teamId: team.id, id: firstId });
      const replayed = await listEventsAfter(db, { teamId: team.id, cursor: cursor!, filter: {}, limit: 10 });
      expect(replayed.map((e) => (e.data as { n: string }).n)).toEqual(["A2", "B1"]);
      // And one that saw A2 last is replayed B1, whose id is lower than A2's.
      const afterA2 = await listEventsAfter(db, {
        teamId: team.id,
        cursor: (await eventCursor(db, { teamId: team.id, id: thirdId }))!,
        filter: {},
        limit: 10,
      });
      expect(afterA2.map((e) => e.id)).toEqual([Number(secondId)]);
    } finally {
      unsubscribe();
    }
  });
});
