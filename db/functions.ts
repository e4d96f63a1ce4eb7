import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * What writing a row sets off inside the database, in one place (docs/write-path.md, "Side
 * effects in one place"): db/functions/*.sql holds the CURRENT definition of every trigger function and
 * its trigger, one file per function, and of the one function a hot path calls instead of a
 * transaction of several round trips (contact_labels_change.sql). Migrations create tables; these
 * files are re-applied after them on every start and `npm run db:migrate` (CREATE OR REPLACE, so
 * applying them again changes nothing). All files run in one transaction, in name order:
 * 00_retired.sql first drops what is gone, so a writer never sees half of the old set and half of
 * the new one. To change what a trigger does, edit its file; to retire one, move its drop into
 * 00_retired.sql.
 */
export const functionsFolder = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "functions");

export function functionFiles(): { name: string; sql: string }[] {
  return fs
    .readdirSync(functionsFolder)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(functionsFolder, name), "utf8") }));
}

/**
 * The whole set as one script (parameterless, several statements: sent with the simple protocol),
 * recording its sha-256 in db_functions_applied, and that sha-256 to compare before applying.
 */
export function functionsScript(): { sha256: string; script: string } {
  const body = functionFiles()
    .map((f) => `-- ${f.name}\n${f.sql}`)
    .join("\n");
  const sha256 = createHash("sha256").update(body).digest("hex");
  const record = `INSERT INTO db_functions_applied (id, sha256, applied_at) VALUES (1, '${sha256}', now())
  ON CONFLICT (id) DO UPDATE SET sha256 = EXCLUDED.sha256, applied_at = EXCLUDED.applied_at;`;
  return { sha256, script: ["BEGIN;", body, record, "COMMIT;"].join("\n") };
}

type Runner = { query(text: string): Promise<{ sha256: string }[]>; exec(script: string): Promise<unknown> };

/**
 * Applies the set unless the database already has this exact one. Creating a trigger locks its
 * table against writes for a moment; a writer already inside a transaction may then deadlock with
 * it, so a deadlock is tried again (the writer that lost simply retries its own work).
 */
export async function applyFunctions(run: Runner): Promise<"applied" | "unchanged"> {
  const { sha256, script } = functionsScript();
  const [current] = await run.query("SELECT sha256 FROM db_functions_applied WHERE id = 1");
  if (current?.sha256 === sha256) return "unchanged";
  for (let attempt = 1; ; attempt++) {
    try {
      await run.exec(script);
      return "applied";
    } catch (err) {
      await run.exec("ROLLBACK").catch(() => {});
      if ((err as { code?: string }).code !== "40P01" || attempt >= 5) throw err;
    }
  }
}
