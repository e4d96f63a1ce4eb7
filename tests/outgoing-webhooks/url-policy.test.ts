import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createTeam } from "../helpers/factories";
import { createSandboxNumber, deliveriesOfTeam, waitFor } from "../helpers/delivery-factories";
import { startReceiver } from "../fakes/receiver";
import { getDb } from "@/db/client";
import { bots, campaigns } from "@/db/schema";
import { runAdmin } from "@/lib/admin/run";
import { createWorker } from "@/lib/delivery/worker";
import { internalAddressKind } from "@/lib/outgoing-webhooks/address";
import { guardedLookup } from "@/lib/outgoing-webhooks/url-policy";

// Webhook URLs that reach inside. This file runs with the rule on, as production does.
let server: TestServer;
beforeAll(async () => {
  delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
});

const refusedAs = (kind: string, address: string) =>
  `El campo webhook_url no puede apuntar a una dirección ${kind} (${address}); solo se admiten direcciones públicas.`;

const INTERNAL: [string, string][] = [
  ["http://127.0.0.1:8080/hook", refusedAs("local (loopback)", "127.0.0.1")],
  ["http://localhost:3000/hook", refusedAs("local (loopback)", "localhost")],
  ["http://api.localhost/hook", refusedAs("local (loopback)", "api.localhost")],
  ["http://[::1]/hook", refusedAs("local (loopback)", "::1")],
  ["http://2130706433/hook", refusedAs("local (loopback)", "127.0.0.1")], // decimal
  ["http://0x7f000001/hook", refusedAs("local (loopback)", "127.0.0.1")], // hexadecimal
  ["http://0177.0.0.1/hook", refusedAs("local (loopback)", "127.0.0.1")], // octal
  ["http://127.1/hook", refusedAs("local (loopback)", "127.0.0.1")],
  ["http://[::ffff:127.0.0.1]/hook", refusedAs("local (loopback)", "::ffff:7f00:1")], // IPv4-mapped IPv6
  ["http://169.254.169.254/latest/meta-data/", refusedAs("de enlace local (link-local)", "169.254.169.254")],
  ["http://[fe80::1]/hook", refusedAs("de enlace local (link-local)", "fe80::1")],
  ["http://10.1.2.3/hook", refusedAs("privada", "10.1.2.3")],
  ["https://172.16.0.10/hook", refusedAs("privada", "172.16.0.10")],
  ["http://192.168.1.20:8080/hook", refusedAs("privada", "192.168.1.20")],
  ["http://100.64.0.1/hook", refusedAs("privada", "100.64.0.1")],
  ["http://[fd00::1]/hook", refusedAs("privada", "fd00::1")],
  ["http://0.0.0.0:3000/hook", refusedAs("reservada", "0.0.0.0")],
  ["http://[::]/hook", refusedAs("reservada", "::")],
  ["http://[64:ff9b::a00:1]/hook", refusedAs("privada", "64:ff9b::a00:1")], // 10.0.0.1 through NAT64
  ["https://user:secret@hooks.example.com/hook", "El campo webhook_url no puede incluir usuario ni contraseña."],
];

describe("admin CLI: webhook URLs are refused when set", () => {
  it.each(INTERNAL)("bot:add and campaign:add refuse %s with one clear line and store nothing", async (url, message) => {
    const team = await runAdmin(["team:create", "--name", "Equipo webhooks"]);
    const teamId = String(team.output.id);
    for (const args of [
      ["bot:add", "--team", teamId, "--name", "Bot", "--webhook-url", url],
      ["campaign:add", "--team", teamId, "--name", "Campaña", "--webhook-url", url],
    ]) {
      const res = await runAdmin(args);
      expect(res).toEqual({ code: 1, output: { error: message } });
      expect(message).not.toContain("\n");
    }
    const db = await getDb();
    expect(
      await db
        .select()
        .from(bots)
        .where(eq(bots.teamId, Number(teamId))),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(campaigns)
        .where(eq(campaigns.teamId, Number(teamId))),
    ).toEqual([]);
  });

  it("accepts public addresses and names (names are checked again after DNS, at delivery)", async () => {
    const team = await runAdmin(["team:create", "--name", "Equipo público"]);
    const teamId = String(team.output.id);
    for (const url of [
      "https://hooks.example.com/bot",
      "http://8.8.8.8/hook",
      "https://[2606:4700:4700::1111]/hook",
      "http://intranet.example.com:8080/x",
    ]) {
      const res = await runAdmin(["bot:add", "--team", teamId, "--name", "Bot", "--webhook-url", url]);
      expect(res.code, JSON.stringify(res.output)).toBe(0);
      expect(res.output.webhook_url).toBe(url);
    }
  });

  it("ALLOW_PRIVATE_WEBHOOK_URLS=1 lets internal addresses through, but never credentials", async () => {
    process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
    const team = await runAdmin(["team:create", "--name", "Equipo local"]);
    const teamId = String(team.output.id);
    const ok = await runAdmin(["campaign:add", "--team", teamId, "--name", "Local", "--webhook-url", "http://127.0.0.1:9/hook"]);
    expect(ok.output).toMatchObject({ webhook_url: "http://127.0.0.1:9/hook" });
    const creds = await runAdmin(["campaign:add", "--team", teamId, "--name", "Local", "--webhook-url", "http://u:p@127.0.0.1:9/hook"]);
    expect(creds).toEqual({ code: 1, output: { error: "El campo webhook_url no puede incluir usuario ni contraseña." } });
  });
});

describe("address classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:7f00:1::1", "loopback"], // 6to4 around 127.0.0.1
    ["169.254.169.254", "link-local"],
    ["fe80::abcd", "link-local"],
    ["10.0.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["fc00::1", "private"],
    ["0.0.0.0", "reserved"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.10", "reserved"],
    ["2001:db8::1", "reserved"],
    ["ff02::1", "reserved"],
    ["::", "reserved"],
    ["8.8.8.8", null],
    ["172.32.0.1", null],
    ["::ffff:8.8.8.8", null],
    ["2606:4700:4700::1111", null],
    ["64:ff9b::808:808", null], // 8.8.8.8 through NAT64
  ])("%s is %s", (ip, kind) => {
    expect(internalAddressKind(ip)).toBe(kind);
  });

  it("the connection lookup refuses a name that resolves to loopback, in both of Node's calling forms", async () => {
    const call = (all: boolean) =>
      new Promise<unknown>((resolve) => guardedLookup("localhost", { all }, (err, address) => resolve(err ?? address)));
    for (const all of [false, true]) {
      const err = (await call(all)) as Error;
      expect(err).toBeInstanceOf(Error);
      expect(err.message).toMatch(/^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    }
    process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
    expect(await call(false)).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

describe("delivery: internal addresses are refused after DNS, not called", () => {
  it("records the delivery as failed with the reason, for names resolving inside and for numeric forms", async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    try {
      const team = await createTeam();
      const number = await createSandboxNumber(team.id);
      // The URL was stored before the rule (or pointed at a name that later resolved inside): the
      // row is written directly, as the admin CLI would now refuse it.
      const bot = await createBot(team.id, { isDefault: true, webhookSecret: "s" });
      const api = apiClient(server.url, team.token);
      const urls = [
        `http://localhost:${port}/hook`,
        `http://[::ffff:127.0.0.1]:${port}/hook`,
        `http://2130706433:${port}/hook`,
        `http://0x7f.0.0.1:${port}/hook`,
        `http://[::1]:${port}/hook`,
        `http://u:p@example.com/hook`,
      ];
      const db = await getDb();
      for (const [i, url] of urls.entries()) {
        await db.update(bots).set({ webhookUrl: url }).where(eq(bots.id, bot.id));
        const res = await api.post("/api/v1/sandbox/inbound", {
          wa_number: number.number,
          from: "573005550001",
          type: "text",
          payload: { text: `hola ${i}` },
        });
        expect(res.status).toBe(200);
      }
      const w = createWorker({ pollMs: 50, teamIds: [team.id] });
      w.start();
      try {
        await waitFor(
          () => deliveriesOfTeam(team.id),
          (rows) => rows.length === urls.length && rows.every((r) => r.status !== "pending"),
        );
      } finally {
        await w.stop();
      }
      expect(receiver.received).toEqual([]);
      const list = await api.get(`/api/v1/webhook_deliveries?per_page=${urls.length}`);
      const byUrl = new Map<string, { status: string; attempts: number; last_status_code: number | null; last_error: string }>(
        list.body.data.map((d: { url: string }) => [d.url, d]),
      );
      const expected: [string, RegExp][] = [
        [
          urls[0],
          /^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(only public addresses are called; ALLOW_PRIVATE_WEBHOOK_URLS=1 allows internal ones\)$/,
        ],
        [urls[1], /^Refused: ::ffff:7f00:1, a loopback address/],
        [urls[2], /^Refused: 127\.0\.0\.1, a loopback address/],
        [urls[3], /^Refused: 127\.0\.0\.1, a loopback address/],
        [urls[4], /^Refused: ::1, a loopback address/],
        [urls[5], /^Refused: the webhook URL contains credentials$/],
      ];
      for (const [url, error] of expected) {
        const d = byUrl.get(url)!;
        expect(d, url).toMatchObject({ status: "failed", attempts: 1, last_status_code: null });
        expect(d.last_error, url).toMatch(error);
      }
    } finally {
      await receiver.close();
    }
  });

  it("with ALLOW_PRIVATE_WEBHOOK_URLS=1 the same local receiver is called through its name", async () => {
    process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
    const receiver = await startReceiver();
    try {
      const team = await createTeam();
      const number = await createSandboxNumber(team.id);
      await createBot(team.id, { isDefault: true, webhookSecret: "s", webhookUrl: receiver.url.replace("127.0.0.1", "localhost") });
      const api = apiClient(server.url, team.token);
      await api.post("/api/v1/sandbox/inbound", {
        wa_number: number.number,
        from: "573005550002",
        type: "text",
        payload: { text: "hola" },
      });
      const w = createWorker({ pollMs: 50, teamIds: [team.id] });
      w.start();
      try {
        await waitFor(
          () => receiver.received.length,
          (n) => n >= 1,
        );
      } finally {
        await w.stop();
      }
      const [delivery] = await deliveriesOfTeam(team.id);
      expect(delivery).toMatchObject({ status: "delivered", lastStatusCode: 200, attempts: 1 });
      expect(receiver.received[0].headers.host).toBe(`localhost:${new URL(receiver.url).port}`);
    } finally {
      await receiver.close();
    }
  });
});
