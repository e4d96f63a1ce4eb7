import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHmac } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import type { RawRequest } from "autocannon";
import { BENCH_APP_SECRET } from "./dataset";
import { load, unavailable, type Measure } from "./load";
import { medianBy } from "./repeat";
import { benchWebhookFastLane, cpuMs } from "./processes";
import type { Query, ScenarioCtx } from "./scenarios";

/*
 * The status path, twice: at the database alone (pgbench), and end to end through signed Cloud
 * API status webhooks into the one `next start` server. See bench/scenarios.md, scenarios 12 and 13.
 */

const WRITES = "status writes at the database";
const INGEST = "status webhook ingest";
/** Messages the pgbench scripts pick from at random (all of one day, two templates, three groups). */
const WRITE_SET = 10_000;
/** Messages the webhooks name: each takes sent, delivered, read, so 3× as many statuses. */
const INGEST_SET = 30_000;
/** How long the idle server's own CPU is sampled before the webhook load. */
const IDLE_MS = 3_000;

const fmt = (n: number) => Math.round(n).toLocaleString("en");
const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 100) / 100 : 0);

/** pgbench from PGBENCH when set (only there), else /usr/bin or the PATH; null when there is none. */
function findPgbench(): string | null {
  const candidates = process.env.PGBENCH ? [process.env.PGBENCH] : ["/usr/bin/pgbench", "pgbench"];
  for (const candidate of candidates) {
    const r = spawnSync(candidate, ["--version"], { encoding: "utf8" });
    if (!r.error && r.status === 0) return candidate;
  }
  return null;
}

type PgbenchResult = { tps: number; latencyMs: number | null; failed: number; transactions: number };

function runPgbench(bin: string, url: string, script: string, clients: number, seconds: number): Promise<PgbenchResult> {
  const args = [
    "-n",
    "-M",
    "prepared",
    "-c",
    String(clients),
    "-j",
    String(Math.min(clients, os.availableParallelism())),
    "-T",
    String(seconds),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...args, "-f", script, url], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("error", reject);
    child.on("exit", (code) => {
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
      if (code !== 0 || !tps) return reject(new Error(`pgbench exited ${code}: ${out.slice(-800)}`));
      const num = (re: RegExp) => (re.exec(out) ? Number(re.exec(out)![1]) : null);
      resolve({
        tps: Number(tps[1]),
        latencyMs: num(/latency average = ([\d.]+) ms/),
        failed: num(/number of failed transactions: (\d+)/) ?? 0,
        transactions: num(/number of transactions actually processed: (\d+)/) ?? 0,
      });
    });
  });
}

/** Columns of messages a clone copies from its sample (the rest are set by the clone or defaulted). */
async function cloneColumns(q: Query): Promise<string[]> {
  const rows = await q(`select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = 'messages'
      and column_name not in ('id', 'update_id', 'provider_message_id', 'created_at', 'status_updated_at')`);
  return rows.map((r) => String(r.column_name));
}

const dbRow = (scenario: string, connections: number, tps: number, unit: string, note: string): Measure => ({
  ...unavailable(scenario, "db", connections, ""),
  available: true,
  throughput: Math.round(tps),
  reqPerSec: Math.round(tps),
  unit,
  note,
});

/**
 * Scenario 12: a status change at the database, with pgbench. One transaction is the UPDATE the
 * status path makes (lib/delivery/status-repo.ts moveStatus: status, status_updated_at,
 * locked_until = NULL, guarded by the statuses it may come from) on a random one of 10,000
 * OUTBOUND messages created now for two templates and three groups (so they share message_stats
 * keys, the hot-row case), flipping SENT ↔ DELIVERED so every transaction changes the status and
 * `messages_status_changed` fires (one `events` row, one `message_stats_deltas` move row). The same
 * UPDATE on a copy with the same indexes (partitioned like messages, holding every row of the
 * partition those messages are in) but no triggers or foreign keys is the baseline; the ratio is
 * the price of the side effects. "with its audit row" adds the
 * `message_status_history` INSERT of the same transaction, as the app makes it, on both sides.
 */
export async function statusWritesScenario(ctx: ScenarioCtx): Promise<Measure[]> {
  const q = ctx.query;
  if (!q || !ctx.databaseUrl) return [unavailable(WRITES, "db", null, "needs Postgres (not PGlite)")];
  const bin = findPgbench();
  if (!bin) return [unavailable(WRITES, "db", null, "pgbench unavailable on this machine (set PGBENCH to its path)")];
  const { data } = ctx;
  const team = data.teamA.id;
  const number = data.numbers[0].id;
  const [sample] = await q(`select id, contact_id from messages where team_id = ${team} and wa_number_id = ${number}
      and direction = 'OUTBOUND' and template_name is not null order by id limit 1`);
  if (!sample) return [unavailable(WRITES, "db", null, "no outbound template message to copy")];

  const copy = `bench_status_plain_${process.pid}`;
  // The clones become their contact's last messages: the conversation row is put back afterwards.
  const convo = `bench_status_convo_${process.pid}`;
  const convoKey = `team_id = ${team} and wa_number_id = ${number} and contact_id = ${Number(sample.contact_id)}`;
  await q(`create table ${convo} as select * from conversations where ${convoKey}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-status-"));
  const [events0] = await q(`select coalesce(max(id), 0)::bigint as id from events`);
  let range: { lo: number; hi: number } | null = null;
  const results: Measure[] = [];
  try {
    const overrides: Record<string, string> = {
      status: "'SENT'",
      template_name: "'bench_status_' || (g % 2)",
      sent_group: "'bench_status_' || (g % 3)",
      locked_until: "null",
      next_attempt_at: "null",
      error: "null",
      broadcast_id: "null",
    };
    const columns = await cloneColumns(q);
    const [made] = await q(`with ins as (
        insert into messages (${columns.map((c) => `"${c}"`).join(", ")})
        select ${columns.map((c) => overrides[c] ?? `m."${c}"`).join(", ")}
        from messages m, generate_series(1, ${WRITE_SET}) g where m.id = ${Number(sample.id)} and m.team_id = ${team}
        returning id)
      select min(id)::int as lo, max(id)::int as hi, count(*)::int as n from ins`);
    range = { lo: Number(made.lo), hi: Number(made.hi) };
    // One statement on an otherwise idle sequence: the ids are consecutive, so pgbench can pick one with random().
    if (range.hi - range.lo + 1 !== Number(made.n)) {
      return [unavailable(WRITES, "db", null, `the ${WRITE_SET} prepared ids are not consecutive (another writer?)`)];
    }
    // The copy is `messages` without its triggers and foreign keys, and nothing else taken away:
    // with messages partitioned by month (migration 0037) it is partitioned alike (the same bounds
    // and the same indexes, made on the parent as on messages), so the ratio prices the side
    // effects alone, not also finding a row's partition (that price is the same on both sides).
    const [parent] = await q(`select relkind from pg_class where oid = 'messages'::regclass`);
    const partitioned = parent.relkind === "p";
    if (partitioned) {
      await q(`create table ${copy} (like messages including defaults) partition by range (id)`);
      const parts = await q(`select pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i
          join pg_class c on c.oid = i.inhrelid where i.inhparent = 'messages'::regclass order by c.relname`);
      for (const [k, part] of parts.entries()) await q(`create table ${copy}_p${k} partition of ${copy} ${String(part.bound)}`);
    } else {
      await q(`create table ${copy} (like messages including defaults)`);
    }
    // The copy holds every row of the partitions the prepared messages landed in, not only those:
    // a status UPDATE walks and dirties the index pages of its partition, and the indexes of 10,000
    // rows are shallower and far fewer pages than a month's. With only the 10,000 rows copied the
    // baseline was a smaller table than the one it stands for (on the full set its UPDATE committed
    // 19,105 times a second at 64 connections, 17,574 with the month's rows; bench/log/2026-11-28-new-machine.md).
    const holders = partitioned
      ? await q(`select r.lo, r.hi from messages_partition_ranges() r where r.name in
            (select distinct tableoid::regclass::text from messages where id between ${range.lo} and ${range.hi} and team_id = ${team})`)
      : [];
    if (holders.length) {
      for (const h of holders)
        await q(
          `insert into ${copy} select * from messages where id < ${Number(h.hi)}${h.lo === null ? "" : ` and id >= ${Number(h.lo)}`}`,
        );
    } else {
      await q(`insert into ${copy} select * from messages where id between ${range.lo} and ${range.hi} and team_id = ${team}`);
    }
    const [copied] = await q(`select count(*)::bigint as n from ${copy}`);
    const indexes = await q(`select indexname, indexdef from pg_indexes
        where schemaname = current_schema() and tablename = 'messages'`);
    for (const ix of indexes) {
      const def = String(ix.indexdef).replace(/^(CREATE (?:UNIQUE )?INDEX )(\S+)( ON )(?:ONLY )?(\S+)/, `$1${copy}_$2$3${copy}`);
      await q(def);
    }
    await q(`vacuum analyze ${copy}`);
    await q(`analyze messages`);

    const update = (table: string) =>
      `UPDATE ${table} SET status = CASE WHEN status = 'SENT' THEN 'DELIVERED' ELSE 'SENT' END, status_updated_at = now(), ` +
      `locked_until = NULL WHERE id = :id AND status IN ('SENT', 'DELIVERED')`;
    const raw = JSON.stringify({ id: "wamid.bench", status: "delivered", timestamp: "1764000000", recipient_id: "573000000000" });
    const scripts = {
      triggers: `\\set id random(${range.lo}, ${range.hi})\n${update("messages")};\n`,
      plain: `\\set id random(${range.lo}, ${range.hi})\n${update(copy)};\n`,
      triggersAudit:
        `\\set id random(${range.lo}, ${range.hi})\nBEGIN;\n${update("messages")} RETURNING team_id, status \\gset\n` +
        `INSERT INTO message_status_history (team_id, message_id, status, applied, raw) VALUES (:team_id, :id, :status, 1, '${raw}');\nEND;\n`,
      plainAudit:
        `\\set id random(${range.lo}, ${range.hi})\nBEGIN;\n${update(copy)} RETURNING team_id, status \\gset\n` +
        `INSERT INTO message_status_history (team_id, message_id, status, applied, raw) VALUES (:team_id, :id, :status, 1, '${raw}');\nEND;\n`,
    };
    const files = Object.fromEntries(
      Object.entries(scripts).map(([k, text]) => {
        const file = path.join(dir, `${k}.sql`);
        fs.writeFileSync(file, text);
        return [k, file];
      }),
    ) as Record<keyof typeof scripts, string>;

    const url = ctx.databaseUrl;
    // A short warm-up of both tables (caches, prepared plans) before anything is measured.
    await runPgbench(bin, url, files.triggers, 16, 2);
    await runPgbench(bin, url, files.plain, 16, 2);
    for (const clients of [16, 64]) {
      try {
        // Alternated, so a change in what else the machine runs touches both sides alike; with
        // --repeat=N, N such rounds, and the round with the median ratio is reported (the plain
        // side alone moved by ±20 % between runs minutes apart: bench/log/2026-11-28-50m-third-run.md).
        const rounds: { plain: PgbenchResult; triggers: PgbenchResult; plainAudit: PgbenchResult; triggersAudit: PgbenchResult }[] = [];
        for (let round = 0; round < (ctx.repeat ?? 1); round++) {
          const plain = await runPgbench(bin, url, files.plain, clients, ctx.duration);
          const triggers = await runPgbench(bin, url, files.triggers, clients, ctx.duration);
          const plainAudit = await runPgbench(bin, url, files.plainAudit, clients, ctx.duration);
          const triggersAudit = await runPgbench(bin, url, files.triggersAudit, clients, ctx.duration);
          rounds.push({ plain, triggers, plainAudit, triggersAudit });
        }
        const { plain, triggers, plainAudit, triggersAudit } = medianBy(rounds, (x) => ratio(x.triggers.tps, x.plain.tps));
        const allRatios = (side: "triggers" | "triggersAudit", base: "plain" | "plainAudit") =>
          rounds.length > 1 ? `; median of ${rounds.length} rounds (${rounds.map((x) => ratio(x[side].tps, x[base].tps)).join(", ")})` : "";
        const r = ratio(triggers.tps, plain.tps);
        // Failures of any round count: a deadlock in a round not shown is still a deadlock.
        const failed = rounds.reduce((n, x) => n + x.plain.failed + x.triggers.failed + x.plainAudit.failed + x.triggersAudit.failed, 0);
        results.push(
          dbRow(
            WRITES,
            clients,
            triggers.tps,
            `tps (${r} × no triggers)`,
            `with triggers ${fmt(triggers.tps)} tps (avg ${triggers.latencyMs} ms), copy without triggers (${fmt(Number(copied.n))} rows) ${fmt(plain.tps)} tps ` +
              `(avg ${plain.latencyMs} ms): ratio ${r}${clients === 64 ? " (target ≥ 0.5)" : ""}` +
              allRatios("triggers", "plain") +
              (failed ? `; ${failed} failed transactions` : ""),
          ),
        );
        const ra = ratio(triggersAudit.tps, plainAudit.tps);
        results.push(
          dbRow(
            `${WRITES}, with its audit row`,
            clients,
            triggersAudit.tps,
            `tps (${ra} × no triggers)`,
            `UPDATE + message_status_history INSERT in one transaction: with triggers ${fmt(triggersAudit.tps)} tps, ` +
              `on the copy ${fmt(plainAudit.tps)} tps: ratio ${ra}; against the bare UPDATE on the copy ${ratio(triggersAudit.tps, plain.tps)}` +
              allRatios("triggersAudit", "plainAudit"),
          ),
        );
      } catch (err) {
        results.push(unavailable(WRITES, "db", clients, `pgbench failed: ${(err as Error).message}`));
      }
    }
  } catch (err) {
    results.push(unavailable(WRITES, "db", null, `failed: ${(err as Error).message}`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await q(`drop table if exists ${copy}`).catch(() => []);
    if (range) {
      // The prepared messages go with their audit rows (cascade) and the events their insert and
      // changes logged. Their message_stats deltas stay: insert, changes and delete net to zero per key.
      await q(`delete from messages where id between ${range.lo} and ${range.hi} and team_id = ${team}`).catch(() => []);
      await q(`delete from events where id > ${Number(events0.id)} and team_id = ${team} and type in ('message.created', 'message.status')
          and (data->>'id')::int between ${range.lo} and ${range.hi}`).catch(() => []);
      await q(`update conversations c set last_message_id = s.last_message_id, last_message_created_at = s.last_message_created_at,
            last_message_at = s.last_message_at, last_direction = s.last_direction, updated_at = s.updated_at
          from ${convo} s where c.id = s.id`).catch(() => []);
    }
    await q(`drop table if exists ${convo}`).catch(() => []);
  }
  return results;
}

/** CPU (user + system, ms) used so far by the given processes (Postgres backends here); gone ones count 0. */
function pidsCpuMs(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {}
  }
  return out;
}

/**
 * The database's side of a load: CPU of this database's client backends (read from /proc, so only
 * when Postgres runs on this machine) and transactions committed, between start() and stop().
 */
export function databaseMeter(q: Query) {
  let cpu0 = new Map<number, number>();
  let commits0 = 0;
  const backends = async () =>
    (await q(`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`)).map((r) =>
      Number(r.pid),
    );
  const commits = async () => {
    await q(`select pg_stat_clear_snapshot()`);
    return Number((await q(`select xact_commit::bigint as n from pg_stat_database where datname = current_database()`))[0].n);
  };
  // Index and sequential scans and rows written, per table (flushed by busy backends about once a second).
  let tables0 = new Map<string, { reads: number; writes: number }>();
  const tables = async () =>
    new Map(
      (
        await q(`select relname, (coalesce(idx_scan, 0) + coalesce(seq_scan, 0))::bigint as reads,
            (n_tup_ins + n_tup_upd + n_tup_del)::bigint as writes from pg_stat_user_tables`)
      ).map((r) => [String(r.relname), { reads: Number(r.reads), writes: Number(r.writes) }]),
    );
  return {
    async start() {
      cpu0 = pidsCpuMs(await backends());
      commits0 = await commits();
      tables0 = await tables();
    },
    async stop(): Promise<{ cpuMs: number | null; commits: number; tables: { table: string; reads: number; writes: number }[] }> {
      const pids = await backends();
      const now = pidsCpuMs([...new Set([...pids, ...cpu0.keys()])]);
      let cpu = 0;
      for (const [pid, ms] of now) cpu += ms - (cpu0.get(pid) ?? 0);
      const committed = (await commits()) - commits0;
      const perTable = [...(await tables())].map(([table, t]) => ({
        table,
        reads: t.reads - (tables0.get(table)?.reads ?? 0),
        writes: t.writes - (tables0.get(table)?.writes ?? 0),
      }));
      return { cpuMs: now.size ? cpu : null, commits: committed, tables: perTable.filter((t) => t.reads || t.writes) };
    },
  };
}

const RANK = `case m.status when 'SENT' then 1 when 'DELIVERED' then 2 when 'READED' then 3 else 0 end`;
const CLOUD_STATUS = ["sent", "delivered", "read"] as const;

/**
 * One Cloud API status webhook as Meta posts it (one status of message `wamid` on number `n`),
 * signed with the bench numbers' app secret: scenario 13 and bench/status-inprocess.ts send it.
 */
export function signedStatusWebhook(n: { number: string; phoneNumberId: string }, wamid: string, status: string) {
  const text = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "bench-waba",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: n.number, phone_number_id: n.phoneNumberId },
              statuses: [
                {
                  id: wamid,
                  status,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: "573000000000",
                  conversation: { id: "bench-conversation", origin: { type: "utility" } },
                  pricing: { billable: true, pricing_model: "PMP", category: "utility" },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac("sha256", BENCH_APP_SECRET).update(text).digest("hex")}`;
  return { text, headers: { "content-type": "application/json", "x-hub-signature-256": signature } };
}

/**
 * Scenario 13: signed Cloud API status webhooks (`POST /api/v1/webhooks/whatsapp`, one status
 * each, `X-Hub-Signature-256` of the number's app secret) at 64 connections into the one server.
 * 30,000 existing OUTBOUND messages of numbers[0] are given a wamid and set to SENDED; request i
 * names message i mod 30,000 with sent, then delivered, then read, so every request carries a
 * message no other request in flight carries and every status can apply. Counted in the
 * database: each applied status moves its message one step (SENDED 0 … READED 3), so the sum of
 * the steps before and after the measured load is the number applied. CPU per status is the
 * server's CPU over the load divided by that. The messages get their old status and wamid back
 * (what the statuses logged stays: message_status_history, events, deltas).
 */
export async function statusIngestScenario(ctx: ScenarioCtx, connections = 64): Promise<Measure[]> {
  const q = ctx.query;
  if (!q) return [unavailable(INGEST, "app", connections, "needs Postgres (not PGlite): the runner counts rows")];
  const { data } = ctx;
  const n = data.numbers[0];
  const team = data.teamA.id;
  const set = `bench_ingest_set_${process.pid}`;
  const steps = async () =>
    Number(
      (await q(`select coalesce(sum(${RANK}), 0)::bigint as s from messages m join ${set} s on s.id = m.id where m.team_id = ${team}`))[0]
        .s,
    );
  const parked = async () => Number((await q(`select count(*)::int as n from parked_statuses where wa_number_id = ${n.id}`))[0].n);
  try {
    await q(`create table ${set} as
        select row_number() over (order by id) - 1 as k, id, status, provider_message_id, error
        from (select id, status, provider_message_id, error from messages
              where team_id = ${team} and wa_number_id = ${n.id} and direction = 'OUTBOUND'
                and status in ('SENDED', 'SENT', 'DELIVERED', 'READED', 'FAILED') and broadcast_id is null
              order by id desc limit ${INGEST_SET}) x`);
    await q(`alter table ${set} add primary key (id)`);
    const size = Number((await q(`select count(*)::int as n from ${set}`))[0].n);
    if (size < 1000) return [unavailable(INGEST, "app", connections, `only ${size} outbound messages to name`)];
    await q(`update messages m set status = 'SENDED', provider_message_id = 'wamid.bench.' || m.id, error = null, locked_until = null
        from ${set} s where m.id = s.id and m.team_id = ${team}`);
    const ids = (await q(`select id from ${set} order by k`)).map((r) => Number(r.id));

    let next = 0;
    const body = () => {
      const i = next++;
      return signedStatusWebhook(n, `wamid.bench.${ids[i % ids.length]}`, CLOUD_STATUS[Math.floor(i / ids.length) % 3]);
    };
    const path = "/api/v1/webhooks/whatsapp";
    let before = 0;
    let parked0 = 0;
    const database = databaseMeter(q);
    // What the server spends with no request at all (chores, the event log's tail), so the CPU
    // per status can be read net of it when few statuses share it (a loaded machine).
    const pid = ctx.app.child.pid!;
    const idle0 = cpuMs(pid);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleMsPerS = ((cpuMs(pid) - idle0) * 1000) / IDLE_MS;
    let answeredApplied = 0;
    const m = await load({
      scenario: INGEST,
      target: "app",
      url: ctx.app.url,
      connections,
      // At least 10 s: the statuses in flight when counting starts and stops weigh less.
      duration: Math.max(ctx.duration, 10),
      serverPid: ctx.app.child.pid!,
      unit: "statuses/s",
      onMeasureStart: async () => {
        before = await steps();
        parked0 = await parked();
        answeredApplied = 0;
        await database.start();
      },
      requests: [
        {
          method: "POST",
          path,
          setupRequest: (req: RawRequest) => {
            const b = body();
            return { ...req, body: b.text, headers: b.headers };
          },
          onResponse: (code: number, text: string) => {
            if (code !== 200) return;
            try {
              answeredApplied += Number(JSON.parse(text).data?.statuses ?? 0);
            } catch {}
          },
        },
      ],
      probe: async () => {
        const b = body();
        const res = await fetch(ctx.app.url + path, { method: "POST", headers: b.headers, body: b.text });
        await res.arrayBuffer();
        return res.status;
      },
    });
    if (!m.available) return [m];
    // Stats stopped first: the runner's own counting queries below are not the load's.
    const db = await database.stop();
    const moved = (await steps()) - before;
    const parkedNow = (await parked()) - parked0;
    const exhausted = next > 3 * ids.length;
    return [
      {
        ...m,
        throughput: m.durationSeconds ? Math.round(moved / m.durationSeconds) : 0,
        cpuMsPerReq: moved && m.serverCpuMs !== undefined ? Math.round((m.serverCpuMs / moved) * 100) / 100 : null,
        note:
          `${benchWebhookFastLane() === "1" ? "fast lane (WEBHOOK_FAST_LANE=1)" : "through Next's pipeline (WEBHOOK_FAST_LANE=0)"}: ` +
          `${fmt(moved)} statuses applied in the database during the measured ${m.durationSeconds} s ` +
          `(answers said ${fmt(answeredApplied)}; ${fmt(m.requests)} answers, ${m.non2xx} non-2xx, ${parkedNow} parked); ` +
          `CPU ms/req is server CPU per applied status` +
          (moved && m.serverCpuMs !== undefined
            ? ` (${((m.serverCpuMs - idleMsPerS * m.durationSeconds) / moved).toFixed(2)} net of the idle server's ${Math.round(idleMsPerS)} ms/s)`
            : "") +
          (moved && db.cpuMs !== null ? `; Postgres backends ${(db.cpuMs / moved).toFixed(2)} ms CPU per status` : "") +
          (moved ? `; ${(db.commits / moved).toFixed(1)} commits per status` : "") +
          (moved
            ? `; per status, scans/rows written by table: ${db.tables
                .sort((a, b) => b.reads + b.writes - a.reads - a.writes)
                .slice(0, 8)
                .map((t) => `${t.table} ${(t.reads / moved).toFixed(1)}/${(t.writes / moved).toFixed(1)}`)
                .join(", ")}`
            : "") +
          `; target ≥ 1,000 statuses/s` +
          (exhausted ? `; the ${ids.length} messages ran out of statuses (${next} requests)` : ""),
      },
    ];
  } catch (err) {
    return [unavailable(INGEST, "app", connections, `failed: ${(err as Error).message}`)];
  } finally {
    // The messages get back what they had; their status changes stay in the logs (events, deltas, message_status_history).
    await q(`update messages m set status = s.status, provider_message_id = s.provider_message_id, error = s.error
        from ${set} s where m.id = s.id and m.team_id = ${team}`).catch(() => []);
    await q(`drop table if exists ${set}`).catch(() => []);
  }
}
