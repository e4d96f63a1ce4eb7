/**
 * One app process for the cross-process events test (two-processes.test.ts): the real events and
 * contact-label route modules served over node:http on DATABASE_URL. EVENTS_SETUP=1 first creates
 * a team with a contact, a label and one agent with three sessions, and prints them. Prints `READY {"port":…, "setup":…}` once it serves.
 */
import { runMigrations } from "@/db/migrate";
import * as events from "@/app/api/v1/events/route";
import * as contactLabels from "@/app/api/v1/contacts/[contactId]/labels/route";
import { getDb } from "@/db/client";
import { agentSessions } from "@/db/schema";
import { SESSION_COOKIE } from "@/lib/auth/authenticate";
import { hashToken } from "@/lib/auth/tokens";
import { randomSecret } from "@/lib/crypto/hash";
import { createAgent, createContact, createLabel, createTeam } from "../helpers/factories";
import { serveRoutes, type Handler } from "../helpers/route-table-server";

async function main() {
  await runMigrations();
  let setup: Record<string, unknown> | null = null;
  if (process.env.EVENTS_SETUP === "1") {
    const team = await createTeam();
    const contact = await createContact(team.id);
    const label = await createLabel(team.id);
    // One agent signed in three times (three sessions), for the stream cap across processes.
    const agent = await createAgent(team.id);
    const sessionCookies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const token = randomSecret(32);
      await (await getDb()).insert(agentSessions).values({
        agentId: agent.id,
        teamId: team.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 3600_000),
      });
      sessionCookies.push(`${SESSION_COOKIE}=${token}`);
    }
    setup = { token: team.token, contactId: contact.id, labelId: label.id, sessionCookies };
  }
  const port = await serveRoutes([
    { method: "GET", pattern: /^\/api\/v1\/events$/, handler: events.GET as Handler },
    { method: "POST", pattern: /^\/api\/v1\/contacts\/(\d+)\/labels$/, handler: contactLabels.POST as Handler, param: "contactId" },
  ]);
  process.stdout.write(`READY ${JSON.stringify({ port, setup })}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
