import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { functionsFolder } from "@/db/functions";

/**
 * db/functions/README.md lists every trigger with the order it fires in; this compares that table
 * with pg_trigger on the migrated database (PGlite, or PostgreSQL with DATABASE_URL), so that a
 * trigger added, renamed or dropped without its row (or the reverse) fails here.
 */
type Trigger = { table: string; order: number; name: string; when: string; level: string; fn: string; file: string };

const readme = fs.readFileSync(path.join(functionsFolder, "README.md"), "utf8");
const unquote = (cell: string) => cell.trim().replace(/^`|`$/g, "");

function documented(): Trigger[] {
  const lines = readme.split("\n");
  const head = lines.findIndex((l) => l.startsWith("| Table | # | Trigger |"));
  expect(head, "the README's trigger table").toBeGreaterThan(-1);
  const rows: Trigger[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith("|")) break;
    const [table, order, name, when, level, fn, file] = line.split("|").slice(1, -1).map(unquote);
    rows.push({ table, order: Number(order), name, when, level, fn, file: file.replace(/^\[(.+)\]\(.+\)$/, "$1") });
  }
  return rows;
}

// pg_get_triggerdef: CREATE TRIGGER name AFTER INSERT OR UPDATE OF a, b ON public.t [REFERENCING …] FOR EACH ROW …
const DEF =
  /^CREATE (?:CONSTRAINT )?TRIGGER (\S+) ((?:BEFORE|AFTER|INSTEAD OF) .+?) ON (\S+) (?:REFERENCING .+? )?FOR EACH (ROW|STATEMENT)/;
const eventsOf = (when: string): string[] => Array.from(when.matchAll(/\b(INSERT|UPDATE|DELETE|TRUNCATE)\b/g), (m) => m[1]);
/** The step a trigger fires in (the README's list): BEFORE statement, BEFORE row, AFTER row, AFTER statement. */
const step = (t: Pick<Trigger, "when" | "level">) =>
  t.when.startsWith("BEFORE") ? (t.level === "row" ? 1 : 0) : t.level === "row" ? 2 : 3;

async function live(): Promise<Omit<Trigger, "order" | "file">[]> {
  const db = await getDb();
  // Not the partitions' clones of a partitioned table's trigger (tgparentid), nor the ones
  // PostgreSQL makes for foreign keys (tgisinternal); test_* are made and dropped by tests.
  const rows = rowsOf<{ def: string; fn: string }>(
    await db.execute(sql`
      SELECT pg_get_triggerdef(t.oid) AS def, p.proname AS fn
      FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE NOT t.tgisinternal AND t.tgparentid = 0 AND t.tgname NOT LIKE 'test\\_%'`),
  );
  return rows.map((r) => {
    const m = DEF.exec(r.def);
    if (!m) throw new Error(`unexpected trigger definition: ${r.def}`);
    return { name: m[1], when: m[2], table: m[3].replace(/^public\./, ""), level: m[4].toLowerCase(), fn: r.fn };
  });
}

/** Its place among the table's triggers of each of its events: by step, then by name. */
function firingOrder(t: Pick<Trigger, "table" | "name" | "when" | "level">, all: Pick<Trigger, "table" | "name" | "when" | "level">[]) {
  return eventsOf(t.when).map(
    (event) =>
      all
        .filter((o) => o.table === t.table && eventsOf(o.when).includes(event))
        .sort((a, b) => step(a) - step(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .findIndex((o) => o.name === t.name) + 1,
  );
}

describe("db/functions/README.md's trigger table", () => {
  it("lists exactly the triggers of the database, each with its table, timing, events, level and function", async () => {
    const rows = documented();
    const key = (t: Omit<Trigger, "order" | "file">) => `${t.table} ${t.name} ${t.when} ${t.level} ${t.fn}`;
    expect(rows.map(key).sort()).toEqual((await live()).map(key).sort());
    expect(rows.length).toBeGreaterThanOrEqual(28);
  });

  it("names the file that creates each trigger", () => {
    for (const t of documented()) {
      const text = fs.readFileSync(path.join(functionsFolder, t.file), "utf8");
      expect(text, `${t.file} creates ${t.name}`).toMatch(new RegExp(`CREATE OR REPLACE TRIGGER ${t.name} `));
      expect(text, `${t.file} defines ${t.fn}`).toMatch(new RegExp(`CREATE OR REPLACE FUNCTION ${t.fn}\\(`));
    }
  });

  it("gives the order each trigger fires in, and a numbered name fires at its number", async () => {
    const all = await live();
    for (const t of documented()) {
      const places = firingOrder(t, all);
      expect(new Set(places).size, `${t.name} fires at one place for each of its events`).toBe(1);
      expect(places[0], `${t.name}'s place`).toBe(t.order);
      const numbered = /^[a-z_]+?_(?:insert|update|delete)_(\d+)_/.exec(t.name);
      if (numbered) expect(Number(numbered[1]), `${t.name} is named after its place`).toBe(t.order);
    }
    // The rule the order rests on, shown on messages: six AFTER INSERT triggers, the row-level one first.
    const inserts = documented().filter((t) => t.table === "messages" && t.when === "AFTER INSERT");
    expect(inserts.map((t) => [t.order, t.level])).toEqual([
      [1, "row"],
      [2, "statement"],
      [3, "statement"],
      [4, "statement"],
      [5, "statement"],
      [6, "statement"],
    ]);
  });
});
