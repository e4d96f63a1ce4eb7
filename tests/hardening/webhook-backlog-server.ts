/**
 * The webhook fast lane in a process of its own, for tests/hardening/webhook-backlog.test.ts: a
 * server just started (the restart after a crash) with BACKLOG_SIZE messages sent and waiting for
 * their statuses, on the database of PGLITE_DIR or DATABASE_URL. Meta's posts are answered by the
 * fast lane as under `next start` (lib/meta-webhooks/fast-lane.ts), with the connection limits
 * of instrumentation.node.ts; any other request is the test's window on the server:
 *   GET /stats  the admission counters and, for the backlog's messages, how many are DELIVERED,
 *               how many have an applied DELIVERED row in their history and the most any has
 *               (a status received twice is recorded twice, applied once).
 *
 * Prints one line `READY {"port":…, "phoneNumberId":…, "appSecret":…, "wamidPrefix":…}` once it serves.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { runMigrations } from "@/db/migrate";
import { getDb, rowsOf } from "@/db/client";
import { config } from "@/lib/config";
import { limitHttpConnections } from "@/lib/http/connection-limits";
import { installWebhookFastLane } from "@/lib/meta-webhooks/fast-lane";
import { webhookAdmission } from "@/lib/meta-webhooks/admission";
import { createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage } from "../helpers/delivery-factories";

async function main() {
  await runMigrations();
  const size = Number(process.env.BACKLOG_SIZE);
  const team = await createTeam();
  const number = await createCloudNumber(team.id, { messagesPerSecond: 1000 });
  const contact = await createContact(team.id);
  const template = await createTemplate(team.id);
  const seed = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
  const wamidPrefix = `wamid.backlog.${team.id}.`;
  const db = await getDb();
  // The backlog: `size` copies of one sent message, each with its own wamid (what Meta knows it by).
  await db.execute(sql`
    INSERT INTO messages (team_id, wa_number_id, contact_id, customer_number, customer_id, sender, direction, type, status,
                          payload, template_id, template_name, template_language, send_params, response_handler, provider_message_id)
    SELECT team_id, wa_number_id, contact_id, customer_number, customer_id, sender, direction, type, 'SENDED',
           payload, template_id, template_name, template_language, send_params, response_handler, ${wamidPrefix} || g
    FROM messages, generate_series(1, ${size}) AS g WHERE id = ${seed.id}`);

  const stats = async () => {
    const [row] = rowsOf<{ delivered: number; history: number; most: number | null }>(
      await db.execute(sql`
        SELECT (SELECT count(*)::int FROM messages WHERE team_id = ${team.id} AND status = 'DELIVERED') AS delivered,
               count(*)::int AS history, max(n)::int AS most
        FROM (SELECT h.message_id, count(*) AS n FROM message_status_history h JOIN messages m ON m.id = h.message_id
              WHERE m.team_id = ${team.id} AND h.status = 'DELIVERED' AND h.applied = 1 GROUP BY h.message_id) per_message`),
    );
    return { ...row, ...webhookAdmission() };
  };
  const server = http.createServer((req, res) => {
    if (req.url !== "/stats") {
      res.statusCode = 404;
      return res.end();
    }
    stats().then(
      (s) => res.setHeader("content-type", "application/json").end(JSON.stringify(s)),
      (err) => {
        res.statusCode = 500;
        res.end(String(err));
      },
    );
  });
  limitHttpConnections(() => config.httpLimits);
  installWebhookFastLane(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  process.stdout.write(
    `READY ${JSON.stringify({ port, phoneNumberId: number.phoneNumberId, appSecret: number.secrets.appSecret, wamidPrefix })}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
