import http from "node:http";
import { randomUUID } from "node:crypto";
import type { AppProcess } from "./built-app";

/**
 * Clients for shutdown tests: a template send classified by how it ended, a send loop with a
 * SIGTERM in the middle, and the rows the server committed, read after it exited.
 */
/**
 * answered: any HTTP answer, read to its end; refused: the connection was refused, so the request
 * never arrived; broken: anything else (a reset, a cut answer, no answer in time), with whether
 * the request had been written, which is when the client can no longer know if it ran.
 */
export type Outcome =
  | { kind: "answered"; status: number; updateId?: string; at: number }
  | { kind: "refused"; at: number }
  | { kind: "broken"; error: string; written: boolean; at: number };

/** One POST of `body` to the template send route on `agent`'s kept-alive connection. */
export function send(app: AppProcess, agent: http.Agent, body: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (o: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
    let written = false;
    const req = http.request(
      `${app.url}/api/v1/message_templates/send`,
      {
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${app.token}`, "content-type": "application/json" },
        // A hung request is a failure too, not a pass by timeout; far above any answer time here.
        timeout: 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          if (!res.complete) return settle({ kind: "broken", error: "answer cut short", written: true, at: Date.now() });
          let updateId: string | undefined;
          try {
            updateId = JSON.parse(Buffer.concat(chunks).toString()).data?.update_id;
          } catch {}
          settle({ kind: "answered", status: res.statusCode!, updateId, at: Date.now() });
        });
        res.on("error", (err) => settle({ kind: "broken", error: `answer: ${err.message}`, written: true, at: Date.now() }));
      },
    );
    req.on("finish", () => (written = true));
    req.on("timeout", () => req.destroy(new Error("no answer within 120 s")));
    req.on("error", (err: NodeJS.ErrnoException) =>
      settle(
        err.code === "ECONNREFUSED"
          ? { kind: "refused", at: Date.now() }
          : { kind: "broken", error: err.code ?? err.message, written, at: Date.now() },
      ),
    );
    req.end(body);
  });
}

/** The group's rows as the server left them (read after it exited: PGlite is one process's). */
export async function committedRows(app: AppProcess, group: string): Promise<{ update_id: string; leased: boolean }[]> {
  const query = "select update_id::text as update_id, locked_until is not null as leased from messages where sent_group = $1";
  if (app.pgliteDir) {
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(app.pgliteDir);
    try {
      return (await db.query<{ update_id: string; leased: boolean }>(query, [group])).rows;
    } finally {
      await db.close();
    }
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(app.databaseUrl!, { max: 1, onnotice: () => {} });
  try {
    return (await sql.unsafe(query, [group])) as unknown as { update_id: string; leased: boolean }[];
  } finally {
    await sql.end();
  }
}

export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// Not the demo's María: on a shared DATABASE_URL, tests/admin-seed.test.ts reads her conversation
// while this runs, and expects only the seed's messages in it.
const DEMO = { number: "573001234567", customer: "573005550199" };

/**
 * `clients` clients send the demo template in a loop, each over its own kept-alive connection;
 * once `acksBeforeSigterm` sends were acknowledged, and every client had one, the app gets SIGTERM. Resolves when the app
 * has exited and every client has stopped (each stops at its first answer-less request).
 */
export async function sendLoopThenSigterm(app: AppProcess, opts: { clients: number; acksBeforeSigterm: number; timeoutS: number }) {
  const group = `shutdown-${randomUUID().slice(0, 8)}`;
  const body = JSON.stringify({
    wa_number: DEMO.number,
    destination: DEMO.customer,
    template_name: "confirmacion_pedido",
    header_param: { key: "1", value: "María" },
    body_params: [
      { key: "1", value: "A-77" },
      { key: "2", value: "martes" },
    ],
    button_params: [{ index: 1, value: "A-77" }],
    sent_group: group,
  });

  const outcomes: Outcome[] = [];
  let acks = 0;
  // Every client must have been answered once: a connection still waiting in the listen backlog
  // at SIGTERM (a busy server accepts slowly) is not the in-flight case this is about (docs/operations.md, "Shutdown").
  const served = new Set<http.Agent>();
  let reachedLoad!: () => void;
  const loaded = new Promise<void>((r) => (reachedLoad = r));
  const client = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (;;) {
        const o = await send(app, agent, body);
        outcomes.push(o);
        if (o.kind === "answered" && o.status === 200) {
          served.add(agent);
          if (++acks >= opts.acksBeforeSigterm && served.size === opts.clients) reachedLoad();
        }
        // Refused: the server is gone. Broken: already a failure; carrying on adds nothing.
        if (o.kind !== "answered") return;
      }
    } finally {
      agent.destroy();
    }
  };
  const clients = Array.from({ length: opts.clients }, client);

  await within(180_000, `${opts.acksBeforeSigterm} acknowledged sends`, loaded);
  const killedAt = Date.now();
  app.child.kill("SIGTERM");
  const exit = await within((opts.timeoutS + 30) * 1000, "exit after SIGTERM", app.exited);
  const exitMs = Date.now() - killedAt;
  await within(60_000, "the clients to stop", Promise.all(clients));

  return { group, outcomes, killedAt, exit, exitMs };
}
