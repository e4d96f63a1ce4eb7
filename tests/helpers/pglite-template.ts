/**
 * Run by tests/global-setup.ts (in a process of its own: the migrations need the react-server
 * condition): migrates an in-memory PGlite once and writes its data folder's dump to argv[2],
 * which every test file's database then starts from (PGLITE_TEMPLATE, db/client.ts).
 */
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";

const out = process.argv[2];
if (!out) throw new Error("usage: pglite-template.ts <dump file>");
process.env.PGLITE_DIR = "memory://";
delete process.env.PGLITE_TEMPLATE;
const { runMigrations } = await import("@/db/migrate");
const { getHandle, closeDb } = await import("@/db/client");
await runMigrations();
const handle = await getHandle();
const client = (handle.db as unknown as { $client: PGlite }).$client;
const dump = await client.dumpDataDir("none");
// Written whole under a temporary name, then renamed: a reader never sees half a dump.
fs.writeFileSync(`${out}.tmp`, Buffer.from(await dump.arrayBuffer()));
fs.renameSync(`${out}.tmp`, out);
await closeDb();
