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
 * SIGTERM stops it gracefully, as `npm run worker` stops: no new claims, sends in flight finish;
 * once it has exited, every send it made has reached the Graph API.
 *
 * Prints one line `READY {"port":…, "setup":…, "uncertain":[…]}` once it serves; `uncertain` are
 * the update_ids of the team's messages claimed but never settled when this process started (a
 * crash left their send's outcome unknown), and `walking` how many of its sent messages stood
 * between SENDED and READED, both read before its worker starts.
 */
import { runMigrations } from "@/db/migrate";
import { serveRoutes, type Handler, type RouteEntry } from "../helpers/route-table-server";
import * as send from "@/app/api/v1/message_templates/send/route";
import * as sendBulk from "@/app/api/v1/message_templates/send_bulk/route";
import * as update from "@/app/api/v1/updates/[update_id]/route";
import * as stats from "@/app/api/v1/messages/stats/route";
import * as whatsappWebhook from "@/app/api/v1/webhooks/whatsapp/route";
import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { messages, parkedStatuses } from "@/db/schema";
import { createWorker } from "@/lib/delivery/worker";
import { startChores } from "@/lib/chores/schedule";
import { createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createSandboxNumber } from "../helpers/delivery-factories";

const routes: RouteEntry[] = [
  { method: "POST", pattern: /^\/api\/v1\/message_templates\/send$/, handler: send.POST as Handler },
  { method: "POST", pattern: /^\/api\/v1\/message_templates\/send_bulk$/, handler: sendBulk.POST as Handler },
  { method: "GET", pattern: /^\/api\/v1\/updates\/([^/]+)$/, handler: update.GET as Handler, param: "update_id" },
  { method: "GET", pattern: /^\/api\/v1\/messages\/stats$/, handler: stats.GET as Handler },
  { method: "POST", pattern: /^\/api\/v1\/webhooks\/whatsapp$/, handler: whatsappWebhook.POST as Handler },
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
          .where(
            and(
              eq(messages.teamId, teamId),
              eq(messages.status, "QUEUED"),
              isNull(messages.providerMessageId),
              isNotNull(messages.lockedUntil),
            ),
          )
      ).map((r) => r.updateId)
    : [];
  const walking = teamId
    ? (
        await db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.teamId, teamId), inArray(messages.status, ["SENDED", "SENT", "DELIVERED"])))
      ).length
    : 0;
  // Status webhooks the crashed process answered 200 but could not apply yet (they must survive).
  const parked = teamId
    ? (await db.select({ id: parkedStatuses.id }).from(parkedStatuses).where(eq(parkedStatuses.teamId, teamId))).length
    : 0;
  const worker =
    process.env.CRASH_WORKER === "1"
      ? createWorker({ pollMs: 50, leaseMs: 5000, backoffBaseMs: 20, backoffCapMs: 100, walkSweepMs: 1000, teamIds: [teamId] })
      : undefined;
  worker?.start();
  // What every server process runs: parked statuses applied, rollup deltas folded.
  const stopChores = startChores();
  process.once("SIGTERM", () => {
    void Promise.all([worker?.stop(), stopChores()])
      .then(() => closeDb())
      .finally(() => process.exit(0));
  });
  const port = await serveRoutes(routes);
  process.stdout.write(`READY ${JSON.stringify({ port, setup, uncertain, walking, parked })}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
