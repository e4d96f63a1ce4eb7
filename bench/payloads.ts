/**
 * One realistic record of every payload type of spec 2.5 (and both text forms), in the shape the
 * history returns. The data set assigns them round-robin by message id, so every page mixes them.
 */
export type Sample = {
  type: string;
  direction: "INBOUND" | "OUTBOUND";
  sender: "CUSTOMER" | "AGENT" | "BOT" | "SYSTEM";
  status: string;
  payload: unknown;
};

const media = (ext: string, contentType: string) => ({
  url: `https://cdn.example.com/media/7f3c2a9e-4b1d-4c8a-9d2e-${ext}.${ext}`,
  contentType,
  id: "1029384756102938",
  sha256: "b1946ac92492d2347c6235b4d2611184e4b1d6f4a3a1c2b3d4e5f60718293a4b",
});

const templatePayload = {
  id: "1234567890123456",
  name: "pedido_enviado",
  status: "APPROVED",
  category: "UTILITY",
  language: "es_CO",
  rejected_reason: "NONE",
  components: [
    { type: "HEADER", format: "TEXT", text: "Hola María" },
    { type: "BODY", text: "Tu pedido A-10293 llega el lunes 24 entre 8:00 y 12:00.", example: { body_text: [["A-10293", "lunes 24"]] } },
    { type: "FOOTER", text: "Tienda Demo · responde STOP para no recibir más" },
    {
      type: "BUTTONS",
      buttons: [
        { type: "QUICK_REPLY", text: "Gracias", payload: "THANKS" },
        { type: "URL", text: "Seguir pedido", url: "https://tienda.example.com/p/A-10293" },
      ],
    },
  ],
};

export const SAMPLES: Sample[] = [
  {
    type: "text",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { text: "Hola, ¿mi pedido ya salió? Lo necesito para el viernes." },
  },
  { type: "template", direction: "OUTBOUND", sender: "SYSTEM", status: "READED", payload: templatePayload },
  {
    type: "text",
    direction: "OUTBOUND",
    sender: "AGENT",
    status: "DELIVERED",
    payload: { text: "¡Claro! Sale hoy y llega el lunes. ¿Algo más en que le ayude?" },
  },
  {
    type: "text",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: {
      text: "Quiero más información sobre la promoción",
      referral: {
        source_url: "https://fb.me/3nXyZ12",
        source_id: "120208123456789",
        source_type: "ad",
        headline: "2x1 en zapatillas",
        body: "Solo este fin de semana",
        media_type: "image",
        image_url: "https://scontent.example.com/ad.jpg",
        video_url: null,
        thumbnail_url: "https://scontent.example.com/ad_thumb.jpg",
        ctwa_clid: "ARAkLkA8rmlFeiCktEJQ",
      },
    },
  },
  {
    type: "image",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { caption: "Así llegó la caja", ...media("jpg", "image/jpeg") },
  },
  {
    type: "audio",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { url: "https://cdn.example.com/media/a1.ogg", contentType: "audio/ogg; codecs=opus", id: "5566778899001122" },
  },
  {
    type: "video",
    direction: "OUTBOUND",
    sender: "AGENT",
    status: "READED",
    payload: { caption: "Cómo armar el producto", filename: "instrucciones.mp4", ...media("mp4", "video/mp4") },
  },
  {
    type: "document",
    direction: "OUTBOUND",
    sender: "AGENT",
    status: "SENT",
    payload: { caption: "Su factura", filename: "factura-A-10293.pdf", ...media("pdf", "application/pdf") },
  },
  {
    type: "sticker",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { animated: false, ...media("webp", "image/webp") },
  },
  {
    type: "list",
    direction: "OUTBOUND",
    sender: "BOT",
    status: "READED",
    payload: {
      title: "Menú principal",
      body: "¿En qué le podemos ayudar?",
      button: "Ver opciones",
      items: [
        {
          title: "Pedidos",
          rows: [
            { id: "track", title: "Seguir mi pedido", description: "Estado y fecha de entrega" },
            { id: "return", title: "Devoluciones", description: "Cambios y reembolsos" },
          ],
        },
        { title: "Cuenta", rows: [{ id: "agent", title: "Hablar con un agente", description: "Horario 8:00–18:00" }] },
      ],
    },
  },
  {
    type: "list_reply",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { id: "track", title: "Seguir mi pedido", description: "Estado y fecha de entrega" },
  },
  {
    type: "quick_reply",
    direction: "OUTBOUND",
    sender: "BOT",
    status: "DELIVERED",
    payload: {
      content: { type: "text", header: "Encuesta", text: "¿Cómo calificaría la atención?" },
      options: [
        { type: "text", title: "Excelente", id: "5" },
        { type: "text", title: "Regular", id: "3" },
        { type: "text", title: "Mala", id: "1" },
      ],
    },
  },
  { type: "button_reply", direction: "INBOUND", sender: "CUSTOMER", status: "RECEIVED", payload: { id: "5", title: "Excelente" } },
  { type: "button", direction: "INBOUND", sender: "CUSTOMER", status: "RECEIVED", payload: { text: "Gracias", payload: "THANKS" } },
  {
    type: "location",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { latitude: "4.6482837", longitude: "-74.2478938", name: "Oficina", address: "Cra. 7 #71-21, Bogotá" },
  },
  {
    type: "contacts",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: [
      {
        addresses: [
          { city: "Bogotá", country: "Colombia", country_code: "CO", state: "DC", street: "Calle 93 #11-26", type: "WORK", zip: "110221" },
        ],
        birthday: "1990-04-12",
        emails: [{ email: "ana.gomez@example.com", type: "WORK" }],
        name: { formatted_name: "Ana Gómez", first_name: "Ana", last_name: "Gómez", middle_name: "", suffix: "", prefix: "" },
        org: { company: "Ferretería Gómez", department: "Compras", title: "Jefa de compras" },
        phones: [{ phone: "+57 300 1234567", wa_id: "573001234567", type: "CELL" }],
        urls: [{ url: "https://ferreteria.example.com", type: "WORK" }],
      },
    ],
  },
  {
    type: "system",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { body: "El usuario cambió su número", new_wa_id: "573009998877", type: "user_changed_number" },
  },
  {
    type: "unknown",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: {
      code: 131051,
      title: "Message type unknown",
      message: "Message type unknown",
      error_data: { details: "Message type is currently not supported." },
    },
  },
  {
    type: "unsupported",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { code: 131051, title: "Unsupported message type", details: "Message type is not currently supported" },
  },
  {
    type: "call_permission_request",
    direction: "OUTBOUND",
    sender: "AGENT",
    status: "READED",
    payload: { text: "¿Podemos llamarle para coordinar la entrega?" },
  },
  {
    type: "call_permission_reply",
    direction: "INBOUND",
    sender: "CUSTOMER",
    status: "RECEIVED",
    payload: { response: "accept", is_permanent: false, expiration_timestamp: "1767225600", response_source: "user_action" },
  },
  { type: "template", direction: "OUTBOUND", sender: "AGENT", status: "FAILED", payload: templatePayload },
];
