import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, messageById, sign } from "../helpers/delivery-factories";
import { change, envelope, statusUpdate } from "../fixtures/webhooks";
import { getDb } from "@/db/client";
import { FAST_LANE_PATH, installWebhookFastLane } from "@/lib/meta-webhooks/fast-lane";
import { webhookAdmission } from "@/lib/meta-webhooks/admission";
import { SERVICE_UNAVAILABLE } from "@/lib/http/respond";
import { waitFor } from "../helpers/wait";

/**
 * WEBHOOK_FAST_LANE (lib/meta-webhooks/fast-lane.ts): Meta's webhook posts answered before Next's
 * pipeline must be answered exactly as the route answers them. `route` serves the real route
 * handler (tests/helpers/server.ts, as Next would); `lane` is a plain Node server whose own
 * 'request' listener stands for Next's, with the fast lane put in front of it.
 */
let route: TestServer;
let lane: http.Server;
let laneUrl: string;
let behind: string[] = [];

beforeAll(async () => {
  route = await startServer();
  lane = http.createServer((req, res) => {
    behind.push(`${req.method} ${req.url}`);
    res.statusCode = 418;
    res.end("next");
  });
  installWebhookFastLane(lane);
  await new Promise<void>((resolve) => lane.listen(0, "127.0.0.1", resolve));
  laneUrl = `http://127.0.0.1:${(lane.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await route.close();
  await new Promise((resolve) => lane.close(resolve));
});
beforeEach(() => {
  behind = [];
  process.env.TRUST_PROXY = "1";
  process.env.AUTH_FAILURES_PER_ADDRESS = "100";
});

type Answer = { status: number; body: unknown; headers: Record<string, string | null> };

async function post(base: string, raw: string | Uint8Array, headers: Record<string, string>, path = FAST_LANE_PATH): Promise<Answer> {
  const res = await fetch(base + path, {
    method: "POST",
    headers,
    body: typeof raw === "string" ? raw : new Blob([raw as Uint8Array<ArrayBuffer>]),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  const pick = ["content-type", "cache-control", "x-content-type-options", "retry-after"];
  return { status: res.status, body, headers: Object.fromEntries(pick.map((h) => [h, res.headers.get(h)])) };
}

/** The same request to both servers; the route's answer, with Next's config header added, must be the lane's. */
async function both(raw: string | Uint8Array, headers: Record<string, string>) {
  const viaRoute = await post(route.url, raw, headers);
  const viaLane = await post(laneUrl, raw, headers);
  expect(behind).toEqual([]);
  return { viaRoute, viaLane };
}

async function sentMessage() {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const contact = await createContact(team.id);
  const template = await createTemplate(team.id);
  const make = async (wamid: string) => {
    const row = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
    const db = await getDb();
    await db.execute(
      sql`UPDATE messages SET status = 'SENDED', provider_message_id = ${wamid}, next_attempt_at = NULL WHERE id = ${row.id}`,
    );
    return row.id;
  };
  return { number, make };
}

describe("the webhook fast lane", () => {
  it("applies a signed status and answers exactly as the route does", async () => {
    const { number, make } = await sentMessage();
    const viaRouteId = await make(`wamid.route.${Date.now()}`);
    const viaLaneId = await make(`wamid.lane.${Date.now()}`);
    const bodyFor = async (id: number) => {
      const wamid = (await messageById(id)).providerMessageId!;
      return JSON.stringify(
        envelope(change(number.phoneNumberId, { statuses: [statusUpdate("delivered", { id: wamid, to: "573001112233" })] })),
      );
    };
    const rawRoute = await bodyFor(viaRouteId);
    const rawLane = await bodyFor(viaLaneId);
    const h = (raw: string) => ({ "content-type": "application/json", "x-hub-signature-256": sign(number.secrets.appSecret, raw) });
    const viaRoute = await post(route.url, rawRoute, h(rawRoute));
    const viaLane = await post(laneUrl, rawLane, h(rawLane));
    expect(behind).toEqual([]);
    expect(viaRoute.status).toBe(200);
    expect(viaRoute.body).toEqual({ message: "Webhook recibido.", data: { messages: 0, statuses: 1, updates: 0, ignored: 0 } });
    expect(viaLane).toEqual({ ...viaRoute, headers: { ...viaRoute.headers, "x-content-type-options": "nosniff" } });
    expect((await messageById(viaRouteId)).status).toBe("DELIVERED");
    expect((await messageById(viaLaneId)).status).toBe("DELIVERED");
  });

  it("refuses what the route refuses, with the same answers: unsigned, mis-signed, too large; a signed non-JSON body is kept", async () => {
    const { number } = await sentMessage();
    const raw = JSON.stringify(envelope(change(number.phoneNumberId, {})));
    const cases: { raw: string | Uint8Array; headers: Record<string, string>; status: number }[] = [
      { raw, headers: { "content-type": "application/json", "x-forwarded-for": "10.9.0.1" }, status: 401 },
      {
        raw,
        headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00", "x-forwarded-for": "10.9.0.2" },
        status: 401,
      },
      { raw: "{no", headers: { "x-hub-signature-256": sign(number.secrets.appSecret, "{no") }, status: 200 },
      { raw: new Uint8Array(1024 * 1024 + 1).fill(32), headers: { "content-type": "application/json" }, status: 413 },
    ];
    for (const c of cases) {
      const { viaRoute, viaLane } = await both(c.raw, c.headers);
      expect(viaRoute.status).toBe(c.status);
      expect(viaLane).toEqual({ ...viaRoute, headers: { ...viaRoute.headers, "x-content-type-options": "nosniff" } });
    }
  });

  it("spends the caller address's failure budget as the route does (429 once spent)", async () => {
    process.env.AUTH_FAILURES_PER_ADDRESS = "3";
    const { number } = await sentMessage();
    const raw = JSON.stringify(envelope(change(number.phoneNumberId, {})));
    const from = { "content-type": "application/json", "x-hub-signature-256": "sha256=00", "x-forwarded-for": "10.9.1.7" };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(laneUrl, raw, from)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Signed posts from another address still pass.
    const signed = {
      "content-type": "application/json",
      "x-hub-signature-256": sign(number.secrets.appSecret, raw),
      "x-forwarded-for": "10.9.1.8",
    };
    expect((await post(laneUrl, raw, signed)).status).toBe(200);
  });

  it("leaves every other request to the server's own listener", async () => {
    const res = await Promise.all([
      fetch(`${laneUrl}${FAST_LANE_PATH}?hub.mode=subscribe`),
      fetch(`${laneUrl}/api/v1/webhooks/whatsapp/`, { method: "POST", body: "{}" }),
      fetch(`${laneUrl}/api/v1/wa_numbers`, { method: "POST", body: "{}" }),
    ]);
    expect(res.map((r) => r.status)).toEqual([418, 418, 418]);
    expect(behind.sort()).toEqual(
      [`GET ${FAST_LANE_PATH}?hub.mode=subscribe`, "POST /api/v1/webhooks/whatsapp/", "POST /api/v1/wa_numbers"].sort(),
    );
    // A query string does not keep a post out of the lane.
    const { number } = await sentMessage();
    const raw = JSON.stringify(envelope(change(number.phoneNumberId, {})));
    const signed = { "content-type": "application/json", "x-hub-signature-256": sign(number.secrets.appSecret, raw) };
    expect((await post(laneUrl, raw, signed, `${FAST_LANE_PATH}?via=meta`)).status).toBe(200);
    expect(behind).toHaveLength(3);
  });

  it("sheds posts past WEBHOOK_MAX_IN_FLIGHT with 503 and Retry-After at once, and gives a place back when its client hangs up", async () => {
    process.env.WEBHOOK_MAX_IN_FLIGHT = "3";
    try {
      const { number } = await sentMessage();
      const raw = JSON.stringify(envelope(change(number.phoneNumberId, {})));
      const signed = { "content-type": "application/json", "x-hub-signature-256": sign(number.secrets.appSecret, raw) };
      const shedBefore = webhookAdmission().shed;
      // Three posts whose bodies never finish hold the three places.
      const { port } = new URL(laneUrl);
      const holders = Array.from({ length: 3 }, () => {
        const socket = net.connect(Number(port), "127.0.0.1");
        socket.on("error", () => {});
        socket.write(`POST ${FAST_LANE_PATH} HTTP/1.1\r\nhost: x\r\ncontent-length: ${raw.length}\r\n\r\n${raw.slice(0, 10)}`);
        return socket;
      });
      await waitFor(
        () => webhookAdmission().inFlight,
        (n) => n === 3,
      );
      const began = Date.now();
      const shed = await post(laneUrl, raw, signed);
      expect(Date.now() - began).toBeLessThan(1000);
      expect(shed).toMatchObject({ status: 503, body: { message: SERVICE_UNAVAILABLE }, headers: { "retry-after": "5" } });
      expect(webhookAdmission().shed).toBe(shedBefore + 1);
      // Their clients hang up: the places come back, no work done for them, and Meta's post lands.
      for (const socket of holders) socket.destroy();
      await waitFor(
        () => webhookAdmission().inFlight,
        (n) => n === 0,
      );
      expect((await post(laneUrl, raw, signed)).status).toBe(200);
    } finally {
      delete process.env.WEBHOOK_MAX_IN_FLIGHT;
    }
  });
});
