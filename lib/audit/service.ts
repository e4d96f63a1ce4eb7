import "server-only";
import { getDb, transaction, type DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { utcDayMs, DAY_MS } from "@/lib/http/supported-dates";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { config } from "@/lib/config";
import { csvLine } from "@/lib/http/csv";
import type { AuditAction } from "./actions";
import { changesBetween } from "./changes";
import { auditEventBatch, insertAuditEvent, listAuditEventRows, purgeAuditEvents, type AuditEventRow, type AuditFilter } from "./repo";
import type { AuditEventDto, AuditQuery } from "./schemas";

/** Who acted: the caller of a request, or the system (the admin CLI, the first-run set-up). */
export type AuditActor = { kind: "agent"; id: number; name: string } | { kind: "token"; id: number } | { kind: "system"; name: string };

export type AuditTarget = { kind: string; id: number | string | null; name?: string | null };

export function actorOf(ctx: AuthContext): AuditActor {
  // The admin CLI acts through a context of token id 0 (lib/admin/types.ts): the system.
  if (ctx.actor.kind === "token" && ctx.actor.tokenId === 0) return { kind: "system", name: "CLI" };
  return ctx.actor.kind === "agent"
    ? { kind: "agent", id: ctx.actor.agentId, name: ctx.actor.agentName }
    : { kind: "token", id: ctx.actor.tokenId };
}

/**
 * Records one action in the team's trail, in the caller's transaction (`db`), so the row and the
 * change it tells of commit together or not at all. `before`/`after` are the target's fields as
 * the API shows them; only those that differ are kept, secrets as "changed" (changes.ts).
 */
export async function recordAudit(
  db: DbOrTx,
  entry: {
    teamId: number;
    actor: AuditActor;
    ip?: string | null;
    action: AuditAction;
    target?: AuditTarget;
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
  },
) {
  const { actor, target } = entry;
  await insertAuditEvent(db, {
    teamId: entry.teamId,
    actorKind: actor.kind,
    actorId: actor.kind === "system" ? null : actor.id,
    actorLabel: actor.kind === "token" ? `token #${actor.id}` : actor.name,
    ip: entry.ip ?? null,
    action: entry.action,
    targetKind: target?.kind ?? null,
    targetId: target?.id === null || target?.id === undefined ? null : String(target.id),
    targetLabel: target?.name ?? null,
    changes: changesBetween(entry.before ?? null, entry.after ?? null),
  });
}

/** The same, for a request's caller (ctx carries the client's address). */
export function recordCallerAudit(
  db: DbOrTx,
  ctx: AuthContext,
  entry: { action: AuditAction; target?: AuditTarget; before?: Record<string, unknown> | null; after?: Record<string, unknown> | null },
) {
  return recordAudit(db, { teamId: ctx.teamId, actor: actorOf(ctx), ip: ctx.address ?? null, ...entry });
}

function filterOf(ctx: AuthContext, q: AuditQuery): AuditFilter {
  return {
    teamId: ctx.teamId,
    action: q.action,
    actor: q.actor,
    from: q.from ? new Date(utcDayMs(q.from)!) : undefined,
    to: q.to ? new Date(utcDayMs(q.to)! + DAY_MS) : undefined,
  };
}

function toDto(row: AuditEventRow): AuditEventDto {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actorKind as AuditEventDto["actor"]["kind"], id: row.actorId, name: row.actorLabel },
    ip: row.ip,
    action: row.action,
    target: row.targetKind ? { kind: row.targetKind, id: row.targetId, name: row.targetLabel } : null,
    changes: (row.changes as AuditEventDto["changes"]) ?? null,
  };
}

export async function listAudit({ ctx, input }: { ctx: AuthContext; input: AuditQuery }) {
  const { rows, total } = await listAuditEventRows(await getDb(), {
    filter: filterOf(ctx, input),
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(toDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

const CSV_COLUMNS = ["id", "at", "actor_kind", "actor", "ip", "action", "target_kind", "target_id", "target", "changes"];

/**
 * The filtered trail as CSV (a BOM first, so spreadsheets read UTF-8 names right), newest first,
 * read in pages of 1,000 as the client reads: an export of a year never holds the year in memory.
 */
export function exportAudit({ ctx, input }: { ctx: AuthContext; input: AuditQuery }): ReadableStream<Uint8Array> {
  const filter = filterOf(ctx, input);
  const enc = new TextEncoder();
  let beforeId: number | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(enc.encode(`\uFEFF${CSV_COLUMNS.join(",")}\r\n`));
        return;
      }
      const rows = await auditEventBatch(await getDb(), { filter, beforeId, limit: 1000 });
      if (rows.length === 0) return controller.close();
      const text = rows
        .map((r) =>
          csvLine([
            r.id,
            r.at.toISOString(),
            r.actorKind,
            r.actorLabel,
            r.ip,
            r.action,
            r.targetKind,
            r.targetId,
            r.targetLabel,
            r.changes === null ? null : JSON.stringify(r.changes),
          ]),
        )
        .join("\r\n");
      controller.enqueue(enc.encode(text + "\r\n"));
      beforeId = rows[rows.length - 1].id;
    },
  });
}

/** The retention chore: rows older than AUDIT_RETENTION_DAYS go, every team's. */
export async function pruneAudit(now = Date.now()): Promise<number> {
  return transaction((tx) => purgeAuditEvents(tx, { before: new Date(now - config.auditRetentionDays * DAY_MS) }));
}
