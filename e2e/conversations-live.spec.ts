import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn, unique } from "./helpers";
import { DEMO, LIVE_BASE_URL } from "./fixtures";

/**
 * The conversation viewer (`/conversations`) follows the event stream while its
 * range holds today, as the inbox does. On the second server: its delivery worker walks a reply's
 * ticks (the first server keeps sends QUEUED), and no other spec reads its demo conversation.
 */
test.use({ baseURL: LIVE_BASE_URL });

const viewer = (from: string, to: string) => `/conversations?wa_number=${DEMO.number}&customer=${DEMO.maria}&from=${from}&to=${to}`;
const isHistory = (url: string) => url.includes("/api/v1/messages/whatsapp/history");
const isStream = (url: string) => url.includes("/api/v1/events");

/** A day as the viewer writes its range: the browser's local date, `days` from today. */
function day(page: Page, days: number): Promise<string> {
  return page.evaluate((n) => {
    const d = new Date();
    d.setDate(d.getDate() + n);
    const p = (x: number) => String(x).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  }, days);
}

async function customerWrites(page: Page, text: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", {
    wa_number: DEMO.number,
    from: DEMO.maria,
    type: "text",
    payload: { text },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * The "N mensajes" line over the list: the range's total as the history answered it. Singular
 * when the range holds one message, as today's does in a run that crosses midnight UTC.
 */
async function shownTotal(page: Page): Promise<number> {
  const text = await page.getByText(/^\d+ mensajes?$/).innerText();
  return Number(text.split(" ")[0]);
}

const bubble = (page: Page, text: string) => page.locator("article[data-message-id]").filter({ hasText: text });

test("today's range shows the customer's new message live and never a private note; a past range neither changes nor asks", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const today = await day(page, 0);

  // A second tab on a range that ended yesterday: it opens no stream.
  const past = await context.newPage();
  await past.setViewportSize({ width: 1440, height: 900 });
  const pastCalls: string[] = [];
  past.on("request", (r) => {
    if (isStream(r.url())) pastCalls.push(r.url());
  });
  await past.goto(viewer(await day(page, -6), await day(page, -1)));
  await expect(past.locator("article[data-message-id]").first()).toBeVisible();
  await expect(past.getByTestId("history-live")).toHaveCount(0);
  const pastTotal = await shownTotal(past);

  // Today's range holds at least this message, whenever the demo was seeded (a run that crosses
  // midnight UTC found it empty: the seed's messages were all of yesterday).
  await customerWrites(page, unique("Buenos días"));
  await page.goto(viewer(today, today));
  await expect(page.getByTestId("history-live")).toHaveAttribute("data-stream", "open");
  await expect(page.getByTestId("history-live")).toContainText("En vivo");
  await expect(page.locator("article[data-message-id]").first()).toBeVisible();
  const totalBefore = await shownTotal(page);
  // Set on this document: still there at the end means nothing reloaded the page.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  past.on("request", (r) => {
    if (isHistory(r.url())) pastCalls.push(r.url());
  });

  // A private note on the same conversation, then the customer's message.
  const conv = (await (await api(page).get(`/api/v1/conversations?wa_number=${DEMO.number}&search=${DEMO.maria}`)).json()).data[0];
  expect(conv.contact.customer_number).toBe(DEMO.maria);
  const noteText = unique("Nota privada del visor");
  const note = await api(page).post(`/api/v1/conversations/${conv.id}/notes`, { body: noteText });
  expect(note.status(), await note.text()).toBe(201);
  const text = unique("¿Ya salió mi pedido?");
  await customerWrites(page, text);

  await expect(bubble(page, text)).toBeVisible({ timeout: 5000 });
  await expect(bubble(page, text)).toHaveAttribute("data-direction", "INBOUND");
  await expect.poll(() => shownTotal(page)).toBe(totalBefore + 1);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  // The note's event came before the message's: by now it was handled, and the viewer left it out.
  await expect(page.getByText(noteText)).toHaveCount(0);
  await expect(page.getByTestId("note")).toHaveCount(0);

  // The past range: the message is not in it, and it asked for nothing.
  expect(await shownTotal(past)).toBe(pastTotal);
  await expect(past.getByText(text)).toHaveCount(0);
  expect(pastCalls).toEqual([]);

  await expectAccessible(page);
  await shot(page, "conversations-live");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(bubble(page, text)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, "conversations-live-phone");
});

test("an agent's reply shows live and its ticks move to READED from status events, with no request for the history", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const today = await day(page, 0);
  await page.goto(viewer(today, today));
  await expect(page.getByTestId("history-live")).toHaveAttribute("data-stream", "open");

  // The customer writes first, so the 24-hour window is open for a free-form reply.
  const question = unique("¿Me confirman la dirección?");
  await customerWrites(page, question);
  await expect(bubble(page, question)).toBeVisible({ timeout: 5000 });

  // Every status the reply's bubble shows, in order, as the DOM changes (not sampled).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __statuses: string[] }).__statuses = seen;
    const note = (el: Element) => {
      if (el instanceof HTMLElement && el.matches("article[data-message-id]") && el.textContent?.includes("Calle 45")) {
        if (seen.at(-1) !== el.dataset.status) seen.push(el.dataset.status ?? "");
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        note(r.target as Element);
        r.addedNodes.forEach((n) => {
          if (!(n instanceof HTMLElement)) return;
          note(n);
          n.querySelectorAll("article[data-message-id]").forEach(note);
        });
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
  });
  const historyCalls: string[] = [];
  page.on("request", (r) => {
    if (isHistory(r.url())) historyCalls.push(r.url());
  });

  const answer = unique("Sí: Calle 45 #12-30, llega el lunes");
  const sent = await api(page).post("/api/v1/messages/whatsapp/send", {
    wa_number: DEMO.number,
    customer_source: DEMO.maria,
    type: "text",
    payload: { text: answer },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const reply = bubble(page, answer);
  await expect(reply).toBeVisible({ timeout: 5000 });
  await expect(reply).toHaveAttribute("data-direction", "OUTBOUND");
  const callsWhenShown = historyCalls.length;

  await expect(reply).toHaveAttribute("data-status", "READED", { timeout: 30_000 });
  await expect(reply.locator('[data-status="READED"][role="img"]')).toHaveAttribute("aria-label", "Leído");
  // The ticks moved by the stream's message.status events alone: the history was not read again.
  expect(historyCalls.slice(callsWhenShown)).toEqual([]);
  const statuses = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
  test.info().annotations.push({ type: "statuses seen", description: statuses.join(" → ") });
  // Seen below READED first (the worker claims within its 1 s poll and the sandbox walks 300 ms a
  // step, while the bubble shows within a few hundred ms), then moved on: never backwards, ending at READED.
  expect(statuses.length, statuses.join(" → ")).toBeGreaterThan(1);
  const rank = ["QUEUED", "SENDED", "SENT", "DELIVERED", "READED"];
  expect(statuses.map((s) => rank.indexOf(s))).toEqual([...statuses.map((s) => rank.indexOf(s))].sort((a, b) => a - b));
  expect(statuses.at(-1)).toBe("READED");
});
