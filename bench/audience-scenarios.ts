import type { RawRequest } from "autocannon";
import { load, mb, type Measure } from "./load";
import { cpuMs, memorySampler } from "./processes";
import type { ScenarioCtx } from "./scenarios";

const IMPORT_ROWS = 50_000;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The filters a dashboard asks the stats for, in turn: everything, one template, one number, the
 * last 30 days, one sent_group (a week's campaign of the data set), and a combination.
 */
export function statsPaths(ctx: ScenarioCtx): string[] {
  const { data } = ctx;
  const now = new Date();
  const month = { from: day(new Date(now.getTime() - 29 * 86_400_000)), to: day(now) };
  const filters: Record<string, string>[] = [
    {},
    { template: "pedido_enviado" },
    { wa_number: data.numbers[0].number },
    month,
    { sent_group: "campana_3" },
    { sent_group: "campana_40", template: "pedido_enviado", wa_number: data.numbers[1].number },
  ];
  return filters.map((f) => `/api/v1/messages/stats?${new URLSearchParams(f)}`);
}

/** Scenario 9: GET /api/v1/messages/stats over the 5 M messages, filters rotating. */
export function statsLoad(ctx: ScenarioCtx, connections: number): Promise<Measure> {
  const paths = statsPaths(ctx);
  let n = 0;
  const headers = auth(ctx.data.teamA.token);
  return load({
    scenario: "message stats",
    target: "app",
    url: ctx.app.url,
    connections,
    duration: ctx.duration,
    serverPid: ctx.app.child.pid!,
    headers,
    requests: [{ method: "GET", path: paths[0], setupRequest: (req: RawRequest) => ({ ...req, path: paths[n++ % paths.length] }) }],
    probe: async () => (await fetch(ctx.app.url + paths[0], { headers })).status,
  });
}

/** A CSV of `rows` contacts new to the data set, two of the team's labels each, `;`-separated with a BOM as a spreadsheet saves it. */
export function importCsv(rows: number, run: number): string {
  const lines = ["\ufeffnúmero;nombre;customer_id;etiquetas"];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `+57 41${String(run % 100).padStart(2, "0")} ${String(i).padStart(6, "0")};Cliente importado ${i};imp_${run}_${i};Etiqueta ${(i % 5) + 1}|Etiqueta ${((i + 2) % 5) + 1}`,
    );
  }
  return lines.join("\r\n") + "\r\n";
}

/**
 * Scenario 10: POST /api/v1/contacts/import of 50,000 rows (target < 10 s), timed end to end
 * from the client: once into an empty set (50,000 created) and once again (50,000 updated).
 */
export async function importScenario(ctx: ScenarioCtx): Promise<Measure[]> {
  const run = Math.floor(Math.random() * 100);
  const body = importCsv(IMPORT_ROWS, run);
  const out: Measure[] = [];
  for (const pass of ["first import", "re-import"] as const) {
    const mem = memorySampler(ctx.app.child.pid!);
    const cpu0 = cpuMs(ctx.app.child.pid!);
    const t0 = performance.now();
    const res = await fetch(`${ctx.app.url}/api/v1/contacts/import`, {
      method: "POST",
      headers: { ...auth(ctx.data.teamA.token), "content-type": "text/csv" },
      body,
    });
    const answer = (await res.json()) as { data?: { processed: number; created: number; updated: number; rejected: unknown[] } };
    const ms = performance.now() - t0;
    const cpu = cpuMs(ctx.app.child.pid!) - cpu0;
    const m = mem.stop();
    const d = answer.data;
    out.push({
      scenario: `contacts import 50k rows, ${pass}`,
      target: "app",
      connections: 1,
      throughput: Math.round(IMPORT_ROWS / (ms / 1000)),
      unit: "rows/s",
      durationSeconds: Math.round(ms) / 1000,
      reqPerSec: 0,
      cpuMsPerReq: Math.round(cpu),
      p50: Math.round(ms),
      p99: Math.round(ms),
      requests: 1,
      errors: 0,
      non2xx: res.ok ? 0 : 1,
      statusCodes: { [res.status]: 1 },
      peakRssMb: mb(m.peakProcessRss),
      peakTreeRssMb: mb(m.peakTreeRss),
      note: `${(ms / 1000).toFixed(2)} s for ${Math.round(body.length / 1024)} KB; answer ${res.status}: ${d ? `processed ${d.processed}, created ${d.created}, updated ${d.updated}, rejected ${d.rejected.length}` : "no data"}`,
      available: true,
    });
  }
  return out;
}
