import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, getHandle, rowsOf } from "@/db/client";
import { events, teams } from "@/db/schema";
import { applyFunctions, functionFiles } from "@/db/functions";

/**
 * db/functions holds the current definition of every trigger function, one file per function
 * (docs/write-path.md, "Side effects in one place"): each file's functions and triggers exist after the migrations, applying
 * the set again changes nothing, and the functions no test elsewhere covers are tested here. The
 * others have their own files: conversation_days (tests/api/history-count.test.ts), message_stats
 * (tests/api/messages-stats.test.ts), messages_after_insert and messages_status_changed
 * (tests/conversations, tests/events), api_tokens_announce_change (tests/events/two-processes.test.ts),
 * wa_numbers_bump_secrets_version (tests/meta-webhooks/unsigned-flood.test.ts), events_partitions (tests/events/partitions.test.ts),
 * contact_labels_change (tests/api/contacts-labels.test.ts, its cap under parallel requests).
 */
const created = (text: string, kind: "FUNCTION" | "TRIGGER") =>
  [...text.matchAll(new RegExp(`CREATE OR REPLACE ${kind} (\\w+)`, "g"))].map((m) => m[1]);

describe("db/functions", () => {
  it("creates every function and trigger its files define, and drops the retired ones", async () => {
    const db = await getDb();
    const files = functionFiles();
    expect(files[0].name).toBe("00_retired.sql");
    const functions = files.flatMap((f) => created(f.sql, "FUNCTION"));
    const triggers = files.flatMap((f) => created(f.sql, "TRIGGER"));
    expect(functions.length).toBeGreaterThan(8);
    const procs = rowsOf<{ proname: string }>(
      await db.execute(sql`SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace`),
    );
    for (const f of functions)
      expect(
        procs.map((p) => p.proname),
        f,
      ).toContain(f);
    const live = rowsOf<{ tgname: string }>(await db.execute(sql`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal`)).map(
      (t) => t.tgname,
    );
    for (const t of triggers) expect(live, t).toContain(t);
    for (const retired of [
      "events_notify",
      "messages_status_event",
      "messages_stats_change",
      // Migration 0031's bridge, until the triggers count report samples themselves.
      "report_responses_histogram_bridge",
      "report_conversation_events_histogram_bridge",
      // Renamed messages_<event>_<n>_<what> (db/functions/README.md).
      "messages_after_insert",
      "messages_provider_id_insert",
      "messages_stats_count_delete",
    ])
      expect(live).not.toContain(retired);
  });

  it("is applied once: a second start finds the same set and changes nothing", async () => {
    const handle = await getHandle();
    const db = handle.db;
    const before = rowsOf<{ applied_at: string }>(await db.execute(sql`SELECT applied_at::text FROM db_functions_applied`));
    const outcome = await applyFunctions({
      query: async (text) => rowsOf<{ sha256: string }>(await db.execute(sql.raw(text))),
      exec: async () => {
        throw new Error("must not be applied again");
      },
    });
    expect(outcome).toBe("unchanged");
    expect(rowsOf(await db.execute(sql`SELECT applied_at::text FROM db_functions_applied`))).toEqual(before);
  });

  it("teams_delete_events: a deleted team takes its event log with it, and no other team's", async () => {
    const db = await getDb();
    const [gone, kept] = await db
      .insert(teams)
      .values([{ name: "Se va" }, { name: "Se queda" }])
      .returning();
    await db.insert(events).values([
      { teamId: gone.id, type: "label.updated", data: { n: 1 } },
      { teamId: kept.id, type: "label.updated", data: { n: 2 } },
    ]);
    await db.execute(sql`DELETE FROM teams WHERE id = ${gone.id}`);
    const left = rowsOf<{ team_id: number }>(
      await db.execute(sql`SELECT team_id FROM events WHERE team_id IN (${gone.id}, ${kept.id})`),
    ).map((r) => Number(r.team_id));
    expect(left).toEqual([kept.id]);
  });
});
