import { expect, test, type Browser, type Page } from "@playwright/test";
import { shot, signIn } from "./helpers";
import { BASE_URL, DEMO } from "./fixtures";

/**
 * The viewer's native date inputs are drawn by the browser in its own language and format (Chromium
 * ignores the page's `lang` for them, and an emulated locale does not reach them either); the UI
 * says the chosen range in its own language beside them. Checked with the browser's locale set to
 * Spain's Spanish and to US English, the UI in either language.
 */
const URL_ = `/conversations?wa_number=${DEMO.number}&customer=${DEMO.maria}&from=2026-11-03&to=2026-11-24`;

async function open(browser: Browser, browserLocale: string, ui: "es" | "en") {
  const context = await browser.newContext({ locale: browserLocale, timezoneId: "UTC", baseURL: BASE_URL });
  const page = await context.newPage();
  await signIn(page);
  await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), ui);
  await page.goto(URL_);
  await expect(page.locator("html")).toHaveAttribute("lang", ui);
  return { context, page };
}

/** The order of the date input's fields as the browser lays them out (its accessibility tree). */
async function fieldOrder(page: Page, inputId: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
    nodes: { nodeId: string; role?: { value: string }; childIds?: string[]; backendDOMNodeId?: number; value?: { value: unknown } }[];
  };
  const doc = (await cdp.send("DOM.getDocument", { depth: 0 })) as { root: { nodeId: number } };
  const { nodeId } = (await cdp.send("DOM.querySelector", { nodeId: doc.root.nodeId, selector: `#${inputId}` })) as { nodeId: number };
  const { node } = (await cdp.send("DOM.describeNode", { nodeId })) as { node: { backendNodeId: number } };
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const root = nodes.find((n) => n.backendDOMNodeId === node.backendNodeId);
  const spins: string[] = [];
  const walk = (id: string) => {
    const n = byId.get(id);
    if (!n) return;
    if (n.role?.value === "spinbutton") spins.push(String(n.value?.value ?? ""));
    for (const c of n.childIds ?? []) walk(c);
  };
  if (root) walk(root.nodeId);
  await cdp.detach();
  return spins;
}

test("the date range reads in the UI's language whatever the browser's locale; the native inputs stay the browser's", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const cases = [
    { browserLocale: "es-ES", ui: "en", range: "From November 3, 2026 to November 24, 2026" },
    { browserLocale: "es-ES", ui: "es", range: "Del 3 de noviembre de 2026 al 24 de noviembre de 2026" },
    { browserLocale: "en-US", ui: "es", range: "Del 3 de noviembre de 2026 al 24 de noviembre de 2026" },
    { browserLocale: "en-US", ui: "en", range: "From November 3, 2026 to November 24, 2026" },
  ] as const;
  const layouts = new Map<string, string[]>();
  for (const c of cases) {
    const { context, page } = await open(browser, c.browserLocale, c.ui);
    const range = page.getByTestId("conv-range");
    await expect(range).toHaveText(c.range);
    // Both inputs point at the range text, so a screen reader hears the dates in the UI's language.
    await expect(page.locator("#conv-from")).toHaveAttribute("aria-describedby", "conv-range");
    await expect(page.locator("#conv-to")).toHaveAttribute("aria-describedby", "conv-range");
    // The inputs carry no lang of their own and keep ISO values.
    await expect(page.locator("#conv-from")).not.toHaveAttribute("lang", /.*/);
    await expect(page.locator("#conv-from")).toHaveValue("2026-11-03");
    // The browser lays the fields out its own way, and the UI's language does not change it.
    const order = await fieldOrder(page, "conv-from");
    expect([...order].sort(), JSON.stringify(order)).toEqual(["11", "2026", "3"]);
    const seen = layouts.get(c.browserLocale);
    if (seen) expect(order, `${c.browserLocale} with the UI in ${c.ui}`).toEqual(seen);
    else layouts.set(c.browserLocale, order);
    // A change of the inputs is said again at once.
    await page.locator("#conv-from").fill("2026-11-10");
    await expect(range).toContainText(c.ui === "es" ? "Del 10 de noviembre de 2026" : "From November 10, 2026");
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, `conversation-dates-${c.browserLocale}-ui-${c.ui}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, `conversation-dates-${c.browserLocale}-ui-${c.ui}-phone`);
    await context.close();
  }
});
