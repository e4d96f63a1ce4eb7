import { expect, test, type Page, type Request } from "@playwright/test";
import { realDelay } from "../tests/helpers/real-delay";
import { api, signIn, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/**
 * The inbox thread opens at its newest message in one request and is live at once
 * (docs/features/inbox.md, "The thread's pages"); /history loads without a console error; a
 * signed-out `/` shows the sign-in page without a 401.
 */

async function customerSends(page: Page, from: string, type: string, payload: Record<string, unknown>) {
  const res = await api(page).post("/api/v1/sandbox/inbound", { wa_number: DEMO.number, from, type, payload });
  expect(res.status(), await res.text()).toBe(200);
}

const row = (page: Page, phone: string) => page.getByTestId("conversation-row").filter({ hasText: phone });
const bubble = (page: Page, text: string) => page.locator("article[data-message-id]").filter({ hasText: text });

/** Every request the page makes for a thread's messages: the new route's pages and the history's date windows. */
function watchThreadReads(page: Page) {
  const pages: string[] = [];
  const windows: string[] = [];
  page.on("request", (r: Request) => {
    const u = new URL(r.url());
    if (/^\/api\/v1\/conversations\/\d+\/messages$/.test(u.pathname)) pages.push(u.search);
    if (u.pathname === "/api/v1/messages/whatsapp/history") windows.push(u.search);
  });
  return { pages, windows };
}

test("a customer's message written 0.5 s after the agent opened the conversation shows within 1.5 s; the first page is one request", async ({
  page,
}) => {
  await signIn(page);
  const phone = uniquePhone();
  await customerSends(page, phone, "text", { text: "Hola" });
  await customerSends(page, phone, "text", { text: "¿Tienen talla M?" });
  await expect(row(page, phone)).toBeVisible();
  await expect(page.getByTestId("inbox")).toHaveAttribute("data-stream", "open");

  const reads = watchThreadReads(page);
  await row(page, phone).click();
  // The thread is open once it asks for its first page; the agent has had it open for half a
  // second when the customer writes: the elapsed time is the scenario (tests/helpers/real-delay.ts).
  await expect.poll(() => reads.pages.length).toBe(1);
  await realDelay(500);
  // The thread's first page: one request, whatever the conversation's age, and no walk after it.
  expect(reads.pages).toHaveLength(1);
  expect(reads.pages[0]).not.toContain("cursor=");
  expect(reads.windows).toEqual([]);
  // Timed from the moment the message is stored (the sandbox's answer), as a customer's would be.
  await customerSends(page, phone, "text", { text: "SALIR" });
  const t0 = Date.now();
  await expect(bubble(page, "SALIR")).toBeVisible({ timeout: 1500 });
  expect(Date.now() - t0).toBeLessThan(1500);
  await expect(bubble(page, "¿Tienen talla M?")).toBeVisible();
  await expect(bubble(page, "SALIR")).toHaveCount(1);

  // Then a read of the newest page for each new message (the opt-out may bring the business's
  // confirmation too); never a date window, and nothing older to ask for in this conversation.
  expect(reads.windows).toEqual([]);
  expect(reads.pages.filter((q) => q.includes("cursor="))).toEqual([]);
  await expect(page.getByText("Inicio de la conversación")).toBeVisible();
});

test("a message written while the thread's first page is still on its way shows once, when that page lands", async ({ page }) => {
  await signIn(page);
  const phone = uniquePhone();
  await customerSends(page, phone, "text", { text: "Primer mensaje" });
  await expect(row(page, phone)).toBeVisible();
  await expect(page.getByTestId("inbox")).toHaveAttribute("data-stream", "open");

  // The first page is held at the door until the customer's next message is stored.
  let release!: () => void;
  const stored = new Promise<void>((r) => (release = r));
  let held = 0;
  await page.route(/\/api\/v1\/conversations\/\d+\/messages(\?|$)/, async (route) => {
    if (held++ === 0) await stored;
    await route.continue();
  });
  const reads = watchThreadReads(page);
  await row(page, phone).click();
  await expect.poll(() => reads.pages.length).toBe(1);
  await customerSends(page, phone, "text", { text: "Mientras cargaba" });
  // The event asks for the newest page at once, beside the first one still held.
  await expect.poll(() => reads.pages.length).toBe(2);
  release();
  await expect(bubble(page, "Mientras cargaba")).toBeVisible();
  await expect(bubble(page, "Primer mensaje")).toBeVisible();
  await expect(bubble(page, "Mientras cargaba")).toHaveCount(1);
  expect(reads.windows).toEqual([]);
});

/** A tall picture (600 × 900), served by the test for the customer's image. */
const TALL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900"><rect width="600" height="900" fill="#1f7a5a"/></svg>`;

test("an image as the newest message is fully in view once it has loaded", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  const phone = uniquePhone();
  for (let i = 1; i <= 12; i++)
    await customerSends(page, phone, "text", { text: `Mensaje ${i} de una conversación que no cabe en la pantalla` });
  const src = `/e2e-thread/${phone}.svg`;
  await customerSends(page, phone, "image", { url: src, caption: "La foto del pedido" });
  await expect(row(page, phone)).toBeVisible();

  // The picture arrives only after the thread has opened and pinned itself to the bottom.
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  await page.route(`**${src}`, async (route) => {
    await opened;
    await route.fulfill({ status: 200, contentType: "image/svg+xml", body: TALL_SVG });
  });
  await row(page, phone).click();
  const image = page.locator('article[data-type="image"]').filter({ hasText: "La foto del pedido" });
  await expect(image).toBeAttached();
  release();
  const img = image.locator("img");
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

  const scroller = page.getByTestId("message-scroller");
  await expect
    .poll(async () => {
      const [box, view] = await Promise.all([image.boundingBox(), scroller.boundingBox()]);
      if (!box || !view) return "not laid out";
      const imgBox = (await img.boundingBox())!;
      return imgBox.height > 200 && box.y >= view.y - 1 && box.y + box.height <= view.y + view.height + 1
        ? "in view"
        : `${JSON.stringify(box)} in ${JSON.stringify(view)}`;
    })
    .toBe("in view");
  // And pinned: nothing below it.
  expect(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
});

test("the history viewer loads without a console error", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await signIn(page);
  // A range holding today: the live banner and the list side by side (they once shared a key).
  await page.goto("/history");
  await page.getByTestId("customer-search").fill("María");
  await page.getByRole("option").filter({ hasText: "María López" }).first().getByRole("button").click();
  await expect(page.getByTestId("current-customer")).toBeVisible();
  await expect(page.getByText("En vivo")).toBeVisible();
  await expect(page.locator("article[data-message-id]").first()).toBeVisible({ timeout: 30_000 });
  expect(errors).toEqual([]);
});

test("signed out, / shows the sign-in page, with no 401 on the way", async ({ page }) => {
  const unauthorized: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 401) unauthorized.push(r.url());
  });
  const res = await page.goto("/");
  expect(res?.status()).toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Correo electrónico")).toBeVisible();
  // A deeper page comes back after signing in.
  await page.goto("/inbox?tab=me");
  await expect(page).toHaveURL(/\/login\?next=%2Finbox%3Ftab%3Dme$/);
  expect(unauthorized).toEqual([]);
});
