/**
 * The API in a process of its own, for the crash-safety test (tests/hardening/crash-safety.test.ts):
 * the real route modules served over node:http on the database of PGLITE_DIR or DATABASE_URL.
 * Outside Vite there is no import.meta.glob, so the few routes the test needs are imported here.
 *
 *   CRASH_SETUP=1   creates a team with a cloud_api number, a sandbox number and a template first,
 *                   printed as JSON
 *   CRASH_WORKER=1  also runs the delivery worker (short intervals) for that team (CRASH_TEAM_ID,
 *                   or the one just set up)
 *
 * Prints one line `READY {"port":…, "setup":…, "uncertain":[…]}` once it serves; `uncertain` are
 * the update_ids of the team's messages claimed but never settled when this process started (a
 * crash left their send's outcome unknown), and `walking` how many of its sent messages stood
 * between SENDED and READED, both read before its worker starts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { runMigrations } from "@/db/migrate";
import * as send from "@/app/api/v1/message_templates/send/route";
import * as sendBulk from "@/app/api/v1/message_templates/send_bulk/route";
import * as update from "@/app/api/v1/updates/[update_id]/route";
import * as whatsappWebhook from "@/app/api/v1/webhooks/whatsapp/route";
import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { createWorker } from "@/lib/delivery/worker";
import { createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createSandboxNumber } from "../helpers/delivery-factories";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routes: [RegExp, string, Handler][] = [
  [/^\/api\/v1\/message_templates\/send$/, "POST", send.POST as Handler],
  [/^\/api\/v1\/message_templates\/send_bulk$/, "POST", sendBulk.POST as Handler],
  [/^\/api\/v1\/updates\/([^/]+)$/, "GET", update.GET as Handler],
  [/^\/api\/v1\/webhooks\/whatsapp$/, "POST", whatsappWebhook.POST as Handler],
];

async function main() {
  await runMigrations();
  let setup: Record<string, unknown> | null = null;
  if (process.env.CRASH_SETUP === "1") {
    const team = await createTeam();
    const number = await createCloudNumber(team.id, { messagesPerSecond: 1000 });
    const sandbox = await createSandboxNumber(team.id, { messagesPerSecond: 1000 });
    const template = await createTemplate(team.id);
    setup = {
      teamId: team.id,
      token: team.token,
      number: number.number,
      phoneNumberId: number.phoneNumberId,
      appSecret: number.secrets.appSecret,
      sandboxNumber: sandbox.number,
      template: template.name,
    };
  }
  const teamId = Number(process.env.CRASH_TEAM_ID ?? setup?.teamId);
  const db = await getDb();
  const uncertain = teamId
    ? (
        await db
          .select({ updateId: messages.updateId })
          .from(messages)
          .where(and(eq(messages.teamId, teamId), eq(messages.status, "QUEUED"), isNull(messages.providerMessageId), isNotNull(messages.lockedUntil)))
      ).map((r) => r.updateId)
    : [];
  const walking = teamId
    ? (await db.select({ id: messages.id }).from(messages).where(and(eq(messages.teamId, teamId), inArray(messages.status, ["SENDED", "SENT", "DELIVERED"])))).length
    : 0;
  if (process.env.CRASH_WORKER === "1") {
    createWorker({ pollMs: 50, leaseMs: 5000, backoffBaseMs: 20, backoffCapMs: 100, walkSweepMs: 1000, teamIds: [teamId] }).start();
  }
  const server = http.createServer(async (inc, res) => {
    const url = `http://${inc.headers.host}${inc.url}`;
    const { pathname } = new URL(url);
    const route = routes.find(([re, method]) => re.test(pathname) && method === inc.method);
    if (!route) {
      res.statusCode = 404;
      return res.end();
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(inc.headers)) if (typeof v === "string") headers.set(k, v);
    const hasBody = inc.method !== "GET";
    const request = new Request(url, {
      method: inc.method,
      headers,
      body: hasBody ? (Readable.toWeb(inc) as ReadableStream) : undefined,
      // @ts-expect-error Node's fetch needs duplex for streamed bodies
      duplex: "half",
    });
    const m = route[0].exec(pathname)!;
    const params: Record<string, string> = m[1] ? { update_id: decodeURIComponent(m[1]) } : {};
    const response = await route[2](request, { params: Promise.resolve(params) });
    res.statusCode = response.status;
    response.headers.forEach((v, k) => res.setHeader(k, v));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  // Node closes an idle keep-alive socket after 5 s; on a loaded machine the client can pick that
  // socket just as it closes and see ECONNRESET. The client, not the server, ends idle sockets here.
  server.keepAliveTimeout = 120_000;
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`READY ${JSON.stringify({ port, setup, uncertain, walking })}\n`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
