import { describe, expect, it } from "vitest";
import { buildRows, type Row } from "@/components/history/rows";
import { formatMoney } from "@/components/messages/format";
import { emojiOf, flowAnswers, flowLabel, flowValue, templateMediaName } from "@/components/messages/payload-helpers";
import type { HistoryPage, Message } from "@/lib/api-client/types";
import type { TemplateComponent } from "@/lib/templates/schemas";
import { parseEnvelope } from "@/lib/channels/cloud-api/webhook";

/** Pure logic behind the message renderers; the browser side is e2e/renderers.spec.ts. */

let nextId = 1;
function msg(over: Partial<Message>): Message {
  const id = over.id ?? nextId++;
  return {
    id,
    customer_number: "573000000000",
    customer_id: null,
    sender: "CUSTOMER",
    direction: "INBOUND",
    type: "text",
    status: "RECEIVED",
    created_at: "2026-11-20 10:00:00",
    timestamp: 1_700_000_000 + id,
    payload: { text: `m${id}` },
    agent_id: 0,
    agent_name: null,
    ...over,
  };
}
const page = (data: Message[]): HistoryPage => ({ message: "ok", data: [...data].reverse(), pagination: null });
const msgRows = (rows: Row[]) => rows.filter((r): r is Extract<Row, { kind: "msg" }> => r.kind === "msg");

describe("reactions in the conversation", () => {
  it("a reaction is drawn on the message it reacts to, not as a bubble of its own", () => {
    const target = msg({ id: 10, direction: "OUTBOUND", sender: "AGENT", provider_message_id: "wamid.A" });
    const reaction = msg({ id: 11, type: "reaction", payload: { message_id: "wamid.A", emoji: "👍" }, provider_message_id: "wamid.R" });
    const rows = msgRows(buildRows([page([target, reaction])], false));
    expect(rows.map((r) => r.m.id)).toEqual([10]);
    expect(rows[0].reactions).toEqual([{ emoji: "👍", direction: "INBOUND" }]);
  });

  it("a later reaction replaces the earlier one from the same side, and an empty emoji takes it back", () => {
    const target = msg({ id: 20, provider_message_id: "wamid.B" });
    const rows = (extra: Message[]) => msgRows(buildRows([page([target, ...extra])], false));
    const first = msg({ id: 21, type: "reaction", payload: { message_id: "wamid.B", emoji: "👍" } });
    const second = msg({ id: 22, type: "reaction", payload: { message_id: "wamid.B", emoji: "❤️" } });
    const business = msg({
      id: 23,
      type: "reaction",
      direction: "OUTBOUND",
      sender: "AGENT",
      payload: { message_id: "wamid.B", emoji: "🙏" },
    });
    const removed = msg({ id: 24, type: "reaction", payload: { message_id: "wamid.B", emoji: "" } });
    expect(rows([first, second, business])[0].reactions).toEqual([
      { emoji: "❤️", direction: "INBOUND" },
      { emoji: "🙏", direction: "OUTBOUND" },
    ]);
    const afterRemoval = rows([first, second, removed]);
    expect(afterRemoval.map((r) => r.m.id)).toEqual([20]);
    expect(afterRemoval[0].reactions).toBeUndefined();
  });

  it("a reaction to a message that is not loaded stays as its own row; broken reactions are harmless", () => {
    const orphan = msg({ id: 30, type: "reaction", payload: { message_id: "wamid.GONE", emoji: "😂" } });
    const broken = msg({ id: 31, type: "reaction", payload: { message_id: 42, emoji: ["x"] } });
    const arrayPayload = msg({ id: 32, type: "reaction", payload: ["wamid.X"] });
    expect(msgRows(buildRows([page([orphan, broken, arrayPayload])], false)).map((r) => r.m.id)).toEqual([30, 31, 32]);
  });

  it("emojiOf keeps a reaction short whatever the payload holds", () => {
    expect(emojiOf("👍")).toBe("👍");
    expect(emojiOf("x".repeat(500))).toHaveLength(8);
    expect(emojiOf(null)).toBe("");
    expect(emojiOf({ a: 1 })).toBe("");
    expect(emojiOf(["👍"])).toBe("");
  });
});

describe("routing notes", () => {
  it("are shown once per routed reply, not under every customer bubble", () => {
    const routed = { kind: "campaign" as const, id: 5, reason: "latest_template:campaign" };
    const list = [
      msg({ id: 40, direction: "OUTBOUND", sender: "SYSTEM", type: "template", routed_to: null }),
      msg({ id: 41, routed_to: routed }),
      msg({ id: 42, routed_to: routed }),
      msg({ id: 43, routed_to: { kind: "bot", id: 1, reason: "none:default_bot" } }),
      msg({ id: 44, direction: "OUTBOUND", sender: "BOT", routed_to: null }),
      msg({ id: 45, routed_to: routed }),
    ];
    const rows = msgRows(buildRows([page(list)], false));
    expect(rows.map((r) => [r.m.id, r.showRouting])).toEqual([
      [40, undefined],
      [41, true],
      [42, false],
      [43, true],
      [44, undefined],
      [45, true],
    ]);
  });
});

// Dates and times: tests/ui/format-date.test.ts (lib/i18n/dates.ts, the one date formatter).
describe("amounts follow the UI's language", () => {
  it("money", () => {
    expect(formatMoney(45000, "COP", "es")).toMatch(/^45\.000\sCOP$/);
    expect(formatMoney(12.5, "usd", "en")).toBe("$12.50");
    expect(formatMoney(3, "not a code", "es")).toBe("3 not a co");
  });
});

describe("WhatsApp Flow answers (nfm_reply)", () => {
  it("reads as labelled answers, without the flow token", () => {
    const json = JSON.stringify({
      flow_token: "secret-token",
      screen_0_Nombre_completo_0: "Ana Ruiz",
      screen_0_Talla_1: "1_Mediana",
      screen_1_Colores_2: ["0_Rojo", "2_Azul_marino"],
      acepta_terminos: true,
    });
    expect(flowAnswers(json)).toEqual([
      ["Nombre completo", "Ana Ruiz"],
      ["Talla", "Mediana"],
      ["Colores", "Rojo, Azul marino"],
      ["Acepta terminos", "true"],
    ]);
  });

  it("copes with what it cannot parse", () => {
    expect(flowAnswers("not json")).toEqual([["", "not json"]]);
    expect(flowAnswers("[1,2]")).toEqual([]);
    expect(flowAnswers(null)).toEqual([]);
    expect(flowAnswers({ a: { b: 1 } })).toEqual([["A", "B: 1"]]);
    expect(flowLabel("screen_0__0")).toBe("Screen_0__0");
    expect(flowValue(12)).toBe("12");
  });
});

describe("template documents", () => {
  const doc = (handle: unknown): TemplateComponent[] =>
    [
      { type: "HEADER", format: "DOCUMENT", example: { header_handle: [handle] } },
      { type: "BODY", text: "x" },
    ] as TemplateComponent[];
  it("a stored upload named by a random id is named after the template", () => {
    expect(templateMediaName("factura_mensual", doc("/api/v1/media/uploads/team3/5f0c2a1e-8d3b-4c7a-9e2f-0a1b2c3d4e5f.pdf"))).toBe(
      "factura_mensual.pdf",
    );
  });
  it("a URL with a real file name keeps it; no document header, no name", () => {
    expect(templateMediaName("factura_mensual", doc("https://files.example.com/Factura-Noviembre.pdf"))).toBeNull();
    expect(templateMediaName("x", [{ type: "BODY", text: "x" }] as TemplateComponent[])).toBeNull();
    expect(templateMediaName("", doc("/u/0123456789abcdef0123456789abcdef"))).toBe("documento.pdf");
  });
});

describe("Cloud API webhook keeps reaction, order and Flow payloads", () => {
  const envelope = (message: Record<string, unknown>) => ({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550000000", phone_number_id: "PNID" },
              contacts: [{ wa_id: "573001112233", profile: { name: "Ana" } }],
              messages: [{ from: "573001112233", id: "wamid.IN1", timestamp: "1732000000", ...message }],
            },
          },
        ],
      },
    ],
  });
  const first = (message: Record<string, unknown>) => parseEnvelope(envelope(message)).changes[0].messages[0].msg;

  it("reaction", () => {
    expect(first({ type: "reaction", reaction: { message_id: "wamid.OUT9", emoji: "👍" } })).toMatchObject({
      type: "reaction",
      payload: { message_id: "wamid.OUT9", emoji: "👍" },
    });
    expect(first({ type: "reaction", reaction: { message_id: "wamid.OUT9" } })).toMatchObject({ type: "reaction", payload: { emoji: "" } });
  });

  it("order", () => {
    const msg = first({
      type: "order",
      order: {
        catalog_id: "CAT1",
        text: "Para el viernes",
        product_items: [{ product_retailer_id: "SACO-ROJO-M", quantity: 2, item_price: 45000, currency: "COP" }, "junk"],
      },
    });
    expect(msg).toMatchObject({
      type: "order",
      payload: {
        catalog_id: "CAT1",
        text: "Para el viernes",
        product_items: [
          { product_retailer_id: "SACO-ROJO-M", quantity: "2", item_price: "45000", currency: "COP" },
          { product_retailer_id: "", quantity: "", item_price: "", currency: "" },
        ],
      },
    });
  });

  it("interactive nfm_reply", () => {
    const response_json = JSON.stringify({ flow_token: "t", screen_0_Nombre_0: "Ana" });
    expect(
      first({ type: "interactive", interactive: { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json } } }),
    ).toMatchObject({
      type: "nfm_reply",
      payload: { name: "flow", body: "Sent", response_json },
    });
  });
});
