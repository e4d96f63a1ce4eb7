/** `npm run db:migrate`: applies db/migrations to DATABASE_URL, or to the embedded database. */
import { runMigrations } from "@/db/migrate";
import { closeDb, getHandle } from "@/db/client";

const handle = await getHandle();
await runMigrations();
await closeDb();
console.log(JSON.stringify({ migrated: true, database: handle.kind }));
