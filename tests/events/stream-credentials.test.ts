import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { endsWithin, openSse, seenBeforeMarker, type SseStream, streamOpened } from "../helpers/sse";
import { waitFor } from "../helpers/wait";
import { createTeam } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";
import { getDb } from "@/db/client";
import { agents, agentSessions, apiTokens } from "@/db/schema";
import { hashToken } from "@/lib/auth/tokens";
import { revokeTokenById } from "@/lib/auth/tokens";
import { SESSION_LIMIT_REASON } from "@/lib/auth/session-repo";
import { checkNow, MAX_STREAMS_PER_CREDENTIAL, STREAMS_RETRY_AFTER_S, TOO_MANY_STREAMS } from "@/lib/events/stream-registry";

/**
 * An event stream outlived its credentials (a revoked token's and a signed-out
 * session's streams still received events 40 s later) and one token could hold 1,000 streams.
 * Each stream now ends within 1 s of its credential, and a credential holds at most 20.
 */
let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

async function open(headers: Record<string, string>) {
  const s = await openSse(`${server.url}/api/v1/events`, headers);
  streams.push(s);
  expect(s.status).toBe(200);
  await streamOpened(s);
  return s;
}

async function tokenId(token: string) {
  const db = await getDb();
  const [row] = await db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hashToken(token)));
  return row.id;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("an event stream ends with its credential", () => {
  it("a token revoked by the admin command (this process): its streams end within 1 s, others stay", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const [a, b] = [await open(bearer(team.token)), await open(bearer(team.token))];
    const bystander = await open(bearer(other.token));
    await revokeTokenById({ input: { id: await tokenId(team.token) } });
    await endsWithin(a, 1000);
    await endsWithin(b, 1000);
    // A whole credential check after the revocation leaves the other team's stream open: it still
    // receives its team's next event.
    await checkNow();
    await seenBeforeMarker(bystander, server.url, other);
    const again = await fetch(`${server.url}/api/v1/events`, { headers: bearer(team.token) });
    expect(again.status).toBe(401);
  });

  it("a token revoked by SQL elsewhere (another replica; the wa_auth NOTIFY or the periodic check): within 1 s", async () => {
    const team = await createTeam();
    const s = await open(bearer(team.token));
    const db = await getDb();
    await db
      .update(apiTokens)
      .set({ revokedAt: sql`now()` })
      .where(eq(apiTokens.id, await tokenId(team.token)));
    await endsWithin(s, 1000);
  });

  it("a session signed out (POST /api/v1/auth/logout): within 1 s", async () => {
    const team = await createTeam();
    const { headers } = await agentSession(team.id);
    const s = await open(headers);
    const out = await fetch(`${server.url}/api/v1/auth/logout`, { method: "POST", headers });
    expect(out.status).toBeLessThan(300);
    await endsWithin(s, 1000);
  });

  it("a session that expires, or whose agent is removed: within 1 s", async () => {
    const team = await createTeam();
    const expiring = await agentSession(team.id);
    const removed = await agentSession(team.id);
    const s1 = await open(expiring.headers);
    const s2 = await open(removed.headers);
    const db = await getDb();
    await db
      .update(agentSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(agentSessions.agentId, expiring.agent.id));
    await endsWithin(s1, 1000);
    await db.delete(agents).where(eq(agents.id, removed.agent.id));
    await endsWithin(s2, 1000);
  });

  it("a session ended because its agent opened too many (the oldest is ended): within 1 s", async () => {
    const team = await createTeam();
    const { agent, headers } = await agentSession(team.id);
    const s = await open(headers);
    const db = await getDb();
    await db
      .update(agentSessions)
      .set({ endedAt: sql`now()`, endedReason: SESSION_LIMIT_REASON })
      .where(eq(agentSessions.agentId, agent.id));
    await endsWithin(s, 1000);
  });
});

describe("at most 20 streams per credential", () => {
  it("the 21st stream of a token is refused with 429 and Retry-After; one closed frees a slot; other credentials are not counted", async () => {
    const team = await createTeam();
    const mine: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_CREDENTIAL; i++) mine.push(await open(bearer(team.token)));
    const refused = await fetch(`${server.url}/api/v1/events`, { headers: bearer(team.token) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(STREAMS_RETRY_AFTER_S));
    expect(await refused.json()).toEqual({ message: TOO_MANY_STREAMS });

    // A session of the same team is another credential.
    const { headers } = await agentSession(team.id);
    await open(headers);

    mine[0].close();
    // The slot is free once the server has seen the close: a new stream is let in from then on.
    const reopened = await waitFor(
      async () => {
        const s = await openSse(`${server.url}/api/v1/events`, bearer(team.token));
        streams.push(s);
        if (s.status !== 200) s.close();
        return s.status;
      },
      (status) => status === 200,
      5_000,
      20,
      "return",
    );
    expect(reopened).toBe(200);
  });

  it("concurrent opens cannot pass the cap together", async () => {
    const team = await createTeam();
    const results = await Promise.all(
      Array.from({ length: MAX_STREAMS_PER_CREDENTIAL + 10 }, () => openSse(`${server.url}/api/v1/events`, bearer(team.token))),
    );
    streams.push(...results);
    expect(results.filter((r) => r.status === 200)).toHaveLength(MAX_STREAMS_PER_CREDENTIAL);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
  });
});
