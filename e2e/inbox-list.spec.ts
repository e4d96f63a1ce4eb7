import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn } from "./helpers";
import { DEMO } from "./fixtures";

async function customerWrites(page: Page, from: string, text: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", { wa_number: DEMO.number, from, type: "text", payload: { text } });
  expect(res.status(), await res.text()).toBe(200);
}

/** A UTILITY template to a number that never wrote: what a broadcast leaves behind. */
async function templateTo(page: Page, destination: string) {
  const res = await api(page).post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    template_name: "recordatorio_cita",
    destination,
    body_params: [
      { key: "1", value: "viernes" },
      { key: "2", value: "10:00" },
    ],
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Clicks "Cargar más" until the list has no further page. The button turns into "Cargando…"
 * while a page is on its way and disappears after the last, so a click may find it gone: each
 * round clicks it only if it is there, and the round passes once neither label is left.
 */
async function loadEveryPage(list: Locator) {
  const more = list.getByRole("button", { name: "Cargar más" });
  const pager = list.getByRole("button", { name: /^(Cargar más|Cargando…)$/ });
  await expect(async () => {
    if (await more.isVisible()) await more.click({ timeout: 2_000 }).catch(() => undefined);
    await expect(pager).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

const rowNames = (page: Page) => page.getByTestId("conversation-row").allInnerTexts();

test("the list: waiting-longest order, broadcast-opened conversations apart, filters in the URL, no row escapes the list", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  const base = `5732${String(Date.now()).slice(-7)}`;
  const phone = (i: number) => `${base}${String(i).padStart(2, "0")}`;
  // Ana waits first, then Beto; 24 customers only received a template (a broadcast's worth).
  const ana = phone(90);
  const beto = phone(91);
  await customerWrites(page, ana, "¿Tienen talla M?");
  await customerWrites(page, beto, "¿Envían hoy?");
  for (let i = 0; i < 24; i++) await templateTo(page, phone(i));

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/inbox");
  const list = page.getByTestId("conversation-list");
  await expect(list.getByTestId("conversation-row").first()).toBeVisible();
  // "Abiertas" holds the customers who wrote, none of the 24 outbound-only ones.
  const open = (await rowNames(page)).join("\n");
  expect(open).toContain(ana);
  expect(open).toContain(beto);
  expect(open).not.toContain(phone(0));

  // Their own filter lists them; it lives in the URL and survives a reload.
  await page.getByLabel("Estado").selectOption("outbound");
  await expect(page).toHaveURL(/[?&]status=outbound/);
  await expect(list.getByTestId("conversation-row").filter({ hasText: phone(23) })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Estado")).toHaveValue("outbound");
  await expect(list.getByTestId("conversation-row").filter({ hasText: phone(23) })).toBeVisible();
  await expect(list.getByTestId("conversation-row").filter({ hasText: ana })).toHaveCount(0);
  // Load every page: 24+ rows, each with its hidden "Usted:", and the page still fits the window.
  await loadEveryPage(list);
  expect(await list.getByTestId("conversation-row").count()).toBeGreaterThanOrEqual(24);
  const heights = await page.evaluate(() => ({ doc: document.documentElement.scrollHeight, win: window.innerHeight }));
  expect(heights.doc).toBeLessThanOrEqual(heights.win);
  await expectAccessible(page);
  await shot(page, "inbox-list-outbound-1440");

  // Waiting longest: only who waits for us, Ana (first to write) above Beto.
  await page.getByLabel("Estado").selectOption("open");
  await page.getByLabel("Orden").selectOption("waiting");
  await expect(page).toHaveURL(/[?&]order=waiting/);
  await expect(page).not.toHaveURL(/status=/);
  await expect(list.getByTestId("conversation-row").filter({ hasText: beto })).toBeVisible();
  let names = await rowNames(page);
  expect(names.findIndex((n) => n.includes(ana))).toBeLessThan(names.findIndex((n) => n.includes(beto)));
  expect(names.every((n) => !n.includes(phone(0)))).toBe(true);

  // Once Ana is answered she leaves the waiting list; the tab and order survive a reload.
  const anaId = await list.getByTestId("conversation-row").filter({ hasText: ana }).getAttribute("data-conversation-id");
  const reply = await api(page).post("/api/v1/messages/whatsapp/send", {
    wa_number: DEMO.number,
    customer_source: ana,
    type: "text",
    payload: { text: "Sí, la tenemos." },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  await page.getByRole("tab", { name: "Sin asignar" }).click();
  await expect(page).toHaveURL(/[?&]tab=none/);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Sin asignar" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByLabel("Orden")).toHaveValue("waiting");
  await expect(list.getByTestId("conversation-row").filter({ hasText: beto })).toBeVisible();
  await expect(list.locator(`[data-conversation-id="${anaId}"]`)).toHaveCount(0);
  names = await rowNames(page);
  expect(names.some((n) => n.includes(ana))).toBe(false);

  // The filters span the list's width: their longest options are never cut.
  // Each option's text, measured in the select's own font, fits its box beside the arrow.
  for (const id of ["inbox-status", "inbox-order", "inbox-label"]) {
    const fit = await page.locator(`#${id}`).evaluate((el: HTMLSelectElement) => {
      const style = getComputedStyle(el);
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const widest = Math.max(...[...el.options].map((o) => ctx.measureText(o.text).width));
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return { widest: Math.ceil(widest), room: Math.floor(room) };
    });
    expect(fit.widest, id).toBeLessThanOrEqual(fit.room);
  }
  await shot(page, "inbox-list-waiting-1440");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(list.getByTestId("conversation-row").filter({ hasText: beto })).toBeVisible();
  const phoneHeights = await page.evaluate(() => ({
    doc: document.documentElement.scrollHeight,
    win: window.innerHeight,
    wide: document.documentElement.scrollWidth,
  }));
  expect(phoneHeights.doc).toBeLessThanOrEqual(phoneHeights.win);
  expect(phoneHeights.wide).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, "inbox-list-waiting-390");
});

test("a new customer's message whose event comes while the list's first read is on its way shows in the list", async ({ page }) => {
  // The page's own record of each `message.created` it handled: a listener added right after the
  // app's on the same EventSource, so it runs once the app's handler has run.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __messageCreated: string[] }).__messageCreated = seen;
    const add = EventSource.prototype.addEventListener;
    EventSource.prototype.addEventListener = function (this: EventSource, ...args: Parameters<EventSource["addEventListener"]>) {
      add.apply(this, args);
      if (args[0] === "message.created") add.call(this, "message.created", (e: Event) => seen.push((e as MessageEvent<string>).data));
    } as EventSource["addEventListener"];
  });
  // The numbers are held until the event stream is open, so the list's first read leaves after it
  // (no catch-up of the stream's opening covers it). That read is answered by the server at once,
  // before the customer writes, and handed to the page only after the page has heard of the
  // customer's message: the event comes while the list's first read is on its way.
  let streamOpen!: () => void;
  const opened = new Promise<void>((r) => (streamOpen = r));
  await page.route(/\/api\/v1\/wa_numbers\?/, async (route) => {
    await opened;
    await route.continue();
  });
  let read!: () => void;
  const readDone = new Promise<void>((r) => (read = r));
  let deliver!: () => void;
  const delivered = new Promise<void>((r) => (deliver = r));
  let lists = 0;
  await page.route(/\/api\/v1\/conversations\?/, async (route) => {
    if (lists++ > 0) return route.continue();
    const response = await route.fetch();
    read();
    await delivered;
    await route.fulfill({ response });
  });
  await signIn(page);
  await expect(page.getByTestId("inbox")).toHaveAttribute("data-stream", "open");
  streamOpen();
  await readDone;

  const phone = `5736${String(Date.now()).slice(-8)}`;
  await customerWrites(page, phone, "Hola, ¿siguen abiertos?");
  const heard = () => page.evaluate(() => (window as unknown as { __messageCreated: string[] }).__messageCreated.length);
  await expect.poll(heard).toBeGreaterThan(0);
  deliver();
  // The first read did not have it; the list is read again once that read has landed.
  await expect(page.getByTestId("conversation-row").filter({ hasText: phone })).toBeVisible();
});
