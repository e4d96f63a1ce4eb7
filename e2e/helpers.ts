import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { BASE_URL, DEMO } from "./fixtures";

const SHOTS = path.join(process.cwd(), "e2e", "screenshots");

/** Saves a full-page screenshot under e2e/screenshots/ (gitignored), one per page and width. */
export async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Signs the demo agent in through the API (the context's cookie jar keeps the session) and opens
 * the inbox. The sign-in form itself is driven in auth.spec.ts; here it would cost every spec a
 * page load and three inputs for nothing it checks.
 */
export async function signIn(page: Page) {
  // Relative: against the context's baseURL, which some specs point at the second server.
  const res = await page.request.post("/api/v1/auth/login", {
    headers: { "content-type": "application/json" },
    data: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto("/inbox");
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByTestId("agent-name")).toHaveText(DEMO.agentName);
}

/**
 * JSON calls to /api/v1 with the page's session cookie, from our own origin as the browser
 * would send them (state-changing cookie requests must carry it: CSRF protection).
 */
export function api(page: Page) {
  const origin = page.url().startsWith("http") ? new URL(page.url()).origin : BASE_URL;
  const headers = { origin, "content-type": "application/json" };
  return {
    get: (url: string) => page.request.get(url),
    post: (url: string, data: unknown) => page.request.post(url, { headers, data: JSON.stringify(data) }),
    put: (url: string, data: unknown) => page.request.put(url, { headers, data: JSON.stringify(data) }),
    patch: (url: string, data: unknown) => page.request.patch(url, { headers, data: JSON.stringify(data) }),
  };
}

/**
 * Fails on serious or critical axe violations, listing them readably. Colour transitions are
 * finished first: axe measures contrast on computed colours, and a button caught halfway between
 * disabled grey and enabled green (150 ms of `transition-colors`) reads as a contrast failure that
 * no user sees for longer than that. `only`: a selector to check instead of the whole page, where
 * the rest was checked in the same state already.
 */
/**
 * axe's serious and critical violations on the page (or only inside `only`), none expected.
 * `skipRules` leaves out rules another call on the same content already ran, where their result
 * cannot differ (colour contrast at a second width of a page whose colours do not depend on it).
 */
export async function expectAccessible(page: Page, only?: string, skipRules: string[] = []) {
  // Running CSS transitions are Web Animations: wait for the finite ones to end.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Only violations are wanted: axe then skips gathering every passing node (15-25 % faster on the
  // inbox and contacts pages, same violations).
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).disableRules(skipRules);
  const results = await (only ? builder.include(only) : builder).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`).join("\n");
  expect(bad, report).toEqual([]);
}

export function unique(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

/** A unique valid phone number, so reruns on a shared database never collide. */
export function uniquePhone() {
  return `5731${String(Date.now()).slice(-8)}`;
}

/** A real 1×1 PNG (the upload endpoint sniffs file contents, not just the name). */
export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export const PDF_MIN = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** The page fits its width; on failure the message names the elements reaching past it (outside scrolling boxes). */
export async function expectNoOverflow(page: Page, width: number) {
  const wide = await page.evaluate((w) => {
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    return [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > w + 0.5 && !clipped(el))
      .slice(0, 10)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "").slice(0, 60)} → ${Math.round(el.getBoundingClientRect().right)}`,
      );
  }, width);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, wide.join("\n")).toBeLessThanOrEqual(width);
}

/**
 * Clicks `target` and returns what the click set off in the page: the navigations it started (the
 * Navigation API's `navigate` event; a page that navigated away reads as such) and the windows it
 * opened. Read two animation frames after the click, once its handlers, its default action and the
 * tasks they queued (a `javascript:` URL's script among them) have run: a check that a click does
 * nothing waits for that, not for a guessed delay.
 */
export async function clickAndWatch(page: Page, target: Locator): Promise<string[]> {
  type Watched = { __clickStarted?: string[]; __clickWatched?: boolean; navigation?: EventTarget };
  await page.evaluate(() => {
    const w = window as unknown as Watched;
    w.__clickStarted = [];
    if (w.__clickWatched) return;
    w.__clickWatched = true;
    w.navigation?.addEventListener("navigate", (e) =>
      w.__clickStarted?.push(`navigate ${(e as unknown as { destination: { url: string } }).destination.url}`),
    );
    const open = window.open.bind(window);
    window.open = (...args: Parameters<typeof window.open>) => {
      w.__clickStarted?.push(`open ${String(args[0])}`);
      return open(...args);
    };
  });
  await target.click();
  const started = await page.evaluate(
    () =>
      new Promise<string[] | undefined>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve((window as unknown as Watched).__clickStarted))),
      ),
  );
  return started ?? [`the page navigated away to ${page.url()}`];
}

/**
 * A broadcast of "recordatorio_cita" to one new contact, imported under a new label: on `origin`'s
 * server (the page's baseURL), sent now or at `scheduledAt`. Returns the broadcast's id.
 */
export async function broadcastToNewContact(page: Page, { origin, scheduledAt }: { origin: string; scheduledAt?: Date }): Promise<number> {
  const label = unique("Difusión");
  const made = await api(page).post("/api/v1/contacts/labels", {
    title: label,
    description: null,
    bg_color: "#0ea5e9",
    text_color: "#ffffff",
  });
  expect(made.status(), await made.text()).toBe(201);
  const phone = `5733${String(Date.now()).slice(-8)}`;
  const imported = await page.request.post("/api/v1/contacts/import", {
    headers: { origin, "content-type": "text/csv" },
    data: Buffer.from(`number,name,customer_id,labels\n${phone},Diana Fechas,cus_${phone},${label}\n`),
  });
  expect(imported.status(), await imported.text()).toBe(200);
  const res = await api(page).post("/api/v1/broadcasts", {
    name: unique("Difusión"),
    wa_number: DEMO.number,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "{{name}}" },
      { key: "2", value: "10:00" },
    ],
    audience: { labels_any: [(await made.json()).data.id] },
    ...(scheduledAt ? { scheduled_at: scheduledAt.toISOString() } : {}),
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data.id;
}
