/** Data the e2e suite adds beside the demo seed (e2e/prepare-db.ts), shared with the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT || 3210);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const DEMO = { email: "agente@demo.local", password: "demo1234", number: "573001234567", maria: "573009876543", agentName: "Ana Agente" };

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
