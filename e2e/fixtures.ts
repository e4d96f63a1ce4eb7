/** Data the e2e suite adds beside the demo seed (e2e/prepare-db.ts), shared with the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT || 3210);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
/** The second server of the suite: the same app and demo data, with the delivery worker running. */
export const LIVE_BASE_URL = `http://localhost:${Number(process.env.E2E_LIVE_PORT || 3211)}`;
export const DEMO = {
  email: "agente@demo.local",
  password: "demo1234",
  number: "573001234567",
  maria: "573009876543",
  agentName: "Ana Agente",
};

/** A contact whose conversation carries hostile payloads: it must render as inert text. */
export const XSS_CONTACT = { number: "573001110001", customerId: "cus_e2e_xss", name: "Prueba Inyección" };
export const XSS_TEXT = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"> javascript:window.__xss=3`;
export const JS_URL = "javascript:window.__xss=4";

/** A long conversation, to exercise loading older pages while scrolling. */
export const LONG_CONTACT = { number: "573001110002", customerId: "cus_e2e_long", name: "Conversación Larga", messages: 160 };

/**
 * A conversation with stored payloads no renderer expects (review finding 6), between two ordinary
 * messages: each must fall back on its own and leave the rest of the page standing.
 */
export const BROKEN_CONTACT = { number: "573001110003", customerId: "cus_e2e_broken", name: "Prueba Mensajes Rotos" };
export const BROKEN_TEXTS = { before: "Mensaje sano antes de los rotos", after: "Mensaje sano después de los rotos" };
export const BROKEN_HANDLE = "https://files.example.com/factura%E0%A4%A.pdf";

/** Payload URLs that look like our own paths but browsers load from another site (finding 7). */
export const LOOKALIKE_CONTACT = { number: "573001110004", customerId: "cus_e2e_lookalike", name: "Prueba Enlaces Parecidos" };
export const LOOKALIKE_URL = "/\\evil.example/x";
export const LOOKALIKE_TAB_URL = "/\t/evil.example/tab.png";

/**
 * WhatsApp types beyond the contract's list and the finer points of the renderers:
 * reactions (one on a loaded message, one on a message not loaded), an order, a Flow reply,
 * monospace, SENDED/SENT ticks, a FAILED reason, contact kinds, routing notes and dates.
 */
export const RENDER_CONTACT = { number: "573001110005", customerId: "cus_e2e_render", name: "Prueba Tipos WhatsApp" };
export const RENDER = {
  target: "wamid.E2E_RENDER_TARGET",
  targetText: "¿Te gustó el saco rojo?",
  missing: "wamid.E2E_NOT_LOADED",
  failedDetails: "Recipient phone number not in allowed list",
  monospace: "NAVIDAD20",
  documentUrl: "/api/v1/media/uploads/team1/5f0c2a1e-8d3b-4c7a-9e2f-0a1b2c3d4e5f.pdf",
  expires: 1_795_000_000,
};

/** A demo-team template Meta rejected, with its history (the templates page). */
export const REJECTED_TEMPLATE = { name: "promo_dos_por_uno", reason: "INVALID_FORMAT", metaId: "1357924680" };

/** An agent of the demo team with the plain `agent` role: reads the templates, may not sync them. */
export const PLAIN_AGENT = { email: "agente.basico@demo.local", password: "demo1234", name: "Beto Básico" };
