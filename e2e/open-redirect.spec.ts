import { expect, test } from "@playwright/test";
import { BASE_URL, DEMO } from "./fixtures";
import { HOSTILE_NEXT } from "./hostile-next";

/**
 * One redirect rule, checked after every normalisation the browser does.
 * For each hostile `next` of the table, sign in with it in Chromium and assert where the browser
 * really ends up: our origin, on the landing page.
 */

const evilHost = (url: URL) => url.hostname === "evil.example" || url.hostname.endsWith(".evil.example");

test("after signing in, no hostile next leaves the site (table of hostile values)", async ({ page, context }) => {
  test.setTimeout(HOSTILE_NEXT.length * 8_000);
  const foreign: string[] = [];
  // Were the browser sent away, it would land on this page (and the assertions would see it).
  await context.route(evilHost, (route) => {
    foreign.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" });
  });
  const landed: Record<string, string> = {};
  for (const next of HOSTILE_NEXT) {
    await page.goto("about:blank");
    await context.clearCookies();
    await page.goto(`${BASE_URL}/login?next=${next}`);
    await page.getByLabel("Correo electrónico").fill(DEMO.email);
    await page.getByLabel("Contraseña").fill(DEMO.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page.getByTestId("agent-name")).toHaveText(DEMO.agentName);
    landed[next] = page.url();
  }
  for (const [next, url] of Object.entries(landed)) {
    expect(new URL(url).origin, `next=${next}`).toBe(BASE_URL);
    expect(url, `next=${next}`).toBe(`${BASE_URL}/inbox`);
  }
  expect(foreign).toEqual([]);
  expect(Object.keys(landed).length).toBeGreaterThanOrEqual(30);
});
