import type { TemplateComponent } from "@/lib/templates/schemas";

/** Static content of the demo team; lib/seed/demo.ts inserts it. */

export const DEMO_TEAM = "Demo";
/** The demo team's default country (its numbers are Colombian). */
export const DEMO_COUNTRY = "CO";
export const DEMO_NUMBER = "573001234567";
export const DEMO_NUMBER_NAME = "Tienda Demo";
export const DEMO_AGENT = { email: "agente@demo.local", password: "demo1234", name: "Ana Agente" };
export const DEMO_CUSTOMER = { name: "María López", number: "573009876543", customerId: "cus_maria" };

export const DEMO_LABELS = [
  { title: "Cliente VIP", description: "Compras frecuentes de alto valor", bgColor: "#d4af37", textColor: "#1f2937" },
  { title: "Nuevo", description: "Primer contacto en los últimos 30 días", bgColor: "#25d366", textColor: "#ffffff" },
  { title: "Pendiente de pago", description: null, bgColor: "#f59e0b", textColor: "#1f2937" },
  { title: "Soporte", description: "Tiene un caso abierto", bgColor: "#3b82f6", textColor: "#ffffff" },
  { title: "Mayorista", description: "Compra por volumen", bgColor: "#8b5cf6", textColor: "#ffffff" },
  { title: "Reclamo", description: "Reclamo en curso", bgColor: "#ef4444", textColor: "#ffffff" },
  { title: "Newsletter", description: "Acepta promociones", bgColor: "#14b8a6", textColor: "#ffffff" },
  { title: "Inactivo", description: "Sin compras en 6 meses", bgColor: "#6b7280", textColor: "#ffffff" },
  { title: "Navidad 2026", description: "Interesado en la campaña de Navidad", bgColor: "#b91c1c", textColor: "#fef3c7" },
];

/**
 * Starter saved replies (docs/features/inbox.md), typed with "/" in the inbox's composer:
 * what a support team answers most, with the variables the composer fills in.
 */
export const DEMO_SAVED_REPLIES = [
  { shortcut: "saludo", title: "Saludo", content: "¡Hola {{name}}! Le escribe {{agent}} de Tienda Demo. ¿En qué le puedo ayudar?" },
  {
    shortcut: "horario",
    title: "Horario de atención",
    content: "Nuestro horario de atención es de lunes a viernes de 8:00 a 18:00 y los sábados de 9:00 a 13:00.",
  },
  {
    shortcut: "pedido",
    title: "Pedir el número de pedido",
    content: "Con gusto lo reviso, {{name}}. ¿Me comparte el número de su pedido? Lo encuentra en el correo de confirmación.",
  },
  {
    shortcut: "cierre",
    title: "Cierre",
    content: "Gracias por escribirnos, {{name}}. Si necesita algo más, responda a este mensaje y le atendemos.",
  },
];

/** Contacts with the indexes (into DEMO_LABELS) of their labels: from none up to the cap of 5. */
export const DEMO_CONTACTS: { name: string; number: string; customerId: string | null; labels: number[] }[] = [
  { name: DEMO_CUSTOMER.name, number: DEMO_CUSTOMER.number, customerId: DEMO_CUSTOMER.customerId, labels: [0, 6, 8] },
  { name: "Carlos Pérez", number: "573101112233", customerId: "cus_carlos", labels: [1] },
  { name: "Lucía Gómez", number: "573112223344", customerId: "cus_lucia", labels: [0, 2, 3, 6, 8] },
  { name: "Jorge Ramírez", number: "573123334455", customerId: null, labels: [] },
  { name: "Valentina Torres", number: "573134445566", customerId: "cus_valentina", labels: [4, 6] },
  { name: "Andrés Castillo", number: "573145556677", customerId: null, labels: [5, 3] },
  { name: "Camila Rojas", number: "573156667788", customerId: "cus_camila", labels: [1, 6, 8] },
  { name: "Diego Herrera", number: "573167778899", customerId: null, labels: [7] },
  { name: "Sofía Morales", number: "573178889900", customerId: "cus_sofia", labels: [0, 4] },
  { name: "Mateo Vargas", number: "573189990011", customerId: null, labels: [] },
  { name: "Isabella Díaz", number: "525512345678", customerId: "cus_isabella", labels: [2, 5, 7, 1] },
  { name: "Sebastián Ruiz", number: "5491155554444", customerId: "cus_sebastian", labels: [6] },
];

export type DemoTemplate = {
  name: string;
  category: "UTILITY" | "MARKETING";
  /** Which stored demo file is the default attachment (media headers only). */
  media?: "png" | "pdf" | "mp4";
  components: (mediaUrl: string | null) => TemplateComponent[];
};

const header = (format: "IMAGE" | "DOCUMENT" | "VIDEO", url: string | null): TemplateComponent => ({
  type: "HEADER",
  format,
  example: { header_handle: [url ?? ""] },
});

/** One template per header format (TEXT with a variable, IMAGE, DOCUMENT, VIDEO, none). */
export const DEMO_TEMPLATES: DemoTemplate[] = [
  {
    name: "confirmacion_pedido",
    category: "UTILITY",
    components: () => [
      { type: "HEADER", format: "TEXT", text: "Hola {{1}}", example: { header_text: ["María"] } },
      { type: "BODY", text: "Tu pedido {{1}} llega el {{2}}.", example: { body_text: [["A-1024", "lunes"]] } },
      { type: "FOOTER", text: "Tienda Demo" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Gracias", payload: "PEDIDO_OK" },
          // A link with a variable: each send gives its value (button_params), e.g. the order number.
          {
            type: "URL",
            text: "Seguir pedido",
            url: "https://tienda.example.com/pedidos/{{1}}",
            example: ["https://tienda.example.com/pedidos/A-1024"],
          },
        ],
      },
    ],
  },
  {
    name: "promo_navidad",
    category: "MARKETING",
    media: "png",
    components: (url) => [
      header("IMAGE", url),
      {
        type: "BODY",
        text: "¡{{1}}, esta Navidad tienes {{2}} de descuento en toda la tienda!",
        example: { body_text: [["María", "20%"]] },
      },
      { type: "FOOTER", text: "Responde SALIR para no recibir promociones" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Me interesa", payload: "PROMO_SI" },
          { type: "QUICK_REPLY", text: "No, gracias", payload: "PROMO_NO" },
          { type: "URL", text: "Ver catálogo", url: "https://tienda.example.com/navidad" },
        ],
      },
    ],
  },
  {
    name: "factura_mensual",
    category: "UTILITY",
    media: "pdf",
    components: (url) => [
      header("DOCUMENT", url),
      { type: "BODY", text: "Hola {{1}}, adjuntamos tu factura de {{2}}.", example: { body_text: [["María", "noviembre"]] } },
      { type: "FOOTER", text: "Tienda Demo · Facturación" },
      { type: "BUTTONS", buttons: [{ type: "URL", text: "Pagar en línea", url: "https://tienda.example.com/pagar" }] },
    ],
  },
  {
    name: "video_bienvenida",
    category: "MARKETING",
    media: "mp4",
    components: (url) => [
      header("VIDEO", url),
      { type: "BODY", text: "Bienvenido a Tienda Demo, {{1}}. Mira cómo comprar en 1 minuto.", example: { body_text: [["María"]] } },
      { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Quiero comprar", payload: "BIENVENIDA_COMPRAR" }] },
    ],
  },
  {
    name: "recordatorio_cita",
    category: "UTILITY",
    components: () => [
      { type: "BODY", text: "Te recordamos tu cita el {{1}} a las {{2}}.", example: { body_text: [["viernes", "10:00"]] } },
      { type: "FOOTER", text: "Tienda Demo" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Confirmar", payload: "CITA_CONFIRMAR" },
          { type: "QUICK_REPLY", text: "Reprogramar", payload: "CITA_REPROGRAMAR" },
        ],
      },
    ],
  },
];
