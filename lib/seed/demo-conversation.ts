import type { messages } from "@/db/schema";
import { buildTemplatePayload } from "@/lib/messages/template-payload";
import type { Template } from "@/lib/templates/schemas";
import { DEMO_WAMID_PREFIX } from "./demo-ids";

type Insert = Omit<typeof messages.$inferInsert, "teamId" | "waNumberId" | "contactId">;
export type DemoFile = { url: string; contentType: string; sha256: string; filename: string };

export type ConversationInput = {
  now: Date;
  customer: { number: string; customerId: string; name: string };
  agent: { id: number; name: string };
  botId: number;
  campaignId: number;
  files: { png: DemoFile; pdf: DemoFile; mp4: DemoFile; webp: DemoFile; wav: DemoFile };
  templates: Record<string, Template>;
};

/**
 * The demo conversation with María: one message of every payload type of spec 2.5 (and of the
 * reaction, order and Flow reply WhatsApp also sends) and every status, from every kind of sender,
 * over the last three days. Payload field names are exactly the contract's (Meta's for the extra
 * types), so the dashboard renderers and API clients can be tried against real shapes.
 */
export function demoConversation(c: ConversationInput): Insert[] {
  const out: Insert[] = [];
  let seq = 0;
  const at = (minutesAgo: number) => new Date(c.now.getTime() - minutesAgo * 60_000);
  // The prefix keeps these rows out of the sandbox's restart takeover (lib/delivery/repo.ts claimStoppedWalks).
  const wamid = () => `${DEMO_WAMID_PREFIX}${String(++seq).padStart(4, "0")}`;
  const mediaId = () => String(1_000_000_000_000 + seq * 7919);

  const inbound = (minutesAgo: number, type: string, payload: Insert["payload"]) =>
    out.push({
      customerNumber: c.customer.number,
      customerId: c.customer.customerId,
      sender: "CUSTOMER",
      direction: "INBOUND",
      type,
      status: "RECEIVED",
      payload,
      createdAt: at(minutesAgo),
      providerMessageId: wamid(),
      routedTo: { kind: "campaign", id: c.campaignId, reason: "reply_to_campaign_send" },
      campaignId: c.campaignId,
    });
  const outbound = (
    minutesAgo: number,
    type: string,
    status: NonNullable<Insert["status"]>,
    from: "AGENT" | "BOT" | "SYSTEM",
    payload: Insert["payload"],
    extra: Partial<Insert> = {},
  ) =>
    out.push({
      // Agent messages typed in the dashboard carry no customer number (spec 2.4 allows null).
      customerNumber: from === "AGENT" ? null : c.customer.number,
      customerId: c.customer.customerId,
      sender: from,
      direction: "OUTBOUND",
      type,
      status,
      payload,
      createdAt: at(minutesAgo),
      statusUpdatedAt: at(Math.max(minutesAgo - 2, 0)),
      providerMessageId: status === "QUEUED" ? null : wamid(),
      agentId: from === "AGENT" ? c.agent.id : 0,
      agentName: from === "AGENT" ? c.agent.name : null,
      botId: from === "BOT" ? c.botId : null,
      attempts: status === "QUEUED" ? 0 : 1,
      // The QUEUED example is due in a year: a running worker would otherwise send it (the demo
      // number is the sandbox) and a fresh demo would no longer show a QUEUED message.
      nextAttemptAt: status === "QUEUED" ? at(-365 * 24 * 60) : null,
      ...extra,
    });
  const template = (
    name: string,
    body: Record<string, string>,
    header: Record<string, string>,
    mediaUrl: string | null,
    buttons: Record<number, string> = {},
  ) => buildTemplatePayload(c.templates[name], { body, header, mediaUrl, buttons }) as unknown as Record<string, unknown>;
  const templateSend = (name: string) => ({
    templateName: name,
    templateLanguage: c.templates[name].language,
    responseHandler: "CAMPAIGN" as const,
    campaignId: c.campaignId,
    sentGroup: "demo",
  });
  const media = (f: DemoFile, extra: Record<string, unknown> = {}) => ({
    url: f.url,
    contentType: f.contentType,
    id: mediaId(),
    ...extra,
  });
  const day = 24 * 60;

  // Day -3: the Christmas campaign and an ad click start the conversation.
  outbound(
    3 * day + 30,
    "template",
    "READED",
    "SYSTEM",
    template("promo_navidad", { "1": "María", "2": "20%" }, {}, c.files.png.url),
    templateSend("promo_navidad"),
  );
  inbound(3 * day + 25, "button", { text: "Me interesa", payload: "PROMO_SI" });
  inbound(3 * day + 20, "text", {
    text: "Hola, vi su anuncio de Navidad en Instagram",
    referral: {
      source_url: "https://www.instagram.com/p/DEMO123/",
      source_id: "120210000000000001",
      source_type: "ad",
      headline: "Navidad en Tienda Demo",
      body: "20% de descuento en toda la tienda",
      media_type: "image",
      image_url: c.files.png.url,
      video_url: "",
      thumbnail_url: c.files.png.url,
      ctwa_clid: "ARAkLkA8rmlFeiCktEJQ-QTwRiyYHAFDLMNDBH0CD3qpjd0HR4irJ6LEkR7JwFF4XvnO2E4Nx0-eM-GABDLOPaOdRMv-_zfUQ2a",
    },
  });
  outbound(3 * day + 19, "quick_reply", "READED", "BOT", {
    content: { type: "text", header: "Tienda Demo", text: "¡Hola María! ¿En qué te podemos ayudar?" },
    options: [
      { type: "text", title: "Ver catálogo", id: "opt_catalogo" },
      { type: "text", title: "Estado de pedido", id: "opt_pedido" },
      { type: "text", title: "Hablar con un agente", id: "opt_agente" },
    ],
  });
  inbound(3 * day + 18, "button_reply", { id: "opt_catalogo", title: "Ver catálogo" });
  outbound(3 * day + 17, "list", "READED", "BOT", {
    title: "Catálogo de Navidad",
    body: "Elige una categoría para ver los productos.",
    button: "Ver categorías",
    items: [
      {
        title: "Ropa",
        rows: [
          { id: "cat_sacos", title: "Sacos", description: "Lana y algodón" },
          { id: "cat_vestidos", title: "Vestidos", description: "Colección de fiesta" },
        ],
      },
      { title: "Hogar", rows: [{ id: "cat_decoracion", title: "Decoración", description: "Luces y adornos" }] },
    ],
  });
  inbound(3 * day + 15, "list_reply", { id: "cat_sacos", title: "Sacos", description: "Lana y algodón" });

  // Day -2: an agent takes over; media both ways.
  outbound(2 * day + 120, "text", "READED", "AGENT", { text: `Hola María, soy ${c.agent.name}. Te ayudo con los sacos.` });
  inbound(2 * day + 110, "image", media(c.files.png, { caption: "¿Lo tienen en rojo?", sha256: c.files.png.sha256 }));
  outbound(
    2 * day + 100,
    "image",
    "DELIVERED",
    "AGENT",
    media(c.files.png, { caption: "Sí, este es el rojo.", sha256: c.files.png.sha256 }),
  );
  // WhatsApp types beyond the contract's list: a reaction (drawn on the message it reacts to).
  inbound(2 * day + 99, "reaction", { message_id: out[out.length - 1].providerMessageId, emoji: "😍" });
  inbound(2 * day + 95, "audio", media(c.files.wav));
  inbound(2 * day + 94, "sticker", media(c.files.webp, { sha256: c.files.webp.sha256, animated: false }));
  outbound(
    2 * day + 90,
    "document",
    "SENT",
    "AGENT",
    media(c.files.pdf, { caption: "Catálogo completo", sha256: c.files.pdf.sha256, filename: c.files.pdf.filename }),
  );
  inbound(
    2 * day + 80,
    "video",
    media(c.files.mp4, { caption: "Así me quedó el anterior", sha256: c.files.mp4.sha256, filename: c.files.mp4.filename }),
  );
  inbound(2 * day + 70, "location", {
    latitude: "4.6533326",
    longitude: "-74.083652",
    name: "Tienda Demo Chapinero",
    address: "Cra. 13 #54-20, Bogotá",
  });
  // A cart from the catalogue, as the Cloud API's `order` webhook carries it.
  inbound(2 * day + 65, "order", {
    catalog_id: "1234567890123456",
    text: "Los quiero para el viernes, por favor",
    product_items: [
      { product_retailer_id: "SACO-ROJO-M", quantity: "2", item_price: "89900", currency: "COP" },
      { product_retailer_id: "BUFANDA-GRIS", quantity: "1", item_price: "35000", currency: "COP" },
    ],
  });
  inbound(2 * day + 60, "contacts", [
    {
      addresses: [
        {
          city: "Bogotá",
          country: "Colombia",
          country_code: "CO",
          state: "Cundinamarca",
          street: "Calle 100 #15-20",
          type: "HOME",
          zip: "110111",
        },
      ],
      birthday: "1990-05-14",
      emails: [{ email: "pedro.lopez@example.com", type: "WORK" }],
      name: { formatted_name: "Pedro López", first_name: "Pedro", last_name: "López", middle_name: "", suffix: "", prefix: "" },
      org: { company: "Ferretería López", department: "Compras", title: "Jefe de compras" },
      phones: [{ phone: "+57 310 555 1234", wa_id: "573105551234", type: "CELL" }],
      urls: [{ url: "https://ferreteria-lopez.example.com", type: "WORK" }],
    },
  ]);

  // Day -1: the unusual ones.
  inbound(day + 300, "unknown", {
    code: 131051,
    title: "Message type unknown",
    message: "Message type unknown",
    error_data: { details: "Message type is currently not supported." },
  });
  inbound(day + 290, "unsupported", {
    code: 131051,
    title: "Unsupported message type",
    details: "Message type is not currently supported",
  });
  outbound(day + 200, "call_permission_request", "READED", "AGENT", { text: "¿Podemos llamarte para confirmar la talla?" });
  inbound(day + 190, "call_permission_reply", {
    response: "accept",
    is_permanent: false,
    expiration_timestamp: String(Math.floor(at(day + 190).getTime() / 1000) + 7 * 86_400),
    response_source: "user_action",
  });
  // A WhatsApp Flow's answers (interactive nfm_reply): response_json is a JSON string.
  inbound(day + 150, "nfm_reply", {
    name: "flow",
    body: "Sent",
    response_json: JSON.stringify({
      flow_token: "demo-flow-token",
      screen_0_Talla_0: "1_Mediana",
      screen_0_Color_favorito_1: "0_Rojo",
      screen_0_Comentarios_2: "Que sea de lana, por favor",
    }),
  });
  outbound(day + 120, "text", "READED", "AGENT", {
    text: "Tu código de descuento es ```NAVIDAD20``` (válido hasta el *24 de diciembre*).",
  });
  inbound(day + 100, "system", {
    body: "María López cambió su número de teléfono.",
    new_wa_id: "573009870011",
    type: "user_changed_number",
  });
  outbound(
    day + 60,
    "template",
    "DELIVERED",
    "SYSTEM",
    template("factura_mensual", { "1": "María", "2": "noviembre" }, {}, c.files.pdf.url),
    templateSend("factura_mensual"),
  );
  outbound(day + 30, "template", "FAILED", "SYSTEM", template("video_bienvenida", { "1": "María" }, {}, c.files.mp4.url), {
    ...templateSend("video_bienvenida"),
    attempts: 3,
    error: { code: 131053, title: "Media upload error", details: "Unable to download the media from the URL." },
  });

  // Today: the latest messages are still on their way.
  outbound(
    40,
    "template",
    "SENT",
    "SYSTEM",
    template("confirmacion_pedido", { "1": "A-1024", "2": "lunes" }, { "1": "María" }, null, { 1: "A-1024" }),
    templateSend("confirmacion_pedido"),
  );
  inbound(35, "text", { text: "¡Perfecto, gracias!" });
  outbound(3, "text", "SENDED", "AGENT", { text: "Con gusto, María. ¡Feliz Navidad!" });
  outbound(
    1,
    "template",
    "QUEUED",
    "SYSTEM",
    template("recordatorio_cita", { "1": "viernes", "2": "10:00" }, {}, null),
    templateSend("recordatorio_cita"),
  );
  return out;
}
