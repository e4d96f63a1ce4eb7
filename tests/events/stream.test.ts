import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";
import { apiClient } from "../helpers/client";
import { openSse, seenBeforeMarker, streamOpened, type SseStream } from "../helpers/sse";
import { createContact, createLabel, createNumber, createTeam } from "../helpers/factories";
import { openEventStream } from "@/lib/events/service";
import { insertEvents, pruneEventsBefore } from "@/lib/events/repo";
import { getDb, transaction } from "@/db/client";
import { createToken } from "@/lib/auth/tokens";
import { events } from "@/db/schema";

let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

async function stream(token: string, query = "", headers: Record<string, string> = {}) {
  const s = await openSse(`${server.url}/api/v1/events${query}`, { authorization: `Bearer ${token}`, ...headers });
  streams.push(s);
  return s;
}

async function world() {
  const team = await createTeam();
  const labels = [await createLabel(team.id), await createLabel(team.id), await createLabel(team.id)];
  const contact = await createContact(team.id);
  const other = await createContact(team.id);
  const api = apiClient(server.url, team.token);
  const addLabel = (contactId: number, labelId: number) => api.post(`/api/v1/contacts/${contactId}/labels`, { label_ids: [labelId] });
  return { team, labels, contact, other, api, addLabel };
}

/** The stream is open once its first comment arrived (it subscribes before writing it). */
async function opened(s: SseStream) {
  await streamOpened(s);
}

describe("GET /api/v1/events", () => {
  it("needs a token or a session", async () => {
    const res = await apiClient(server.url).get("/api/v1/events");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
  });

  it("streams a label change as contact.labels, with an id, to the team and to no other team", async () => {
    const w = await world();
    const stranger = await createTeam();
    const mine = await stream(w.team.token);
    const theirs = await stream(stranger.token);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    await opened(mine);
    await opened(theirs);

    const res = await w.addLabel(w.contact.id, w.labels[0].id);
    expect(res.status).toBe(200);
    const event = await mine.next((e) => e.event === "contact.labels");
    expect(Number(event.id)).toBeGreaterThan(0);
    expect(JSON.parse(event.data)).toEqual({ contact_id: w.contact.id, labels: res.body.data });

    // The stranger's stream saw comments only, never the other team's event: up to a marker of
    // its own team, written after that event, nothing else arrived.
    expect((await seenBeforeMarker(theirs, server.url, stranger)).filter((e) => e.event !== ":comment")).toEqual([]);
  });

  it("narrows to one contact or one number, and refuses a number that is not the team's", async () => {
    const w = await world();
    const onlyOther = await stream(w.team.token, `?contact_id=${w.other.id}`);
    await opened(onlyOther);
    await w.addLabel(w.contact.id, w.labels[0].id);
    await w.addLabel(w.other.id, w.labels[1].id);
    const event = await onlyOther.next();
    expect(JSON.parse(event.data).contact_id).toBe(w.other.id);
    expect(onlyOther.seen.filter((e) => e.event === "contact.labels")).toHaveLength(1);

    const stranger = await createTeam();
    const foreign = await createNumber(stranger.id);
    const res = await w.api.get(`/api/v1/events?wa_number=${foreign.number}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.wa_number).toEqual(["El número de WhatsApp no está registrado."]);
  });

  it("replays what a client missed after Last-Event-ID, once each, then goes on live", async () => {
    const w = await world();
    const first = await stream(w.team.token);
    await opened(first);
    await w.addLabel(w.contact.id, w.labels[0].id);
    const seenLast = await first.next();
    first.close();

    // Missed while disconnected: two changes, one of them another contact's.
    await w.addLabel(w.contact.id, w.labels[1].id);
    await w.addLabel(w.other.id, w.labels[2].id);

    const again = await stream(w.team.token, "", { "last-event-id": seenLast.id! });
    const missed = [await again.next(), await again.next()];
    expect(missed.map((e) => JSON.parse(e.data).contact_id)).toEqual([w.contact.id, w.other.id]);
    expect(Number(missed[0].id)).toBeGreaterThan(Number(seenLast.id));
    expect(Number(missed[1].id)).toBeGreaterThan(Number(missed[0].id));

    await w.api.put(`/api/v1/contacts/${w.other.id}/labels`, { label_ids: [w.labels[2].id] });
    const live = await again.next();
    expect(JSON.parse(live.data)).toEqual({ contact_id: w.other.id, labels: [] });
    const ids = again.seen.filter((e) => e.id).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);

    // A first connection passes the id in the query instead (EventSource cannot set headers).
    const viaQuery = await stream(w.team.token, `?last_event_id=${seenLast.id}`);
    expect((await viaQuery.next()).id).toBe(missed[0].id);
  });

  it("delivers a burst (batched per stream by the bus) whole, in id order, once, to every matching stream", async () => {
    const w = await world();
    const all = await stream(w.team.token);
    const one = await stream(w.team.token, `?contact_id=${w.other.id}`);
    await opened(all);
    await opened(one);
    // 60 events in three commits close together: the bus hands them out in a few batches.
    for (let commit = 0; commit < 3; commit++)
      await transaction((tx) =>
        insertEvents(
          tx,
          Array.from({ length: 20 }, (_, i) => ({
            teamId: w.team.id,
            type: "conversation.read",
            contactId: i % 2 ? w.other.id : w.contact.id,
            data: { id: commit * 20 + i, unread_count: 0 },
          })),
        ),
      );
    const burst = (s: SseStream) => s.seen.filter((e) => e.event === "conversation.read").map((e) => JSON.parse(e.data).id as number);
    await waitFor(
      () => burst(all).length + burst(one).length,
      (n) => n >= 90,
      10_000,
      20,
      "return",
    );
    expect(burst(all)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    expect(burst(one)).toEqual(Array.from({ length: 30 }, (_, k) => 2 * k + 1));
    const ids = all.seen.filter((e) => e.event === "conversation.read").map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("says reset when the log cannot fill the gap (an id it does not hold for this team)", async () => {
    const w = await world();
    const stranger = await createTeam();
    const s0 = await stream(stranger.token);
    await opened(s0);
    const strangerApi = apiClient(server.url, stranger.token);
    const label = await createLabel(stranger.id);
    const contact = await createContact(stranger.id);
    await strangerApi.post(`/api/v1/contacts/${contact.id}/labels`, { label_ids: [label.id] });
    const foreignId = (await s0.next()).id!;

    // Another team's event id is not ours to replay from: reset, and nothing of theirs leaks.
    const s = await stream(w.team.token, "", { "last-event-id": foreignId });
    const reset = await s.next();
    expect(reset.event).toBe("reset");
    await w.addLabel(w.contact.id, w.labels[0].id);
    expect((await s.next()).event).toBe("contact.labels");
    expect(s.seen.some((e) => e.data.includes(`"contact_id":${contact.id}`))).toBe(false);
  });

  it("prunes events past the retention in batches; a client last seen before them is told to reset", async () => {
    const w = await world();
    const db = await getDb();
    const threeDaysAgo = new Date(Date.now() - 72 * 3600_000);
    const [old] = await db
      .insert(events)
      .values({
        teamId: w.team.id,
        type: "contact.labels",
        contactId: w.contact.id,
        data: { contact_id: w.contact.id, labels: [] },
        createdAt: threeDaysAgo,
      })
      .returning({ id: events.id });
    await w.addLabel(w.contact.id, w.labels[0].id);

    let deletedUpTo = 0;
    for (let i = 0; i < 50; i++) {
      const max = await pruneEventsBefore(db, { before: new Date(Date.now() - 48 * 3600_000), batch: 100 });
      if (!max) break;
      deletedUpTo = Math.max(deletedUpTo, max);
    }
    expect(deletedUpTo).toBeGreaterThanOrEqual(old.id);

    const s = await stream(w.team.token, "", { "last-event-id": String(old.id) });
    expect((await s.next()).event).toBe("reset");
  });

  it("keeps the connection alive with a comment line at the heartbeat interval", async () => {
    const team = await createTeam();
    // A real token: the registry ends a stream whose credential it cannot find within
    // STREAM_CHECK_MS, which a loaded machine can reach before the first ping.
    const { id: tokenId } = await createToken({ input: { teamId: team.id, name: "heartbeat" } });
    const abort = new AbortController();
    const body = await openEventStream({
      ctx: { teamId: team.id, actor: { kind: "token", tokenId } },
      input: {},
      signal: abort.signal,
      heartbeatMs: 50,
    });
    const reader = body.getReader();
    let text = "";
    while (!text.includes(": ping")) {
      const { value, done } = await reader.read();
      // A stream that ended without a ping fails here instead of looping forever.
      expect(done, `the stream ended before a ping: ${JSON.stringify(text)}`).toBe(false);
      text += new TextDecoder().decode(value);
    }
    expect(text.startsWith("retry: 3000\n: connected\n\n")).toBe(true);
    abort.abort();
    expect((await reader.read()).done).toBe(true);
  });
});
