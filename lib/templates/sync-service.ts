import "server-only";
import { getDb, transaction, type DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { actorOf } from "@/lib/audit/service";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { graphSettings } from "@/lib/delivery/config";
import type { GraphSettings } from "@/lib/channels/cloud-api/client";
import {
  fetchTemplates,
  graphQualityScore,
  graphTemplateSchema,
  graphTemplateToInput,
  type TemplateListFetch,
} from "@/lib/channels/cloud-api/templates";
import { withSecrets } from "@/lib/channels/credentials";
import type { WaNumberRow } from "@/lib/channels/types";
import { deadLetter, isTransientDbError, reasonOfError } from "@/lib/meta-webhooks/dead-letters";
import { insertDeadLetters } from "@/lib/meta-webhooks/dead-letters-repo";
import { lockTemplateForMeta } from "./changes-repo";
import { applyTemplateUpdate, recordTemplateChange, statusOfEvent, type MetaOrigin, type TemplateOutcome } from "./meta-updates";
import { templateInputSchema, type TemplateComponent } from "./schemas";
import { checkedComponents } from "./service";
import {
  claimDueTemplateSyncs,
  finishTemplateSync,
  insertSyncedTemplate,
  listAccountTemplates,
  listTeamNumbers,
  listTemplateSyncs,
  startTemplateSync,
  syncDeadLetterKept,
  updateSyncedTemplate,
  type TemplateSyncRow,
} from "./sync-repo";
import type { AccountSyncResult, SyncTemplatesQuery, TemplateSyncState } from "./sync-schemas";

/**
 * The team's templates kept in step with Meta's own lists (docs/features/templates-and-number-health.md):
 * for each business account of the team's Cloud API numbers, every page of
 * `GET /{waba-id}/message_templates` is read, then each template is applied in its own short
 * transaction, through the same writer as Meta's webhooks (lib/templates/meta-updates.ts): a
 * `template_changes` row (source `sync`) and a `template.updated` event per change, broadcasts of a
 * template that can no longer be sent paused. Every status is kept, not only APPROVED (sends still
 * refuse the others: lib/templates/sendable.ts). A template of the account's numbers that Meta no
 * longer lists is marked DELETED, never deleted: sent messages name it. A template Meta lists that
 * cannot be read (its shape, an unknown status, a header our structure cannot hold) is set aside in
 * `webhook_dead_letters` with its reason (source `template_sync`), and it is not taken for deleted.
 *
 * A sync that changes nothing writes nothing to the templates, their history or the event log.
 * A Graph error (190: a bad token; a timeout) is that account's answer, never the request's: the
 * other accounts are synced, and nothing is marked deleted from a list not read to its end.
 */

type Account = {
  businessAccountId: string | null;
  numbers: WaNumberRow[];
  skipped: AccountSyncResult["skipped_reason"];
};

/** An account's sync in full: the API's counts, and the CLI's detail (what was read, what was set aside). */
export type AccountSyncOutcome = {
  result: AccountSyncResult;
  imported: string[];
  setAside: { name: string; language: string; reason: string }[];
};

/** The team's numbers by business account, oldest number first; the sandbox and unlinked numbers as skipped groups. */
export function accountsOf(numbers: WaNumberRow[]): Account[] {
  const byAccount = new Map<string, WaNumberRow[]>();
  const sandbox: WaNumberRow[] = [];
  const unlinked: WaNumberRow[] = [];
  for (const n of numbers) {
    if (n.provider !== "cloud_api") sandbox.push(n);
    else if (!n.businessAccountId) unlinked.push(n);
    else byAccount.set(n.businessAccountId, [...(byAccount.get(n.businessAccountId) ?? []), n]);
  }
  const out: Account[] = [...byAccount].map(([businessAccountId, own]) => ({ businessAccountId, numbers: own, skipped: null }));
  if (unlinked.length) out.push({ businessAccountId: null, numbers: unlinked, skipped: "no_business_account" });
  if (sandbox.length) out.push({ businessAccountId: null, numbers: sandbox, skipped: "sandbox" });
  return out;
}

const emptyResult = (a: Account): AccountSyncResult => ({
  business_account_id: a.businessAccountId,
  wa_numbers: a.numbers.map((n) => n.number),
  outcome: "skipped",
  skipped_reason: a.skipped,
  fetched: 0,
  created: 0,
  updated: 0,
  deleted: 0,
  set_aside: 0,
  error: null,
});

/** Who asked, as `template_syncs.triggered_by` keeps it: the agent's name, the token, the CLI. */
function askedBy(ctx: AuthContext): string {
  const actor = actorOf(ctx);
  return actor.kind === "token" ? `token #${actor.id}` : actor.kind === "system" ? "cli" : actor.name;
}

/** `POST /api/v1/message_templates/sync`: every business account of the team (or the one named), one after another. */
export async function syncTeamTemplates({ ctx, input }: { ctx: AuthContext; input: SyncTemplatesQuery }) {
  const accounts = accountsOf(await listTeamNumbers(await getDb(), ctx.teamId)).filter(
    (a) => !input.business_account_id || a.businessAccountId === input.business_account_id,
  );
  if (input.business_account_id && !accounts.length) {
    throw ApiError.invalid("business_account_id", "La cuenta de WhatsApp Business no es de ningún número del equipo.");
  }
  const graph = graphSettings();
  const results: AccountSyncResult[] = [];
  for (const account of accounts) {
    results.push((await syncAccount(ctx.teamId, account, { graph, triggeredBy: askedBy(ctx) })).result);
  }
  return { accounts: results };
}

/**
 * `npm run admin -- templates:sync --number D`: the number's business account, with what the
 * command printed before (the templates read, those set aside) beside the API's counts.
 */
export async function syncNumberTemplates({ number, graph }: { number: WaNumberRow; graph: GraphSettings }) {
  const account = accountsOf(await listTeamNumbers(await getDb(), number.teamId)).find((a) => a.numbers.some((n) => n.id === number.id))!;
  return syncAccount(number.teamId, account, { graph, triggeredBy: "cli" });
}

/** `GET /api/v1/message_templates/sync`: each business account's last sync. */
export async function listTeamTemplateSyncs({ ctx }: { ctx: AuthContext }): Promise<TemplateSyncState[]> {
  const rows = await listTemplateSyncs(await getDb(), ctx.teamId);
  return rows.map(toSyncState);
}

function toSyncState(row: TemplateSyncRow): TemplateSyncState {
  // A placeholder the scheduler made for an account not yet synced starts at the epoch.
  const never = row.startedAt.getTime() <= 0;
  return {
    business_account_id: row.businessAccountId,
    running: row.finishedAt === null,
    started_at: never ? null : row.startedAt.toISOString(),
    finished_at: row.finishedAt && row.finishedAt.getTime() > 0 ? row.finishedAt.toISOString() : null,
    triggered_by: row.triggeredBy,
    last_result: (row.result as AccountSyncResult | null) ?? null,
  };
}

/**
 * The scheduled sync, a chore of each delivery worker (lib/chores/schedule.ts): the accounts due
 * (none synced for TEMPLATE_SYNC_INTERVAL_MIN minutes; 0 turns it off) are claimed, a few at a
 * time, so each is synced once per interval whatever the number of workers.
 */
export async function syncDueTemplates(teamIds?: number[]): Promise<number> {
  const intervalMin = config.templateSyncIntervalMin;
  if (!intervalMin || (teamIds && !teamIds.length)) return 0;
  const due = await claimDueTemplateSyncs(await getDb(), { intervalMin, teamIds, limit: 10 });
  const graph = graphSettings();
  for (const { teamId, businessAccountId } of due) {
    const account = accountsOf(await listTeamNumbers(await getDb(), teamId)).find((a) => a.businessAccountId === businessAccountId);
    if (account) await syncAccount(teamId, account, { graph, triggeredBy: "schedule", claimed: true });
  }
  return due.length;
}

async function syncAccount(
  teamId: number,
  account: Account,
  opts: { graph: GraphSettings; triggeredBy: string; claimed?: boolean },
): Promise<AccountSyncOutcome> {
  const result = emptyResult(account);
  const outcome: AccountSyncOutcome = { result, imported: [], setAside: [] };
  if (account.skipped || !account.businessAccountId) return outcome;
  const businessAccountId = account.businessAccountId;
  const db = await getDb();
  if (!opts.claimed) await startTemplateSync(db, { teamId, businessAccountId, triggeredBy: opts.triggeredBy });
  try {
    // Meta's time of what the list says: when we began reading it. A webhook about a later change
    // still applies after it; one about an earlier change no longer moves the status back.
    const fetchedAt = new Date();
    const list = await fetchTemplates(opts.graph, withSecrets(account.numbers[0]));
    if (!list.ok) {
      Object.assign(result, { outcome: "failed", error: graphErrorOf(list) });
      return outcome;
    }
    result.outcome = "synced";
    result.fetched = list.items.length;
    await applyList(teamId, account, list.items, fetchedAt, outcome);
    return outcome;
  } finally {
    await finishTemplateSync(db, { teamId, businessAccountId, result });
  }
}

/** Meta's error as the account's answer, in words; Graph's own message kept after it. */
function graphErrorOf(list: Extract<TemplateListFetch, { ok: false }>): AccountSyncResult["error"] {
  const { code, title } = list.error;
  const words =
    code === 190
      ? "Meta rechazó el token de acceso de la cuenta (código 190): hay que renovarlo."
      : code === null
        ? "No se pudo leer la lista de plantillas de Meta."
        : `La API de Meta respondió con un error (código ${code}).`;
  return { code, message: `${words} ${title}`.slice(0, 500) };
}

type Listed = {
  metaId: string | null;
  name: string;
  language: string;
  category: string;
  status: string;
  reason: string | null;
  quality: string | null;
  components: TemplateComponent[];
};
type Key = { metaId: string | null; name: string | null; language: string | null };
type Parsed = { ok: true; listed: Listed } | { ok: false; key: Key; reason: string };

/** One item of Meta's list, read as far as our structure can hold it, or the reason it cannot. */
function parseListed(raw: unknown): Parsed {
  const r = (raw ?? {}) as { id?: unknown; name?: unknown; language?: unknown };
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  // Meta's ids come as strings, sometimes as numbers.
  const key: Key = {
    metaId: typeof r.id === "number" ? String(r.id) : text(r.id),
    name: text(r.name),
    language: text(r.language)?.replace("-", "_") ?? null,
  };
  const fromGraph = graphTemplateSchema.safeParse(raw);
  if (!fromGraph.success) {
    const issue = fromGraph.error.issues[0];
    return {
      ok: false,
      key,
      reason: `estructura no soportada: ${issue ? `${issue.path.map(String).join(".") || "(raíz)"} ${issue.message}` : "inválida"}`,
    };
  }
  const t = fromGraph.data;
  const status = statusOfEvent(t.status.toUpperCase());
  if (typeof status !== "string") return { ok: false, key, reason: `estado desconocido: ${t.status}` };
  const parsed = templateInputSchema.safeParse(graphTemplateToInput(t));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      key,
      reason: `${issue?.path.map(String).join(".") || "plantilla"}: ${issue?.message ?? "estructura no soportada"}`,
    };
  }
  let components: TemplateComponent[];
  try {
    components = checkedComponents(parsed.data.components);
  } catch (err) {
    return { ok: false, key, reason: (err as Error).message };
  }
  const p = parsed.data;
  const reason = p.rejected_reason && p.rejected_reason.toUpperCase() !== "NONE" ? p.rejected_reason.slice(0, 1000) : null;
  return {
    ok: true,
    listed: {
      metaId: p.id ?? null,
      name: p.name,
      language: p.language,
      category: p.category,
      status,
      reason,
      quality: graphQualityScore(t),
      components,
    },
  };
}

async function applyList(teamId: number, account: Account, items: unknown[], fetchedAt: Date, out: AccountSyncOutcome) {
  const { result } = out;
  const waNumberIds = account.numbers.map((n) => n.id);
  const at = { teamId, waNumberIds, homeNumberId: account.numbers[0].id };
  const listedIds = new Set<string>();
  const listedNames = new Set<string>();
  const dead: ReturnType<typeof deadLetter>[] = [];
  const setAside = (key: Key, reason: string, raw: unknown) => {
    result.set_aside++;
    out.setAside.push({ name: key.name ?? "", language: key.language ?? "", reason });
    dead.push({
      ...deadLetter({ teamId, waNumberId: at.homeNumberId }, `template_sync ${account.businessAccountId}: ${reason}`, raw),
      source: "template_sync",
    });
  };
  for (const raw of items) {
    const parsed = parseListed(raw);
    const key = parsed.ok ? parsed.listed : parsed.key;
    // Listed, even when it cannot be read: it is not one Meta deleted.
    if (key.metaId) listedIds.add(key.metaId);
    if (key.name && key.language) listedNames.add(`${key.name}\u0000${key.language}`);
    if (!parsed.ok) {
      setAside(key, parsed.reason, raw);
      continue;
    }
    const meta: MetaOrigin = { at: fetchedAt, raw, source: "sync" };
    try {
      const applied = await transaction((tx) => applyListed(tx, at, parsed.listed, meta));
      if (typeof applied === "object") {
        setAside(key, applied.setAside, raw);
        continue;
      }
      if (applied === "created") result.created++;
      if (applied === "updated") result.updated++;
      out.imported.push(`${parsed.listed.name}/${parsed.listed.language}`);
    } catch (err) {
      if (isTransientDbError(err)) throw err;
      setAside(key, reasonOfError("template", err), raw);
    }
  }
  // What the account's numbers hold and Meta no longer lists.
  const gone = (await listAccountTemplates(await getDb(), { teamId, waNumberIds })).filter(
    (t) => !(t.externalId && listedIds.has(t.externalId)) && !listedNames.has(`${t.name}\u0000${t.language}`),
  );
  const meta: MetaOrigin = {
    at: fetchedAt,
    raw: { sync: "not listed by Meta", business_account_id: account.businessAccountId },
    source: "sync",
  };
  for (const t of gone) {
    const template = { metaId: t.externalId, name: t.name, language: t.language };
    try {
      const applied = await transaction((tx) =>
        applyTemplateUpdate(tx, at, { kind: "template_status", template, event: "DELETED", reason: null }, meta),
      );
      if (applied === "applied") result.deleted++;
    } catch (err) {
      // Left as it is (the next sync tries again); only the database itself failing stops the sync.
      if (isTransientDbError(err)) throw err;
    }
  }
  await keepSetAside(teamId, dead);
}

/** The items set aside, each once: a malformed template Meta keeps listing is not kept again at every sync. */
async function keepSetAside(teamId: number, rows: ReturnType<typeof deadLetter>[]) {
  if (!rows.length) return;
  const db = await getDb();
  const fresh = [];
  for (const row of rows) if (!(await syncDeadLetterKept(db, { teamId, reason: row.reason, raw: row.raw }))) fresh.push(row);
  await insertDeadLetters(db, fresh);
}

/**
 * One listed template applied in the caller's transaction: created when the account has no such
 * template (by Meta's id, else name and language), else its content, then status, quality and
 * category brought to Meta's, each change through the webhooks' writer.
 */
async function applyListed(
  tx: DbOrTx,
  at: { teamId: number; waNumberIds: number[]; homeNumberId: number },
  t: Listed,
  meta: MetaOrigin,
): Promise<"created" | "updated" | "unchanged" | { setAside: string }> {
  const ref = { metaId: t.metaId, name: t.name, language: t.language };
  let row = await lockTemplateForMeta(tx, { teamId: at.teamId, waNumberIds: at.waNumberIds, ...ref });
  if (!row) {
    const created = await insertSyncedTemplate(tx, {
      teamId: at.teamId,
      waNumberId: at.homeNumberId,
      externalId: t.metaId,
      name: t.name,
      language: t.language,
      category: t.category,
      status: t.status,
      rejectedReason: t.reason ?? "NONE",
      qualityScore: t.quality ?? "UNKNOWN",
      statusChangedAt: meta.at,
      components: t.components,
    });
    if (created) {
      await recordTemplateChange(tx, {
        teamId: at.teamId,
        after: created,
        change: { field: "status", previous: null, value: created.status, reason: t.reason },
        meta,
      });
      return "created";
    }
    // Taken meanwhile: by a sync of the same account running at once (then it is ours to refresh),
    // or by a number of another of the team's accounts (names are unique per team).
    row = await lockTemplateForMeta(tx, { teamId: at.teamId, waNumberIds: at.waNumberIds, ...ref });
    if (!row) return { setAside: `otra cuenta de WhatsApp Business del equipo ya tiene la plantilla ${t.name} (${t.language})` };
  }
  let changed = false;
  // A team-wide template (or one of another number) Meta lists for this account becomes the account's.
  const waNumberId = row.waNumberId !== null && at.waNumberIds.includes(row.waNumberId) ? row.waNumberId : at.homeNumberId;
  const edited = !sameJson(row.components, t.components);
  if (edited || (t.metaId && row.externalId !== t.metaId) || row.waNumberId !== waNumberId) {
    const after = await updateSyncedTemplate(tx, {
      teamId: at.teamId,
      id: row.id,
      values: { components: t.components, externalId: t.metaId ?? row.externalId, waNumberId },
    });
    if (edited) {
      await recordTemplateChange(tx, {
        teamId: at.teamId,
        after,
        change: { field: "components", previous: null, value: "EDITED", reason: null },
        meta,
      });
    }
    changed = true;
    row = after;
  }
  const steps: Parameters<typeof applyTemplateUpdate>[2][] = [];
  // Meta's list gives a reason only for a rejection: a pause's, which its webhook told, is kept.
  if (t.status !== row.status || (t.reason !== null && t.reason !== row.rejectedReason)) {
    steps.push({ kind: "template_status", template: ref, event: t.status, reason: t.reason });
  }
  if (t.quality && t.quality !== row.qualityScore) {
    steps.push({ kind: "template_quality", template: ref, previous: row.qualityScore, quality: t.quality });
  }
  if (t.category !== row.category.toUpperCase()) {
    steps.push({ kind: "template_category", template: ref, previous: row.category, category: t.category, pending: null });
  }
  for (const step of steps) {
    const applied: TemplateOutcome = await applyTemplateUpdate(tx, at, step, meta);
    if (applied === "applied") changed = true;
    else if (applied !== "unchanged") return applied;
  }
  return changed ? "updated" : "unchanged";
}

/** Whether two JSON values are equal, whatever the order of their keys (jsonb keeps its own order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
