import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { contacts, messages } from "@/db/schema";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";
import { templateNotFound } from "@/lib/templates/service";
import { DESTINATION_INVALID } from "@/lib/messages/send-schemas";
import { missingBodyKey, unknownBodyKey } from "@/lib/messages/send-params";
import { mediaNotAllowed } from "@/lib/messages/send-media";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createCampaign, createContact, createNumber, createTeam, createTemplate } from "../helpers/factories";
import { countMessages, idempotencyRow, messageByUpdateId, sendingTeam } from "../helpers/send-factories";

const BULK = "/api/v1/message_templates/send_bulk";
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Setup = Awaited<ReturnType<typeof sendingTeam>>;
const recipient = (destination: string, order = "A-1") => ({
  destination,
  header_param: { key: "1", value: "Ana" },
  body_params: [
    { key: "1", value: order },
    { key: "2", value: "martes" },
  ],
});
const bulkBody = (s: Setup, recipients: unknown[], extra: Record<string, unknown> = {}) => ({
  wa_number: s.number.number,
  template_name: s.template.name,
  recipients,
  ...extra,
});
const numberAt = (i: number) => `5731${String(i).padStart(8, "0")}`;

describe("POST /api/v1/message_templates/send_bulk", () => {
  it("queues the valid recipients and reports each invalid one with its own errors", async () => {
    const s = await sendingTeam();
    const known = await createContact(s.team.id);
    const res = await apiClient(server.url, s.team.token).post(
      BULK,
      bulkBody(
        s,
        [
          recipient("+57 300 111 2222", "A-1"),
          { ...recipient("abc"), destination: "abc" },
          { destination: "573001112223", header_param: { key: "1", value: "Ana" }, body_params: [{ key: "1", value: "x" }] },
          {
            ...recipient("573001112224"),
            body_params: [
              { key: "1", value: "x" },
              { key: "2", value: "y" },
              { key: "9", value: "z" },
            ],
          },
          recipient(known.customerNumber!, "A-2"),
          "not an object",
          recipient("573001112222", "A-3"),
        ],
        { sent_group: "masivo" },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("3 mensajes en cola para su envío, 4 rechazados.");
    expect(res.body.data.accepted).toBe(3);
    expect(res.body.data.rejected).toBe(4);
    const r = res.body.data.results;
    expect(r.map((x: { index: number }) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(r[0]).toEqual({ index: 0, destination: "573001112222", update_id: expect.any(String) });
    expect(r[1]).toEqual({ index: 1, destination: "abc", errors: { destination: [DESTINATION_INVALID] } });
    expect(r[2]).toEqual({ index: 2, destination: "573001112223", errors: { body_params: [missingBodyKey("2")] } });
    expect(r[3]).toEqual({ index: 3, destination: "573001112224", errors: { "body_params.2.key": [unknownBodyKey("9")] } });
    expect(r[5]).toMatchObject({ index: 5, destination: "", errors: { body: [expect.any(String)] } });

    const first = await messageByUpdateId(r[0].update_id);
    expect(first).toMatchObject({ teamId: s.team.id, status: "QUEUED", customerNumber: "573001112222", sentGroup: "masivo" });
    expect((first.payload as { components: { text?: string }[] }).components[1].text).toBe("Tu pedido A-1 llega el martes.");
    const again = await messageByUpdateId(r[6].update_id);
    expect(again.contactId).toBe(first.contactId);
    expect((again.payload as { components: { text?: string }[] }).components[1].text).toBe("Tu pedido A-3 llega el martes.");
    const toKnown = await messageByUpdateId(r[4].update_id);
    expect(toKnown).toMatchObject({ contactId: known.id, customerId: known.customerId });
    expect(await countMessages(s.team.id)).toBe(3);
  });

  it("accepts 1,000 recipients in one call, every row QUEUED with its own payload", async () => {
    const s = await sendingTeam();
    const recipients = Array.from({ length: 1000 }, (_, i) => recipient(numberAt(i), `P-${i}`));
    const res = await apiClient(server.url, s.team.token).post(BULK, bulkBody(s, recipients));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 1000, rejected: 0 });
    const ids: string[] = res.body.data.results.map((x: { update_id: string }) => x.update_id);
    expect(new Set(ids).size).toBe(1000);

    const db = await getDb();
    const rows = await db
      .select({
        updateId: messages.updateId,
        status: messages.status,
        customerNumber: messages.customerNumber,
        payload: messages.payload,
        sendParams: messages.sendParams,
      })
      .from(messages)
      .where(eq(messages.teamId, s.team.id));
    expect(rows).toHaveLength(1000);
    const byId = new Map(rows.map((row) => [row.updateId, row]));
    ids.forEach((id, i) => {
      const row = byId.get(id)!;
      expect(row.status).toBe("QUEUED");
      expect(row.customerNumber).toBe(numberAt(i));
      const components = (row.payload as { components: { text?: string }[] }).components;
      expect(components[0].text).toBe("Hola Ana");
      expect(components[1].text).toBe(`Tu pedido P-${i} llega el martes.`);
      expect(row.sendParams).toEqual({ header_param: { key: "1", value: "Ana" }, body_params: recipients[i].body_params });
    });
    const created = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.teamId, s.team.id));
    expect(created).toHaveLength(1000);
  });

  it("refuses 0 or 1,001 recipients with 422 and writes nothing", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const tooMany = await api.post(
      BULK,
      bulkBody(
        s,
        Array.from({ length: 1001 }, (_, i) => recipient(numberAt(i))),
      ),
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual({
      message: "El campo recipients no puede tener más de 1000 destinatarios.",
      errors: { recipients: ["El campo recipients no puede tener más de 1000 destinatarios."] },
    });
    const none = await api.post(BULK, bulkBody(s, []));
    expect(none.status).toBe(422);
    expect(none.body.message).toBe("El campo recipients debe tener al menos 1 destinatario.");
    const missing = await api.post(BULK, { wa_number: s.number.number, template_name: s.template.name });
    expect(missing.body.errors).toEqual({ recipients: ["El campo recipients es obligatorio."] });
    expect(await countMessages(s.team.id)).toBe(0);
  });

  it("checks the shared fields once, with the single send's exact messages", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const one = [recipient("573001112222")];
    const cases: [Record<string, unknown>, string, string][] = [
      [{ wa_number: "19999999999" }, "wa_number", WA_NUMBER_NOT_REGISTERED],
      [{ template_name: "no_such" }, "template_name", templateNotFound("no_such")],
      [{ response_handler: "X" }, "response_handler", "El atributo response_handler debe ser CAMPAIGN o CHATBOT"],
      [{ response_handler: "CHATBOT" }, "bot_id", "El atributo bot_id es requerido cuando response_handler es CHATBOT"],
      [{ bot_id: 987654321 }, "bot_id", "El bot con el ID: 987654321 no existe!"],
      [{ campaign_id: 987654321 }, "campaign_id", "La campaña con el ID: 987654321 no existe!"],
      [{ media_path: `uploads/team${s.team.id}/x.pdf` }, "media_path", mediaNotAllowed(s.template.name)],
    ];
    for (const [extra, field, message] of cases) {
      const res = await api.post(BULK, bulkBody(s, one, extra));
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(res.body).toEqual({ message, errors: { [field]: [message] } });
    }
    expect(await countMessages(s.team.id)).toBe(0);
  });

  it("stores the reply routing of the shared fields on every message", async () => {
    const s = await sendingTeam();
    const bot = await createBot(s.team.id);
    const res = await apiClient(server.url, s.team.token).post(
      BULK,
      bulkBody(s, [recipient("573001112222"), recipient("573001112223")], { response_handler: "CHATBOT", bot_id: bot.id }),
    );
    expect(res.status).toBe(200);
    for (const r of res.body.data.results) {
      expect(await messageByUpdateId(r.update_id)).toMatchObject({ responseHandler: "CHATBOT", botId: bot.id });
    }
  });

  it("replays an Idempotency-Key: one set of messages, same answer", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const body = bulkBody(s, [recipient("573001112222"), recipient("573001112223")]);
    const headers = { "Idempotency-Key": "bulk-1" };
    const [a, b] = await Promise.all([api.post(BULK, body, headers), api.post(BULK, body, headers)]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const c = await api.post(BULK, body, headers);
    expect(c.headers.get("idempotent-replayed")).toBe("true");
    expect(c.body).toEqual(a.body);
    expect(await countMessages(s.team.id)).toBe(2);
    expect(await idempotencyRow(s.team.id, "bulk-1")).toBeDefined();
    const other = await api.post(BULK, bulkBody(s, [recipient("573001112224")]), headers);
    expect(other.status).toBe(422);
  });

  it("answers 401 without or with a wrong token, writing nothing", async () => {
    const s = await sendingTeam();
    for (const token of [undefined, "wam_wrong"]) {
      const res = await apiClient(server.url, token).post(BULK, bulkBody(s, [recipient("573001112222")]));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Unauthenticated." });
    }
    expect(await countMessages(s.team.id)).toBe(0);
  });

  it("never lets another team use this team's number, template, bot, campaign or media", async () => {
    const a = await sendingTeam();
    const bot = await createBot(a.team.id);
    const campaign = await createCampaign(a.team.id);
    const b = await createTeam();
    const bNumber = await createNumber(b.id);
    const bTemplate = await createTemplate(b.id);
    const api = apiClient(server.url, b.token);
    const one = [recipient("573001112222")];

    const number = await api.post(BULK, bulkBody(a, one));
    expect(number.body).toEqual({ message: WA_NUMBER_NOT_REGISTERED, errors: { wa_number: [WA_NUMBER_NOT_REGISTERED] } });
    const template = await api.post(BULK, bulkBody(a, one, { wa_number: bNumber.number }));
    expect(template.body.message).toBe(templateNotFound(a.template.name));
    const asB = (extra: Record<string, unknown>) => ({
      ...bulkBody(a, one),
      wa_number: bNumber.number,
      template_name: bTemplate.name,
      ...extra,
    });
    expect((await api.post(BULK, asB({ response_handler: "CHATBOT", bot_id: bot.id }))).body.message).toBe(
      `El bot con el ID: ${bot.id} no existe!`,
    );
    expect((await api.post(BULK, asB({ campaign_id: campaign.id }))).body.message).toBe(`La campaña con el ID: ${campaign.id} no existe!`);

    expect(await countMessages(a.team.id)).toBe(0);
    expect(await countMessages(b.id)).toBe(0);
    const db = await getDb();
    const leaked = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.teamId, a.team.id), inArray(contacts.customerNumber, ["573001112222"])));
    expect(leaked).toHaveLength(0);
  });
});
