import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";

/**
 * Migration 0043 (docs/roles.md) on a database that already has teams, agents and tokens: the
 * migrations before it are applied to a fresh embedded Postgres, rows are written, then 0043.
 */
const dir = path.join(process.cwd(), "db/migrations");
const files = fs
  .readdirSync(dir)
  .filter((f) => /^\d{4}_.*\.sql$/.test(f))
  .sort();

/** One migration file in one transaction, statement by statement, as drizzle's migrator runs it. */
async function apply(pg: PGlite, file: string) {
  await pg.transaction(async (tx) => {
    for (const statement of fs.readFileSync(path.join(dir, file), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) await tx.exec(statement);
    }
  });
}

describe("migration 0043: roles and token scopes", () => {
  it("makes each team's earliest agent its owner, the others agents, and gives old tokens every scope", async () => {
    const pg = new PGlite();
    try {
      const at = files.findIndex((f) => f.startsWith("0043_"));
      for (const f of files.slice(0, at)) await apply(pg, f);
      await pg.exec(`
        insert into teams (id, name) values (1, 'Uno'), (2, 'Dos'), (3, 'Vacío');
        insert into agents (id, team_id, email, name, password_hash, created_at) values
          (10, 1, 'b@x.co', 'B', 'h', '2025-01-02'), (11, 1, 'a@x.co', 'A', 'h', '2025-01-01'),
          (12, 2, 'c@x.co', 'C', 'h', '2025-03-01'), (13, 2, 'd@x.co', 'D', 'h', '2025-03-01');
        insert into agent_sessions (agent_id, team_id, token_hash, created_at, expires_at) values
          (10, 1, 's1', '2025-05-01', now() + interval '1 day'), (10, 1, 's2', '2025-06-01', now() + interval '1 day');
        insert into api_tokens (team_id, name, token_hash, prefix) values (1, 'viejo', 't1', 'wam_x');
      `);
      await apply(pg, files[at]);
      const { rows } = await pg.query<{ id: number; role: string; last: string | null }>(
        "select id, role, last_sign_in_at::date::text as last from agents order by id",
      );
      expect(rows).toEqual([
        { id: 10, role: "agent", last: "2025-06-01" },
        { id: 11, role: "owner", last: null },
        { id: 12, role: "owner", last: null },
        { id: 13, role: "agent", last: null },
      ]);
      const tokens = await pg.query<{ scopes: string[] }>("select scopes from api_tokens");
      expect(tokens.rows[0].scopes).toEqual([
        "send",
        "history",
        "contacts",
        "broadcasts",
        "inbox",
        "reports",
        "webhooks_admin",
        "agents_admin",
      ]);
      await expect(pg.exec("update agents set role = 'jefe' where id = 10")).rejects.toThrow(/agents_role_ck/);
    } finally {
      await pg.close();
    }
  });
});
