import { getDb } from "@/db/client";
import { rawJsonText, storableText } from "@/lib/http/storable";
import { insertDeadLetters, type DeadLetterInput } from "./dead-letters-repo";

const MAX_REASON = 2000;

/** A dead letter row: the reason made storable and bounded, the item's JSON as received (as text). */
export function deadLetter(
  at: { teamId: number | null; waNumberId: number | null },
  reason: string,
  raw: unknown,
  kind: DeadLetterInput["kind"] = "rejected",
): DeadLetterInput {
  return { ...at, kind, reason: storableText(reason).slice(0, MAX_REASON), raw: rawJsonText(raw) };
}

/** A failure as a dead letter's reason: a database error by its own message, not drizzle's (SQL and every parameter). */
export function reasonOfError(where: string, err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { message?: string; code?: string } } | undefined;
  const db = e?.cause && typeof e.cause.message === "string" ? e.cause : undefined;
  if (db) return `${where}: database error${db.code ? ` ${db.code}` : ""}: ${db.message}`;
  return `${where}: ${e?.name ?? "Error"}: ${e?.message ?? String(err)}`;
}

/** Keeps the items set aside from a webhook batch (one insert). */
export async function keepDeadLetters(rows: DeadLetterInput[]) {
  if (rows.length) await insertDeadLetters(await getDb(), rows);
}

/**
 * A failure that says nothing about the item (connection lost, deadlock, serialization, the
 * server out of resources or shutting down): the batch answers 500 so Meta redelivers it, instead
 * of setting a good message aside. SQLSTATE classes 08, 40, 53, 57; postgres.js connection codes.
 */
export function isTransientDbError(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === "string" ? e.code : "";
    if (/^(08|40|53|57)/.test(code) || /^(CONNECTION_|CONNECT_TIMEOUT|DB_CIRCUIT_OPEN|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT)/.test(code))
      return true;
  }
  return false;
}
