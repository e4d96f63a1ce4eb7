import { expect, test } from "@playwright/test";
import { expectAccessible, shot, signIn } from "./helpers";
import { DEMO } from "./fixtures";

test("no serious accessibility violations on sign-in and the dashboard pages, at laptop and phone width", async ({ page }) => {
  // Eleven page loads, each followed by a full axe scan: far more work than one default test budget.
  test.setTimeout(300_000);
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Iniciar sesión" })).toBeVisible();
  await expectAccessible(page);
  await signIn(page);

  const pages: [string, string, () => Promise<void>][] = [
    [
      "inbox",
      "/inbox",
      async () => {
        await expect(page.getByTestId("conversation-row").first()).toBeVisible();
      },
    ],
    [
      "send",
      "/send",
      async () => {
        await page.getByRole("radio", { name: /promo_navidad/ }).check();
        await expect(page.getByTestId("template-preview")).toContainText("Navidad");
      },
    ],
    [
      "contacts",
      "/contacts",
      async () => {
        await expect(page.getByTestId("contact-row").first()).toBeVisible();
      },
    ],
    [
      "labels",
      "/labels",
      async () => {
        await expect(page.getByTestId("label-row").first()).toBeVisible();
      },
    ],
    [
      "history",
      `/history?wa_number=${DEMO.number}&customer=${DEMO.maria}`,
      async () => {
        await expect(page.locator("article[data-message-id]").first()).toBeVisible();
      },
    ],
  ];
  for (const [name, url, ready] of pages) {
    for (const [suffix, size] of [
      ["", { width: 1280, height: 900 }],
      ["-phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(url);
      await ready();
      await expectAccessible(page);
      // Nothing may overflow sideways, at phone width least of all.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await shot(page, `${name}${suffix}`);
    }
  }
});
