import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createContact, createTeam, createTemplate, mediaTemplateComponents } from "../helpers/factories";
import {
  createCloudNumber,
  createMediaFile,
  createQueuedMessage,
  deliveriesOfTeam,
  eventsOfMessage,
  messageById,
  postWebhook,
  waitFor,
} from "../helpers/delivery-factories";
import { startFakeGraph, graphError, type FakeGraph } from "../fakes/graph";
import { startReceiver } from "../fakes/receiver";
import { change, envelope, statusUpdate } from "../fixtures/webhooks";
import { workerPool } from "../helpers/workers";

let server: TestServer;
let graph: FakeGraph;
const workers = workerPool({ pollMs: 100, leaseMs: 2000, backoffBaseMs: 20, backoffCapMs: 80 });

beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  process.env.GRAPH_API_VERSION = "v21.0";
  process.env.GRAPH_TIMEOUT_MS = "2000";
  // Bot and campaign events go to tests/fakes/receiver.ts on 127.0.0.1.
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  server = await startServer();
});
afterAll(async () => {
  await workers.stopAll();
  await server.close();
  await graph.close();
});

const worker = (teamId: number) => workers.start({ teamIds: [teamId] });

async function setup(opts: { bot?: boolean } = {}) {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const contact = await createContact(team.id);
  const template = await createTemplate(team.id);
  const bot = opts.bot ? await createBot(team.id, { isDefault: true, webhookUrl: "http://127.0.0.1:9/unused", webhookSecret: "s" }) : null;
  return { team, number, contact, template, bot };
}

describe("cloud_api delivery", () => {
  it("sends the documented template body and walks to READED through signed status webhooks", async () => {
    const { team, number, contact, template } = await setup();
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      headerParam: { key: "1", value: "Ana" },
      bodyParams: [
        { key: "2", value: "lunes" },
        { key: "1", value: "A-77" },
      ],
    });
    const w = worker(team.id);
    const sent = await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "SENDED",
    );
    await w.stop();

    const reqs = graph.sends(number.phoneNumberId);
    expect(reqs).toHaveLength(1);
    expect(reqs[0].path).toBe(`/v21.0/${number.phoneNumberId}/messages`);
    expect(reqs[0].headers.authorization).toBe(`Bearer ${number.secrets.accessToken}`);
    expect(reqs[0].body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: contact.customerNumber,
      type: "template",
      template: {
        name: template.name,
        language: { code: "es_CO" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "Ana" }] },
          {
            type: "body",
            parameters: [
              { type: "text", text: "A-77" },
              { type: "text", text: "lunes" },
            ],
          },
          { type: "button", sub_type: "quick_reply", index: "0", parameters: [{ type: "payload", payload: "THANKS" }] },
        ],
      },
      // Echoed by every status webhook of the send (see "a send whose answer was lost").
      biz_opaque_callback_data: msg.updateId,
    });
    expect(sent.providerMessageId).toMatch(/^wamid\.FAKE/);
    expect(sent.attempts).toBe(1);

    const wamid = sent.providerMessageId!;
    for (const s of ["sent", "delivered", "read"] as const) {
      const res = await postWebhook(
        server.url,
        envelope(change(number.phoneNumberId, { statuses: [statusUpdate(s, { id: wamid, to: contact.customerNumber! })] })),
        number.secrets.appSecret,
      );
      expect(res.status).toBe(200);
    }
    expect((await messageById(msg.id)).status).toBe("READED");
    // A late "delivered" is recorded but never moves the message backwards.
    await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { statuses: [statusUpdate("delivered", { id: wamid, to: contact.customerNumber! })] })),
      number.secrets.appSecret,
    );
    expect((await messageById(msg.id)).status).toBe("READED");
    const events = await eventsOfMessage(msg.id);
    expect(events.map((e) => [e.status, e.applied])).toEqual([
      ["SENDED", 1],
      ["SENT", 1],
      ["DELIVERED", 1],
      ["READED", 1],
      ["DELIVERED", 0],
    ]);

    const update = await apiClient(server.url, team.token).get(`/api/v1/updates/${msg.updateId}`);
    expect(update.status).toBe(200);
    expect(update.body.data).toMatchObject({ update_id: msg.updateId, status: "READED", provider_message_id: wamid, attempts: 1 });
    expect(update.body.data.events.map((e: any) => e.status)).toEqual(["SENDED", "SENT", "DELIVERED", "READED", "DELIVERED"]);
  });

  it("retries 429, 5xx and rate-limit codes with backoff, then succeeds", async () => {
    const { team, number, contact, template } = await setup();
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      headerParam: { key: "1", value: "x" },
      bodyParams: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
      ],
    });
    graph.script(
      { status: 429, body: graphError(429, 130429, "Rate limit hit").body },
      { status: 503, body: { error: { message: "Service unavailable", code: 2 } } },
      graphError(400, 131056, "(Business Account, Consumer Account) pair rate limit hit"),
    );
    const before = graph.sends(number.phoneNumberId).length;
    const w = worker(team.id);
    const done = await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "SENDED",
    );
    await w.stop();
    expect(graph.sends(number.phoneNumberId).length - before).toBe(4);
    expect(done.attempts).toBe(4);
    expect(done.error).toBeNull();
  });

  it("counts a provider that does not answer within GRAPH_TIMEOUT_MS as a retryable timeout", async () => {
    const { team, number, contact, template } = await setup();
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      headerParam: { key: "1", value: "x" },
      bodyParams: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
      ],
    });
    // The first answer would come 3 s after this file's 2 s timeout (a margin a loaded machine
    // cannot eat: with 0.5 s, a late event loop could take the answer before the timer fired).
    graph.script({ status: 200, delayMs: 5000 });
    // A timed-out send may have reached Meta: it waits the uncertain grace (short here) for its status.
    const w = workers.start({ backoffBaseMs: 1500, backoffCapMs: 1500, uncertainGraceMs: 1500, teamIds: [team.id] });
    const waiting = await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "QUEUED" && m.error !== null,
    );
    expect(waiting.error).toEqual({ code: null, title: "Timeout" });
    // Timeout, grace and a second send in a row: a loaded machine needs more than the default wait.
    const done = await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "SENDED",
      25_000,
    );
    await w.stop();
    expect(done.attempts).toBe(2);
    expect(done.error).toBeNull();
  });

  it("fails at once on a permanent error, keeping the provider's code and title", async () => {
    const { team, number, contact, template } = await setup();
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      headerParam: { key: "1", value: "x" },
      bodyParams: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
      ],
    });
    graph.script(graphError(400, 131047, "Re-engagement message", "More than 24 hours have passed since the recipient last replied"));
    const w = worker(team.id);
    const failed = await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "FAILED",
    );
    // A whole poll after the failure claims nothing more, and the stop lets any send in flight end.
    await w.nextPoll();
    await w.stop();
    expect(graph.sends(number.phoneNumberId)).toHaveLength(1);
    expect(failed.error).toEqual({
      code: 131047,
      title: "Re-engagement message",
      details: "More than 24 hours have passed since the recipient last replied",
    });
    const update = await apiClient(server.url, team.token).get(`/api/v1/updates/${msg.updateId}`);
    expect(update.body.data.error).toMatchObject({ code: 131047, title: "Re-engagement message" });
  });

  it("gives up after the last attempt of a retryable error", async () => {
    const { team, number, contact, template } = await setup();
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      headerParam: { key: "1", value: "x" },
      bodyParams: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
      ],
    });
    graph.script(...Array.from({ length: 3 }, () => ({ status: 500, body: { error: { message: "Internal", code: 1 } } })));
    const w = workers.start({ backoffBaseMs: 10, backoffCapMs: 20, maxAttempts: 3, teamIds: [team.id] });
    const failed = await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "FAILED",
    );
    await w.stop();
    expect(failed.attempts).toBe(3);
    expect(failed.error).toMatchObject({ code: 1, title: "Internal" });
  });

  it("uploads a media header through /media and sends it by id", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const contact = await createContact(team.id);
    const template = await createTemplate(team.id, { components: mediaTemplateComponents("IMAGE") });
    const file = await createMediaFile(team.id);
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      mediaPath: file.path,
      bodyParams: [{ key: "1", value: "Ana" }],
    });
    const w = worker(team.id);
    await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "SENDED",
    );
    await w.stop();
    const upload = graph.requests.find((r) => r.path === `/v21.0/${number.phoneNumberId}/media`)!;
    expect(upload.headers["content-type"]).toMatch(/^multipart\/form-data/);
    expect(upload.raw.toString("latin1")).toContain('name="messaging_product"');
    expect(upload.raw.toString("latin1")).toContain(file.content.toString("latin1"));
    const [send] = graph.sends(number.phoneNumberId);
    expect(send.body.template.components[0]).toEqual({
      type: "header",
      parameters: [{ type: "image", image: { id: expect.stringMatching(/^media/) } }],
    });
  });

  it("queues a signed message.status event for the routed bot on every status change", async () => {
    const receiver = await startReceiver();
    try {
      const team = await createTeam();
      const number = await createCloudNumber(team.id);
      const contact = await createContact(team.id);
      const template = await createTemplate(team.id);
      const bot = await createBot(team.id, { webhookUrl: receiver.url, webhookSecret: "bot-secret" });
      const msg = await createQueuedMessage({
        teamId: team.id,
        waNumberId: number.id,
        contact,
        template,
        responseHandler: "CHATBOT",
        botId: bot.id,
        headerParam: { key: "1", value: "x" },
        bodyParams: [
          { key: "1", value: "a" },
          { key: "2", value: "b" },
        ],
      });
      receiver.failNext(500);
      const w = worker(team.id);
      await waitFor(
        () => receiver.received.filter((r) => r.body.event === "message.status").length,
        (n) => n >= 2,
      );
      await w.stop();
      const [first, second] = receiver.received;
      // The first attempt was answered 500 and retried with the same body and signature.
      expect(second.raw).toBe(first.raw);
      const { createHmac } = await import("node:crypto");
      expect(second.headers["x-signature-256"]).toBe(`sha256=${createHmac("sha256", "bot-secret").update(second.raw).digest("hex")}`);
      expect(second.body).toMatchObject({
        event: "message.status",
        data: { update_id: msg.updateId, status: "SENDED", previous_status: "QUEUED" },
      });
      const deliveries = await deliveriesOfTeam(team.id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200, targetKind: "bot", targetId: bot.id });
    } finally {
      await receiver.close();
    }
  });

  it("a send whose answer was lost (a timeout after Graph accepted it) takes its wamid from the signed status webhook and is not sent again", async () => {
    const { team, number, contact, template } = await setup();
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      headerParam: { key: "1", value: "x" },
      bodyParams: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
      ],
    });
    // Graph accepts the send only well after this file's 2 s timeout, then calls back like Meta.
    graph.statusWebhooks({ url: `${server.url}/api/v1/webhooks/whatsapp`, appSecret: () => number.secrets.appSecret });
    graph.script({ status: 200, delayMs: 5000 });
    const w = workers.start({ backoffCapMs: 20, uncertainGraceMs: 30_000, teamIds: [team.id] });
    try {
      const adopted = await waitFor(
        () => messageById(msg.id),
        (m) => m.status === "SENT",
        15_000,
        100,
      );
      expect(adopted.providerMessageId).toMatch(/^wamid\.FAKE/);
      // The timeout made the outcome uncertain: no retry within the grace, and none needed after
      // (a whole poll of the worker after the adoption claims nothing).
      await w.nextPoll();
      expect(graph.sends(number.phoneNumberId)).toHaveLength(1);
      expect(graph.sends(number.phoneNumberId)[0].body.biz_opaque_callback_data).toBe(msg.updateId);
      const events = await eventsOfMessage(msg.id);
      expect(events.map((e) => [e.status, e.applied])).toEqual([
        ["SENDED", 1],
        ["SENT", 1],
      ]);
      expect(events[0].raw).toEqual({ provider_message_id: adopted.providerMessageId, adopted: "status webhook" });
    } finally {
      await w.stop();
      graph.statusWebhooks(null);
    }
  });

  it("adopts a wamid only for the number's own queued send: another team's update_id, or a send already recorded, is left alone", async () => {
    const a = await setup();
    const b = await setup();
    const mine = await createQueuedMessage({ teamId: a.team.id, waNumberId: a.number.id, contact: a.contact, template: a.template });
    const theirs = await createQueuedMessage({ teamId: b.team.id, waNumberId: b.number.id, contact: b.contact, template: b.template });
    const status = (id: string, updateId: string) => ({
      ...statusUpdate("sent", { id, to: a.contact.customerNumber! }),
      biz_opaque_callback_data: updateId,
    });
    // Signed by A's app for A's number, but naming B's message: nothing moves.
    const foreign = await postWebhook(
      server.url,
      envelope(change(a.number.phoneNumberId, { statuses: [status("wamid.FOREIGN1", theirs.updateId)] })),
      a.number.secrets.appSecret,
    );
    expect(foreign.status).toBe(200);
    expect(foreign.body.data.statuses).toBe(0);
    expect((await messageById(theirs.id)).status).toBe("QUEUED");
    // A's own: adopted.
    const own = await postWebhook(
      server.url,
      envelope(change(a.number.phoneNumberId, { statuses: [status("wamid.OWN1", mine.updateId)] })),
      a.number.secrets.appSecret,
    );
    expect(own.body.data.statuses).toBe(1);
    expect(await messageById(mine.id)).toMatchObject({ status: "SENT", providerMessageId: "wamid.OWN1" });
    // A second wamid for the same send (it was sent twice) does not replace the first.
    const again = await postWebhook(
      server.url,
      envelope(change(a.number.phoneNumberId, { statuses: [status("wamid.OWN2", mine.updateId)] })),
      a.number.secrets.appSecret,
    );
    expect(again.body.data.statuses).toBe(0);
    expect((await messageById(mine.id)).providerMessageId).toBe("wamid.OWN1");
  });
});
