/**
 * `npm run -s admin -- <command> [--flag value …]`: prints exactly one JSON object on stdout
 * (`{"error": …}` and exit code 1 on failure, details on stderr). Commands: lib/admin/registry.ts.
 */
import { closeDb } from "@/db/client";
import { runAdmin } from "@/lib/admin/run";

// stdout is the command's answer; anything a library logs goes to stderr.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

const { code, output } = await runAdmin(process.argv.slice(2), (line) => process.stderr.write(line + "\n"));
await closeDb().catch((err) => process.stderr.write(`${err}\n`));
process.stdout.write(JSON.stringify(output) + "\n", () => process.exit(code));
