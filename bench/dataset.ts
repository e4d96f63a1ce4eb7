import { randomInt } from "node:crypto";
import { createToken } from "@/lib/auth/tokens";
import { addNumber } from "@/lib/numbers/service";
import { SAMPLES } from "./payloads";

/**
 * Sizes of the data set: the full one, `--quick` (10× smaller), or `--scale=50m` (issue
 * 22): a business sending about 1 M messages a month, four years deep (48 monthly partitions
 * instead of 12). Each customer keeps the full set's pace (an ordinary one about 100 messages a
 * year, the heavy one about 16,400 a month), so there are 2.5× as many customers and each has four
 * times the history: a read of the last 30 days finds as many rows as in the full set, and what
 * changes is how much lies behind it, which is what partitions are for. (A first run kept the
 * 50,000 customers: each then had 2.5× the rows in any 30 days, and the history page grew with it.)
 */
export type Sizes = { messages: number; contacts: number; heavyMessages: number; days: number };
export const FULL: Sizes = { messages: 5_000_000, contacts: 50_000, heavyMessages: 200_000, days: 365 };
export const QUICK: Sizes = { messages: 500_000, contacts: 5_000, heavyMessages: 20_000, days: 365 };
export const SCALE_50M: Sizes = { messages: 50_000_000, contacts: 125_000, heavyMessages: 800_000, days: 1461 };
/** `--scale=` values: the three sets by their message count. */
export const SCALES: Record<string, Sizes> = { "500k": QUICK, "5m": FULL, "50m": SCALE_50M };

/** Runs raw SQL on one session (so session settings hold) and returns its rows. */
export type Exec = (query: string) => Promise<Record<string, unknown>[]>;

export type NumberInfo = { id: number; number: string; phoneNumberId: string; teamId: number };
export type BenchData = {
  teamA: { id: number; token: string };
  teamB: { id: number; token: string };
  numbers: NumberInfo[];
  heavy: { customerNumber: string; contactId: number };
  /** Ordinary customers of team A whose conversation is on numbers[0]. */
  ordinary: string[];
  /** Team A contacts with no labels, for the label round trips. */
  labelContacts: number[];
  labelIds: number[];
  templateName: string;
  sizes: Sizes;
  timings: Record<string, number>;
};

const LABEL_CONTACTS = 1000;
const ORDINARY_SAMPLE = 2000;
const CHUNK = 500_000;
export const BENCH_TEMPLATE = "bench_pedido";
/** The Meta app secret of every bench number: status webhooks (bench/status-scenarios.ts) are signed with it. */
export const BENCH_APP_SECRET = "bench-app-secret";

const dollar = (s: string) => `$bench$${s}$bench$`;

async function timed<T>(timings: Record<string, number>, label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await fn();
  timings[label] = Math.round(performance.now() - t0);
  console.log(`  ${label}: ${(timings[label] / 1000).toFixed(1)} s`);
  return result;
}

/**
 * Builds the data set with set-based SQL (generate_series), never row by row: contacts, then
 * messages in chunks whose contact, number, payload type and time all derive from the message's
 * ordinal. Every 25th message (in the full set) belongs to the one heavy customer; the rest are
 * spread over the other contacts by a multiplicative hash. created_at rises with the id across
 * the last `sizes.days` days (365 but in the 50 M set), as a real table's would. With `fastLoad`
 * (a database the bench owns) the secondary indexes of messages are dropped during the load and
 * rebuilt after, and foreign-key triggers are skipped, which is several times faster than
 * maintaining them row by row (the conversation_days rollup those triggers keep is then built in
 * one statement). With `reports: false` the reports' rollups are not built (no report is read): on
 * the 50 M set they are about half its build (2,708 of 7,068 s on a slow machine).
 */
export async function generateDataset(exec: Exec, sizes: Sizes, opts: { fastLoad: boolean; reports?: boolean }): Promise<BenchData> {
  const timings: Record<string, number> = {};
  const run = randomInt(100_000, 999_999);
  const [a] = await exec(`insert into teams (name) values ('Bench A ${run}') returning id`);
  const [b] = await exec(`insert into teams (name) values ('Bench B ${run}') returning id`);
  const teamA = Number(a.id);
  const teamB = Number(b.id);
  const tokenA = (await createToken({ input: { teamId: teamA, name: "bench" } })).token;
  const tokenB = (await createToken({ input: { teamId: teamB, name: "bench" } })).token;

  const numbers: NumberInfo[] = [];
  for (const [i, teamId] of [teamA, teamA, teamB].entries()) {
    const number = `5760${run}${i}00`.slice(0, 12);
    const phoneNumberId = `bench${run}${i}`;
    const row = await addNumber({
      input: {
        teamId,
        number,
        displayName: `Bench ${i + 1}`,
        provider: "cloud_api",
        phoneNumberId,
        credentials: { accessToken: "bench-token", appSecret: BENCH_APP_SECRET },
      },
    });
    numbers.push({ id: row.id, number, phoneNumberId, teamId });
  }
  const [n1, n2, n3] = numbers.map((n) => n.id);

  await exec(
    `insert into templates (team_id, name, language, category, components) values (${teamA}, '${BENCH_TEMPLATE}', 'es_CO', 'UTILITY', ${dollar(
      JSON.stringify([
        { type: "HEADER", format: "TEXT", text: "Hola {{1}}" },
        { type: "BODY", text: "Tu pedido {{1}} llega el {{2}}.", example: { body_text: [["A-1", "lunes"]] } },
        { type: "FOOTER", text: "Tienda Demo" },
      ]),
    )}::jsonb)`,
  );
  const labelRows = await exec(
    `insert into labels (team_id, title, bg_color, text_color)
     select ${teamA}, 'Etiqueta ' || g, '#25d366', '#ffffff' from generate_series(1, 5) g returning id`,
  );

  try {
    await exec("set synchronous_commit = off");
    await exec("set maintenance_work_mem = '512MB'");
    if (opts.fastLoad) await exec("set session_replication_role = replica");
  } catch (err) {
    console.log(`  (session settings not all applied: ${(err as Error).message})`);
  }

  const C = sizes.contacts;
  const { teamACount, prefix } = contactLayout(sizes, run);
  await timed(timings, "contacts", () =>
    exec(`insert into contacts (team_id, customer_number, customer_id, name, created_at, updated_at)
      select case when k <= ${teamACount} then ${teamA} else ${teamB} end,
             '${prefix}' || lpad(k::text, 7, '0'), 'cus_${run}_' || k, 'Cliente ' || k,
             now() - interval '400 days', now()
      from generate_series(1, ${C}) k`),
  );
  await exec(`create temp table bench_contacts as
      select substr(customer_number, ${prefix.length + 1})::int as k, id, team_id, customer_number, customer_id
      from contacts where team_id in (${teamA}, ${teamB}) and customer_number like '${prefix}%'`);
  await exec("alter table bench_contacts add primary key (k)");

  const samples = SAMPLES.map((s, k) => ({ ...s, k, template_name: s.type === "template" ? "pedido_enviado" : null }));
  await exec(`create temp table bench_samples as
      select * from jsonb_to_recordset(${dollar(JSON.stringify(samples))}::jsonb)
      as s(k int, type text, direction text, sender text, status text, payload jsonb, template_name text)`);

  const N = sizes.messages;
  const stride = Math.max(1, Math.round(N / sizes.heavyMessages));
  const P = samples.length;
  const spacing = (sizes.days * 86_400) / N;

  let restore: string[] = [];
  if (opts.fastLoad) {
    // messages is partitioned by month of ids (migration 0037): on a database of its own the set is
    // laid out as a live table's would be, a partition per month of its `sizes.days` days (ids rise
    // with created_at), the current and the next month's above them with the chore's least room, and the
    // (empty) tail above those.
    await exec(`DO $$
      DECLARE
        base bigint := messages_next_id() - 1;
        r record;
        m timestamptz;
        lo bigint;
        hi bigint;
      BEGIN
        FOR r IN SELECT name FROM messages_partition_ranges() WHERE name LIKE 'messages\\_p%' LOOP
          EXECUTE format('ALTER TABLE messages DETACH PARTITION %I', r.name);
          EXECUTE format('DROP TABLE %I', r.name);
        END LOOP;
        ALTER TABLE messages DETACH PARTITION messages_tail;
        DROP TABLE messages_tail;
        m := date_trunc('month', now() - interval '${sizes.days} days', 'UTC');
        lo := base + 1;
        WHILE m <= now() LOOP
          hi := CASE WHEN m + interval '1 month' > now() THEN base + ${N} + 1 + 1000000
            ELSE base + greatest(1, ceil(${N} - extract(epoch FROM now() - (m + interval '1 month')) / ${spacing}))::bigint END;
          IF hi > lo THEN
            EXECUTE format('CREATE TABLE %I (LIKE messages INCLUDING DEFAULTS INCLUDING STATISTICS)', 'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'));
            EXECUTE format('ALTER TABLE messages ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', 'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'), lo, hi);
            lo := hi;
          END IF;
          m := m + interval '1 month';
        END LOOP;
        EXECUTE format('CREATE TABLE %I (LIKE messages INCLUDING DEFAULTS INCLUDING STATISTICS)', 'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'));
        EXECUTE format('ALTER TABLE messages ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', 'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'), lo, lo + 1000000);
        PERFORM messages_make_tail(lo + 1000000);
      END $$`);
    const idx = await exec(`select indexname, indexdef from pg_indexes
        where schemaname = current_schema() and tablename = 'messages'
          and indexname not in (select conname from pg_constraint where conrelid = 'messages'::regclass)`);
    // A partitioned table's index reads "ON ONLY messages": made so, it would cover no partition.
    restore = idx.map((r) => String(r.indexdef).replace(" ON ONLY ", " ON "));
    for (const r of idx) await exec(`drop index "${String(r.indexname)}"`);
  }

  await timed(timings, "messages", async () => {
    for (let lo = 1; lo <= N; lo += CHUNK) {
      const hi = Math.min(N, lo + CHUNK - 1);
      await exec(`insert into messages (team_id, wa_number_id, contact_id, customer_number, customer_id, sender, direction,
            type, status, payload, agent_id, agent_name, created_at, status_updated_at, template_name, sent_group)
        select c.team_id,
               case when c.team_id = ${teamB} then ${n3} when c.k % 2 = 1 then ${n1} else ${n2} end,
               c.id, c.customer_number, c.customer_id, s.sender, s.direction, s.type, s.status, s.payload,
               case when s.sender = 'AGENT' then 1 else 0 end,
               case when s.sender = 'AGENT' then 'Laura Pérez' end,
               t.at, t.at, s.template_name,
               -- Outbound sends grouped by week, as campaigns would be (the stats scenario filters by one).
               case when s.direction = 'OUTBOUND' then 'campana_' || floor((${N} - i) * ${spacing} / 604800)::int end
        from generate_series(${lo}, ${hi}) i
        cross join lateral (select now() - make_interval(secs => (${N} - i) * ${spacing})) as t(at)
        join bench_samples s on s.k = i % ${P}
        join bench_contacts c on c.k = case when i % ${stride} = 0 then 1 else 2 + ((i::bigint * 7919) % ${C - 1}) end`);
      process.stdout.write(`  messages ${hi.toLocaleString("en")} / ${N.toLocaleString("en")}\r`);
    }
    process.stdout.write("\n");
  });
  // The temporary tables served the messages' generation only.
  await exec("drop table bench_contacts");
  await exec("drop table bench_samples");
  if (restore.length) {
    await timed(timings, "indexes", async () => Promise.all(restore.map((def) => exec(def))));
    // Each partition's copies named after the table's, as the chore names them.
    await exec(`select messages_name_partition_indexes(c.relname) from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'messages'::regclass`);
  }
  if (opts.fastLoad) {
    await exec("set session_replication_role = origin").catch(() => []);
    // The load skipped the trigger that keeps each partition's created_at bounds (a history page's
    // id range, db/functions/message_partition_bounds.sql): read from the partitions' rows here.
    await timed(timings, "partition bounds", () => exec("select messages_partition_bounds_sync()"));
    // The load skipped the triggers that keep the conversation_days rollup, so it is built here
    // in one pass, as migration 0007 does for an existing table.
    await timed(timings, "rollup", () =>
      exec(`insert into conversation_days (team_id, wa_number_id, contact_id, day, messages)
        select team_id, wa_number_id, contact_id, (created_at at time zone 'UTC')::date, count(*)
        from messages where team_id in (${teamA}, ${teamB}) group by 1, 2, 3, 4`),
    );
    // Likewise the message_stats rollup of GET /api/v1/messages/stats (migration 0017's backfill);
    // its triggers fill message_stats_months (migration 0039) and, from the months,
    // message_stats_totals (migration 0040) in the same statement.
    await timed(timings, "stats rollup", () =>
      exec(`insert into message_stats (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
        select team_id, (created_at at time zone 'UTC')::date, wa_number_id, coalesce(template_name, ''), coalesce(sent_group, ''), status,
          message_stats_error_code(status, error), message_stats_error_title(status, error), count(*)
        from messages where team_id in (${teamA}, ${teamB}) and direction = 'OUTBOUND' group by 1, 2, 3, 4, 5, 6, 7, 8`),
    );
    // Likewise the reports' rollups (migration 0050's backfill): message counts per customer and
    // per day, and the first responses by the triggers' rule (messages in id order).
    const reports = opts.reports ?? true;
    if (!reports) console.log("  report rollups: skipped (no report is read in this run)");
    if (reports)
      await timed(timings, "report rollups", async () => {
        await exec(`insert into report_message_counts (team_id, day, wa_number_id, contact_id, agent_id, direction, messages)
        select team_id, (created_at at time zone 'UTC')::date, wa_number_id, contact_id,
          case when direction = 'OUTBOUND' then agent_id else 0 end, direction, count(*)
        from messages where team_id in (${teamA}, ${teamB}) group by 1, 2, 3, 4, 5, 6`);
        await exec(`insert into report_message_days (team_id, day, wa_number_id, agent_id, direction, messages)
        select team_id, day, wa_number_id, agent_id, direction, sum(messages)
        from report_message_counts where team_id in (${teamA}, ${teamB}) group by 1, 2, 3, 4, 5`);
        await exec(`insert into report_responses (team_id, day, wa_number_id, contact_id, agent_id, seconds)
        SELECT team_id, (answered_at AT TIME ZONE 'UTC')::date AS day, wa_number_id, contact_id, agent_id,
          greatest(0, round(extract(epoch FROM answered_at - first_in)))::int AS seconds
        FROM (SELECT team_id, wa_number_id, contact_id, grp,
                min(created_at) FILTER (WHERE direction = 'INBOUND') AS first_in,
                min(created_at) FILTER (WHERE direction = 'OUTBOUND') AS answered_at,
                min(agent_id) FILTER (WHERE direction = 'OUTBOUND') AS agent_id
              FROM (SELECT team_id, wa_number_id, contact_id, created_at, agent_id, direction,
                      count(*) FILTER (WHERE direction = 'OUTBOUND') OVER (PARTITION BY team_id, wa_number_id, contact_id ORDER BY id
                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS grp
                    FROM messages
                    WHERE (direction = 'INBOUND' OR (sender IN ('AGENT', 'SYSTEM') AND broadcast_id IS NULL)) AND team_id in (${teamA}, ${teamB})) e
              GROUP BY 1, 2, 3, 4) s
        WHERE answered_at IS NOT NULL AND first_in IS NOT NULL`);
      });
    // Likewise the conversations the inbox lists (migration 0010's backfill, for these teams).
    await timed(timings, "conversations", () =>
      exec(`insert into conversations (team_id, wa_number_id, contact_id, last_message_id, last_message_created_at, last_message_at,
          last_direction, last_inbound_at, last_inbound_message_id, unread_count, status)
        select l.team_id, l.wa_number_id, l.contact_id, l.id, l.created_at, l.created_at, l.direction, i.created_at, i.id,
          (l.contact_id % 3 = 0)::int, 'open'
        from (select distinct on (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at, direction
              from messages where team_id in (${teamA}, ${teamB}) order by team_id, wa_number_id, contact_id, created_at desc, id desc) l
        left join (select distinct on (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at
              from messages where team_id in (${teamA}, ${teamB}) and direction = 'INBOUND'
              order by team_id, wa_number_id, contact_id, created_at desc, id desc) i
          using (team_id, wa_number_id, contact_id)
        on conflict (team_id, wa_number_id, contact_id) do nothing`),
    );
    // The time histograms the reports read (migration 0033's backfill): the first responses above
    // counted per bucket at the four levels, plus the openings the conversations' trigger just
    // appended as deltas, folded here so that the measured reads do not start with tens of
    // thousands of deltas.
    if (reports)
      await timed(timings, "report histograms", () =>
        exec(`with gone as (delete from report_histogram_deltas where team_id in (${teamA}, ${teamB}) returning *),
        responses as (
          select r.team_id, r.day, l.n as wa_number_id, l.a as agent_id, 'first_response' as metric,
            report_seconds_bucket(r.seconds) as bucket, count(*) as samples, sum(r.seconds) as seconds
          from report_responses r
          cross join lateral (values (r.wa_number_id, r.agent_id), (r.wa_number_id, -1), (0, r.agent_id), (0, -1)) l(n, a)
          where r.team_id in (${teamA}, ${teamB}) group by 1, 2, 3, 4, 5, 6)
        insert into report_histograms as h (team_id, day, wa_number_id, agent_id, metric, bucket, samples, seconds)
        select team_id, day, wa_number_id, agent_id, metric, bucket, sum(samples), sum(seconds)
        from (select team_id, day, wa_number_id, agent_id, metric, bucket, samples, seconds from gone
              union all select * from responses) s
        group by 1, 2, 3, 4, 5, 6
        on conflict (team_id, day, wa_number_id, agent_id, metric, bucket)
        do update set samples = h.samples + excluded.samples, seconds = h.seconds + excluded.seconds`),
      );
  }
  // A vacuumed table has its visibility map set, as autovacuum keeps a live one: without it the
  // covering history index could not answer index-only.
  await timed(timings, "vacuum", async () => {
    await exec("vacuum analyze messages");
    await exec("analyze contacts");
    await exec("vacuum analyze conversation_days");
    await exec("vacuum analyze conversations");
    await exec("vacuum analyze message_stats");
    await exec("vacuum analyze message_stats_months");
    await exec("vacuum analyze message_stats_totals");
    await exec("vacuum analyze report_responses");
    await exec("vacuum analyze report_message_days");
    await exec("vacuum analyze report_histograms");
    // The deltas the load folded above are dead rows until a vacuum, and every report's read of
    // the unfolded deltas visited them all (200,000 of them: 8 ms of Postgres a report). A live
    // server's folds vacuum what they empty (lib/reports/fold.ts).
    await exec("vacuum analyze report_histogram_deltas");
    await exec("vacuum analyze report_message_deltas");
  });

  return {
    teamA: { id: teamA, token: tokenA },
    teamB: { id: teamB, token: tokenB },
    numbers,
    ...(await sampleContacts(exec, teamA, contactLayout(sizes, run))),
    labelIds: labelRows.map((r) => Number(r.id)),
    templateName: BENCH_TEMPLATE,
    sizes,
    timings,
  };
}

/** How a run numbers its contacts: team A holds ordinals 1…teamACount, each number is the prefix and the ordinal. */
function contactLayout(sizes: Sizes, run: number) {
  return { teamACount: Math.floor(sizes.contacts * 0.8), prefix: `573${String(run).slice(0, 2)}` };
}

/**
 * The contacts the scenarios use, found by their ordinal `k` (the digits after the run's prefix in
 * the customer number): the heavy customer (k = 1), a sample of ordinary ones of team A whose
 * conversation is on its first number (odd k), and team A contacts no message scenario labels.
 */
async function sampleContacts(exec: Exec, teamA: number, { prefix, teamACount }: ReturnType<typeof contactLayout>) {
  const k = `substr(customer_number, ${prefix.length + 1})::int`;
  const mine = `team_id = ${teamA} and customer_number like '${prefix}%'`;
  const heavy = await exec(`select id, customer_number from contacts where ${mine} and ${k} = 1`);
  const ordinary = await exec(`select customer_number from contacts
      where ${mine} and ${k} % 2 = 1 and ${k} between 2 and ${teamACount} order by random() limit ${ORDINARY_SAMPLE}`);
  const labelContacts = await exec(`select id from contacts where ${mine} and ${k} between 2 and ${LABEL_CONTACTS + 1} order by ${k}`);
  if (!heavy.length) throw new Error(`no bench contacts with the prefix ${prefix} in team ${teamA}`);
  return {
    heavy: { customerNumber: String(heavy[0].customer_number), contactId: Number(heavy[0].id) },
    ordinary: ordinary.map((r) => String(r.customer_number)),
    labelContacts: labelContacts.map((r) => Number(r.id)),
  };
}

/**
 * `--resume`: the data of a set a previous run built and kept (`--keep`), read back from its
 * database (the newest "Bench A/B" teams of that run), with new API tokens, so its reads can be
 * measured again after a code change without a build that takes most of an hour at 50 M.
 * `sizes` must be the scale it was built at (the same `--scale`).
 */
export async function recoverDataset(exec: Exec, sizes: Sizes, opts: { reports: boolean }): Promise<BenchData> {
  const [a] = await exec(`select id, substr(name, 9) as run from teams where name like 'Bench A %' order by id desc limit 1`);
  if (!a) throw new Error("--resume: no bench team in this database");
  const run = String(a.run);
  const [b] = await exec(`select id from teams where name = 'Bench B ${run}'`);
  const teamA = Number(a.id);
  const teamB = Number(b.id);
  // A set built without the reports' rollups (generateDataset `reports: false`) would report nothing.
  if (opts.reports && !(await exec(`select 1 from report_message_days where team_id = ${teamA} limit 1`)).length)
    throw new Error(
      "--resume: this set was built without the reports' rollups; measure the reports on a set built with `reports` in --only",
    );
  const numbers = (
    await exec(`select id, number, phone_number_id, team_id from wa_numbers
      where team_id in (${teamA}, ${teamB}) and phone_number_id like 'bench${run}%' order by phone_number_id`)
  ).map((r) => ({ id: Number(r.id), number: String(r.number), phoneNumberId: String(r.phone_number_id), teamId: Number(r.team_id) }));
  const labelRows = await exec(`select id from labels where team_id = ${teamA} and title like 'Etiqueta %' order by id`);
  return {
    teamA: { id: teamA, token: (await createToken({ input: { teamId: teamA, name: "bench" } })).token },
    teamB: { id: teamB, token: (await createToken({ input: { teamId: teamB, name: "bench" } })).token },
    numbers,
    ...(await sampleContacts(exec, teamA, contactLayout(sizes, Number(run)))),
    labelIds: labelRows.map((r) => Number(r.id)),
    templateName: BENCH_TEMPLATE,
    sizes,
    timings: {},
  };
}
