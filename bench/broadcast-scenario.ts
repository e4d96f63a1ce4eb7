import { unavailable, type Measure } from "./load";
import { cpuMs, memorySampler } from "./processes";
import type { ScenarioCtx } from "./scenarios";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const BROADCAST_RECIPIENTS = 100_000;

/**
 * Scenario 9: `POST /api/v1/broadcasts` to an audience of 100,000 contacts of team A (a label
 * given to 100,000 new contacts, made here in SQL), each message with its contact's name in the
 * header and customer id in the body. Measured from the request to its 201, which the service
 * sends once every batch is committed; the note checks that the QUEUED rows exist, and says how
 * many distinct counts.recipients values a poller saw meanwhile (the progress a large broadcast
 * shows). No worker runs: the rows stay QUEUED. Needs Postgres (the runner's own SQL).
 */
export async function broadcastScenario(ctx: ScenarioCtx): Promise<Measure[]> {
  const q = ctx.query;
  const scenario = `broadcast enqueue (${BROADCAST_RECIPIENTS.toLocaleString("en")} recipients)`;
  if (!q) return [unavailable(scenario, "app", 1, "needs Postgres (the runner makes the audience in SQL)")];
  const { data, app } = ctx;
  const team = data.teamA.id;
  const [label] = await q(
    `insert into labels (team_id, title, bg_color, text_color) values (${team}, 'Difusión bench ${Date.now()}', '#25d366', '#ffffff') returning id`,
  );
  const labelId = Number(label.id);
  await q(`insert into contacts (team_id, customer_number, customer_id, name)
    select ${team}, '5799' || lpad(g::text, 9, '0'), 'bc_' || g, 'Cliente ' || g from generate_series(1, ${BROADCAST_RECIPIENTS}) g
    on conflict do nothing`);
  await q(`insert into contact_labels (team_id, contact_id, label_id)
    select ${team}, id, ${labelId} from contacts where team_id = ${team} and customer_number like '5799%' order by id limit ${BROADCAST_RECIPIENTS}`);
  await q(`analyze contacts; analyze contact_labels`);

  const headers = { authorization: `Bearer ${data.teamA.token}`, "content-type": "application/json" };
  const request = {
    name: `Bench ${Date.now()}`,
    wa_number: data.numbers[0].number,
    template_name: data.templateName,
    header_param: { key: "1", value: "{{name}}" },
    body_params: [
      { key: "1", value: "BF-{{customer_id}}" },
      { key: "2", value: "viernes" },
    ],
    audience: { labels_any: [labelId] },
  };
  // A poller reads the newest broadcast while the request runs: counts.recipients should grow.
  const seen = new Set<number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const res = await fetch(`${app.url}/api/v1/broadcasts?per_page=1`, { headers }).catch(() => null);
      const b = res?.ok ? ((await res.json()) as { data: { name: string; counts: { recipients: number } }[] }).data[0] : undefined;
      if (b?.name === request.name) seen.add(b.counts.recipients);
      await sleep(500);
    }
  })();

  const pid = app.child.pid!;
  const mem = memorySampler(pid);
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  const res = await fetch(`${app.url}/api/v1/broadcasts`, { method: "POST", headers, body: JSON.stringify(request) });
  const ms = performance.now() - t0;
  const cpu = cpuMs(pid) - cpu0;
  const peak = mem.stop();
  polling = false;
  await poller;
  const answer = (await res.json().catch(() => ({}))) as { message?: string; data?: { id: number } };
  if (res.status !== 201 || !answer.data) return [unavailable(scenario, "app", 1, `answered ${res.status}: ${answer.message ?? ""}`)];
  const [rows] = await q(
    `select count(*)::int as n from messages where team_id = ${team} and broadcast_id = ${answer.data.id} and status = 'QUEUED'`,
  );
  const committed = Number(rows.n);
  return [
    {
      ...unavailable(scenario, "app", 1, ""),
      available: true,
      throughput: Math.round(committed / (ms / 1000)),
      reqPerSec: Math.round(committed / (ms / 1000)),
      unit: "msgs/s",
      durationSeconds: Math.round(ms) / 1000,
      requests: 1,
      p50: Math.round(ms),
      p99: Math.round(ms),
      statusCodes: { [res.status]: 1 },
      cpuMsPerReq: Math.round(cpu),
      peakRssMb: Math.round((peak.peakProcessRss / 1024 / 1024) * 10) / 10,
      note:
        `${committed} QUEUED rows committed in ${(ms / 1000).toFixed(1)} s (target < 20 s); "${answer.message}"; ` +
        `counts.recipients seen while enqueuing: ${[...seen].sort((a, b) => a - b).join(", ") || "none"}`,
    },
  ];
}
