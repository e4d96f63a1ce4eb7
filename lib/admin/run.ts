import { parseArgs } from "node:util";
import { runMigrations } from "@/db/migrate";
import { checkSettings } from "@/lib/config";
import { adminErrorMessage, expectedAdminError } from "./errors";
import { registry } from "./registry";

export type AdminOutcome = { code: 0 | 1; output: Record<string, unknown> };

/**
 * Runs one admin command from its argv (without the node/script part) and returns the single
 * JSON object to print. Never prints or exits itself, so tests call it in-process.
 */
export async function runAdmin(argv: string[], log: (line: string) => void = () => {}): Promise<AdminOutcome> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") {
    const commands = Object.fromEntries(Object.entries(registry).map(([k, c]) => [k, c.summary]));
    return name
      ? { code: 0, output: { commands } }
      : { code: 1, output: { error: `Indique un comando: ${Object.keys(registry).join(", ")}.`, commands } };
  }
  const command = Object.hasOwn(registry, name) ? registry[name] : undefined;
  if (!command) return { code: 1, output: { error: `Comando desconocido: ${name}. Comandos: ${Object.keys(registry).join(", ")}.` } };
  try {
    checkSettings();
    const { values } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false });
    // Every command works on a fresh database: migrations are idempotent and cheap when applied.
    await runMigrations();
    return { code: 0, output: await command.run(values) };
  } catch (err) {
    // stderr gets the stack only when something unexpected broke; an operator's mistake gets one
    // line there (its kind and message), as it is fully told by the error on stdout.
    if (expectedAdminError(err) && err instanceof Error) log(`${err.name}: ${err.message}`);
    else log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    return { code: 1, output: { error: adminErrorMessage(err) } };
  }
}
