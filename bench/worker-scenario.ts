import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { startFakeGraph, rateOf } from "./fake-graph";
import { mb, unavailable, type Measure } from "./load";
import { ROOT, cpuMs, memorySampler, stopChild } from "./processes";
import type { ScenarioCtx } from "./scenarios";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Scenario 4: the delivery worker (`scripts/worker.ts`, its own process as in production) drains
 * the queue into a local fake Graph API: first with pacing off (messages_per_second set beyond
 * reach), then at 80/s per number on two numbers, where the fake's log shows the pace held.
 * The queue is filled by cloning a message the send scenario queued through the API, so each
 * row is exactly what the app stores.
 */
export async function workerScenarios(ctx: ScenarioCtx, env: Record<string, string>): Promise<Measure[]> {
  const q = ctx.query!;
  const { data } = ctx;
  const script = path.join(ROOT, "scripts", "worker.ts");
  if (!fs.existsSync(script)) return [unavailable("worker drain", "worker", null, "scripts/worker.ts has not landed")];
  const [sample] = await q(`select id from messages where team_id = ${data.teamA.id} and status = 'QUEUED' order by id limit 1`);
  if (!sample) return [unavailable("worker drain", "worker", null, "no queued send to copy (send scenario unavailable)")];

  const quick = data.sizes.messages < 1_000_000;
  const [n1, n2] = data.numbers;
  // A fresh delivery job whatever became of the sample: QUEUED, never attempted, due now.
  const overrides: Record<string, string> = {
    status: "'QUEUED'",
    attempts: "0",
    locked_until: "null",
    next_attempt_at: "now()",
    error: "null",
    wa_number_id: `case when g % 2 = 0 then ${n1.id} else ${n2.id} end`,
  };
  const columns = (
    await q(`select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = 'messages'
        and column_name not in ('id', 'update_id', 'provider_message_id', 'created_at', 'status_updated_at')`)
  ).map((r) => String(r.column_name));
  const enqueue = (count: number) =>
    q(`insert into messages (${columns.map((c) => `"${c}"`).join(", ")})
       select ${columns.map((c) => overrides[c] ?? `m."${c}"`).join(", ")}
       from messages m, generate_series(1, ${count}) g where m.id = ${Number(sample.id)}`);
  const queued = async () =>
    Number((await q(`select count(*)::int as n from messages where team_id = ${data.teamA.id} and status = 'QUEUED'`))[0].n);
  const setPace = (mps: number) =>
    q(`update wa_numbers set messages_per_second = ${mps}, next_send_at = null where team_id = ${data.teamA.id}`);

  const graph = await startFakeGraph();
  let output = "";
  const startWorker = () => {
    const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    const child = spawn(process.execPath, [...profile, "--conditions=react-server", "--import", "tsx", script], {
      cwd: ROOT,
      env: { ...process.env, ...env, GRAPH_API_BASE_URL: graph.url, WORKER_POLL_MS: "100" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (c) => (output = (output + c).slice(-10_000)));
    child.stderr!.on("data", (c) => (output = (output + c).slice(-10_000)));
    return child;
  };
  let worker = startWorker();
  const results: Measure[] = [];

  const drain = async (label: string, timeoutMs: number) => {
    const mem = memorySampler(worker.pid!);
    const cpu0 = cpuMs(worker.pid!);
    const deadline = Date.now() + timeoutMs;
    let left = await queued();
    while (left > 0 && Date.now() < deadline && worker.exitCode === null) {
      await sleep(250);
      left = await queued();
    }
    const m = mem.stop();
    const cpu = cpuMs(worker.pid!) - cpu0;
    const [failed] = await q(`select count(*)::int as n from messages where team_id = ${data.teamA.id} and status = 'FAILED'
      and status_updated_at > now() - interval '10 minutes' and direction = 'OUTBOUND' and template_name = '${data.templateName}'`);
    const perNumber = [...graph.calls.values()].map(rateOf);
    const all = rateOf([...graph.calls.values()].flat());
    return { label, left, failed: Number(failed.n), perNumber, all, rss: m.peakProcessRss, cpu };
  };
  const measure = (d: Awaited<ReturnType<typeof drain>>, note: string): Measure => ({
    ...unavailable(d.label, "worker", null, ""),
    available: true,
    throughput: d.all.perSecond,
    reqPerSec: d.all.perSecond,
    unit: "msgs/s",
    requests: d.all.count,
    cpuMsPerReq: d.all.count ? Math.round((d.cpu / d.all.count) * 100) / 100 : null,
    non2xx: d.failed,
    peakRssMb: mb(d.rss),
    note:
      `${note}; ${d.left ? `${d.left} still queued at the time limit; ` : ""}${d.failed} FAILED` +
      (d.all.count === 0 ? `; worker output: ${output.slice(-600).replace(/\s+/g, " ")}` : ""),
  });

  try {
    // Pacing off: everything queued so far (the send scenario's) plus a fixed batch.
    await setPace(1_000_000);
    await enqueue(quick ? 3_000 : 10_000);
    const off = await drain("worker drain, pacing off", quick ? 45_000 : 90_000);
    results.push(measure(off, `${off.all.count} sends to the fake Graph API`));

    // Paced: 80/s on each of two numbers, about 8 s of work each, on an empty queue and a fresh
    // worker so nothing of the first phase is counted.
    await stopChild(worker);
    await q(`delete from messages where team_id = ${data.teamA.id} and status = 'QUEUED'`);
    graph.reset();
    await setPace(80);
    await enqueue(quick ? 800 : 1_280);
    worker = startWorker();
    const paced = await drain("worker drain, 80/s per number", 60_000);
    const detail = paced.perNumber.map((r) => `${r.perSecond}/s avg, max ${r.maxInAnySecond} in any 1 s`).join("; ");
    results.push(measure(paced, `per number: ${detail} (limit 80)`));
  } catch (err) {
    results.push(unavailable("worker drain", "worker", null, `failed: ${(err as Error).message}\n${output.slice(-2000)}`));
  } finally {
    await stopChild(worker);
    await graph.close();
  }
  return results;
}
