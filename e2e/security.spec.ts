import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, clickAndWatch, PDF_MIN, shot, signIn } from "./helpers";
import { BASE_URL, BROKEN_CONTACT, BROKEN_TEXTS, DEMO, LOOKALIKE_CONTACT, LOOKALIKE_URL } from "./fixtures";

/** Security review findings 1, 6, 7 and 8, as the agent's browser meets them. */

async function openConversation(page: Page, search: string, name: string) {
  await page.goto("/history");
  await page.getByTestId("customer-search").fill(search);
  await page.getByRole("option").filter({ hasText: name }).first().getByRole("button").click();
  await expect(page.getByTestId("current-customer")).toBeVisible();
}

const byType = (page: Page, type: string): Locator => page.locator(`article[data-type="${type}"]`);

/** A request to the look-alike target's host (not any URL that merely names it in a query). */
const evilHost = (url: URL) => url.hostname === "evil.example" || url.hostname.endsWith(".evil.example");

async function submitLogin(page: Page) {
  await page.getByLabel("Correo electrónico").fill(DEMO.email);
  await page.getByLabel("Contraseña").fill(DEMO.password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

test("finding 1: after signing in, a next that only looks like a path never leaves the site", async ({ page, context }) => {
  // Were the browser sent away, it would land here (and the test would see it), not on the network.
  await context.route(evilHost, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" }));
  for (const next of ["/%5Cevil.example/x", "/%09/evil.example"]) {
    await page.goto("about:blank");
    await context.clearCookies();
    await page.goto(`/login?next=${next}`);
    await submitLogin(page);
    await expect(page).toHaveURL(`${BASE_URL}/inbox`);
    await expect(page.getByTestId("agent-name")).toHaveText(DEMO.agentName);
  }
  // A real same-site destination is still honoured, query and all.
  await page.goto("about:blank");
  await context.clearCookies();
  await page.goto(`/login?next=${encodeURIComponent(`/history?wa_number=${DEMO.number}`)}`);
  await submitLogin(page);
  await expect(page).toHaveURL(`${BASE_URL}/history?wa_number=${DEMO.number}`);
});

test("finding 6: stored payloads no renderer expects fall back one by one; the conversation still renders", async ({ page }) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  // Tall enough for the whole conversation in one screenshot.
  await page.setViewportSize({ width: 1280, height: 1500 });
  await signIn(page);
  await openConversation(page, BROKEN_CONTACT.number, BROKEN_CONTACT.name);
  const log = page.getByTestId("message-scroller");
  await expect(log.getByText(BROKEN_TEXTS.before)).toBeVisible();
  await expect(log.getByText(BROKEN_TEXTS.after)).toBeVisible();
  await expect(page.getByText("This page couldn't load")).toHaveCount(0);

  const templates = byType(page, "template");
  await expect(templates).toHaveCount(3);
  // BUTTONS without its list: the readable view of its fields.
  const noButtons = templates.filter({ hasText: "sin_botones" });
  await expect(noButtons.locator('[data-renderer="fallback"]')).toBeVisible();
  await expect(noButtons.getByTestId("unrenderable")).toHaveText("Este mensaje no se puede mostrar como tal; estos son sus campos:");
  await expect(noButtons).toContainText("Plantilla sin lista de botones");
  // A BODY whose text is a number: the same.
  const numeric = templates.filter({ hasText: "cuerpo_numerico" });
  await expect(numeric.locator('[data-renderer="fallback"]')).toBeVisible();
  await expect(numeric).toContainText("12345");
  // A header handle with broken percent-encoding: the template, its file name as stored.
  const header = templates.filter({ hasText: "Plantilla con cabecera mal codificada" });
  await expect(header.locator('[data-renderer="template"]')).toBeVisible();
  await expect(header.locator('[data-part="header"]')).toContainText("factura%E0%A4%A.pdf");
  // Each bubble keeps its frame: sender and time.
  await expect(noButtons.getByTestId("sender")).toBeVisible();
  expect(pageErrors).toEqual([]);
  await shot(page, "conversation-broken-payloads");
});

test("finding 7: payload URLs that only look local stay text, and nothing loads from another site", async ({ page, context }) => {
  const foreign: string[] = [];
  await context.route(evilHost, (route) => route.abort());
  page.on("request", (r) => {
    if (evilHost(new URL(r.url()))) foreign.push(r.url());
  });
  await signIn(page);
  await openConversation(page, LOOKALIKE_CONTACT.number, LOOKALIKE_CONTACT.name);
  const log = page.getByTestId("message-scroller");
  await expect(log.getByText("Plantilla con botón parecido")).toBeVisible();
  await expect(byType(page, "image")).toContainText("Imagen parecida");
  await expect(byType(page, "contacts")).toContainText("Contacto parecido");

  // Every link and source in the conversation stays on our origin or goes to an https site.
  const targets = await log
    .locator("a[href], img[src], video[src], audio[src]")
    .evaluateAll((els) => els.map((e) => (e as HTMLAnchorElement).href || (e as HTMLImageElement).src));
  expect(targets.filter((t) => evilHost(new URL(t)))).toEqual([]);
  // The look-alike URLs are shown, as inert text.
  await expect(byType(page, "contacts").locator("[data-inert-url]")).toHaveText(LOOKALIKE_URL);
  await expect(byType(page, "text").locator("[data-inert-url]")).toHaveText(LOOKALIKE_URL);
  // The look-alike button is inert: clicking it starts no navigation and opens no window.
  expect(await clickAndWatch(page, page.getByText("Botón parecido", { exact: true }))).toEqual([]);
  expect(page.url()).toContain("/history");
  expect(context.pages()).toHaveLength(1);
  expect(foreign).toEqual([]);
  await shot(page, "conversation-lookalike-urls");
});

const PAGES: [string, string, (page: Page) => Promise<void>][] = [
  [
    "send",
    "/send",
    async (page) => {
      await page.getByRole("radio", { name: /promo_navidad/ }).check();
      await expect(page.getByTestId("template-preview")).toContainText("Navidad");
    },
  ],
  [
    "contacts",
    "/contacts",
    async (page) => {
      await expect(page.getByTestId("contact-row").first()).toBeVisible();
      // A contact's chip: the label filter's own chips sit in a closed disclosure above the rows.
      await expect(page.getByTestId("contact-row").getByTestId("label-chip").first()).toBeVisible();
    },
  ],
  [
    "labels",
    "/labels",
    async (page) => {
      await expect(page.getByTestId("label-row").first()).toBeVisible();
    },
  ],
  [
    "history",
    `/history?wa_number=${DEMO.number}&customer=${DEMO.maria}`,
    async (page) => {
      for (const img of [
        page.locator('article[data-type="image"] img').first(),
        page.locator('article[data-type="template"] [data-part="header"] img').first(),
      ]) {
        await expect(img).toBeVisible();
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      }
    },
  ],
  [
    "docs",
    "/docs",
    async (page) => {
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  ],
];

function expectPageHeaders(headers: Record<string, string>) {
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/(^|; )script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'(;|$)/);
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'"]) expect(csp).toContain(directive);
  // Inline allowance only for style attributes (server-rendered React `style`): no inline script.
  expect(csp.match(/'unsafe-inline'/g) ?? []).toHaveLength(1);
  expect(csp).toContain("style-src-attr 'unsafe-inline'");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
  return csp.match(/'nonce-([^']+)'/)![1];
}

test("finding 8: every page sends a nonce CSP and security headers, and works under it without one violation", async ({ page }) => {
  test.setTimeout(120_000);
  // Tall enough that the virtualized conversation renders its media (older messages) too.
  await page.setViewportSize({ width: 1280, height: 5200 });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/content security policy/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __cspViolations?: string[] };
      (w.__cspViolations ??= []).push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
    });
  });
  const nonces = new Set<string>();
  const reported = async () => page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);

  // Signed out: the redirect to sign-in, and the sign-in page itself.
  const login = await page.goto("/history");
  nonces.add(expectPageHeaders(login!.headers()));
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect(page.getByRole("heading", { name: "Iniciar sesión" })).toBeVisible();
  expect(await reported()).toEqual([]);
  await submitLogin(page);
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByTestId("agent-name")).toHaveText(DEMO.agentName);

  for (const [, url, ready] of PAGES) {
    const res = await page.goto(url);
    nonces.add(expectPageHeaders(res!.headers()));
    await ready(page);
    expect(await reported(), url).toEqual([]);
  }
  // A fresh nonce for every response.
  expect(nonces.size).toBe(PAGES.length + 1);
  expect(violations).toEqual([]);

  // Markup slipped into the page does not run: inline handlers have no nonce.
  await page.evaluate(() => {
    const div = document.createElement("div");
    div.innerHTML = `<img src="/no-such-image.png" onerror="window.__injected = 1" alt="">`;
    document.body.append(div);
  });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations?.length ?? 0))
    .toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();

  // API JSON keeps its own headers: nosniff and the API's policy (it loads nothing), no page policy.
  const json = await api(page).get("/api/v1/auth/me");
  expect(json.status()).toBe(200);
  expect(json.headers()["x-content-type-options"]).toBe("nosniff");
  expect(json.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(json.headers()["referrer-policy"]).toBe("same-origin");
});

test("finding 8: media downloads are sandboxed and never sniffed; a PDF and a recording still open in a tab", async ({ page }) => {
  await signIn(page);
  // A PDF uploaded by the agent opens in the browser's viewer, sandboxed.
  const upload = await page.request.post("/api/v1/media-upload", {
    headers: { origin: BASE_URL },
    multipart: { file: { name: "factura.pdf", mimeType: "application/pdf", buffer: PDF_MIN } },
  });
  expect(upload.status()).toBe(200);
  const { media_path: mediaPath } = (await upload.json()).data;
  let downloads = 0;
  page.on("download", () => downloads++);
  // (Chromium hands a PDF navigation to its viewer: the headers are read with a plain request.)
  const pdf = await page.request.get(`/api/v1/media/${mediaPath}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["content-security-policy"]).toBe("sandbox");
  expect(pdf.headers()["x-content-type-options"]).toBe("nosniff");
  expect(pdf.headers()["content-disposition"]).toMatch(/^inline;/);
  const opened = await page.goto(`/api/v1/media/${mediaPath}`);
  expect(opened!.status()).toBe(200);
  // Shown in the tab (a download would have failed the navigation): loaded, and nothing downloaded.
  await page.waitForLoadState("load");
  expect(page.url()).toContain(`/api/v1/media/${mediaPath}`);
  expect(downloads).toBe(0);
  await shot(page, "media-pdf-inline");

  // The demo conversation's voice note and video: sandboxed, and the recording plays in a tab.
  const from = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  const history = await api(page).get(
    `/api/v1/messages/whatsapp/history?customer_source=${DEMO.maria}&wa_number=${DEMO.number}&from_date=${from}`,
  );
  const records = (await history.json()).data as { type: string; payload: { url?: string } }[];
  const audioSrc = records.find((r) => r.type === "audio")?.payload.url;
  const videoSrc = records.find((r) => r.type === "video")?.payload.url;
  expect(audioSrc).toMatch(/\/api\/v1\/media\//);
  const video = await page.request.get(videoSrc!);
  expect(video.headers()["content-security-policy"]).toBe("sandbox allow-same-origin");
  expect(video.headers()["x-content-type-options"]).toBe("nosniff");
  const audio = await page.goto(audioSrc!);
  expect(audio!.headers()["content-security-policy"]).toBe("sandbox allow-same-origin");
  expect(audio!.headers()["x-content-type-options"]).toBe("nosniff");
  // Chromium's media page: its player loads the file (metadata read, duration known).
  await expect
    .poll(() => page.evaluate(() => document.querySelector<HTMLMediaElement>("video, audio")?.readyState ?? -1))
    .toBeGreaterThanOrEqual(1);
  expect(await page.evaluate(() => document.querySelector<HTMLMediaElement>("video, audio")!.duration)).toBeCloseTo(0.5, 1);
  expect(await page.evaluate(() => document.querySelectorAll("script").length)).toBe(0);
});

test("a malformed percent-encoding in an API path answers the ruled 400 under next start, an ordinary path is untouched", async () => {
  // Raw HTTP: a client library could normalize the path. proxy.ts runs only for API paths with a '%'.
  const raw = async (path: string) => {
    const res = await fetch(BASE_URL + path);
    return { status: res.status, body: (await res.json()) as { message: string } };
  };
  for (const path of ["/api/v1/updates/%ZZ", "/api/v1/media/%", "/api/v1/contacts/%E0%A4%A/labels"])
    expect(await raw(path), path).toEqual({ status: 400, body: { message: "La URL de la solicitud no es válida." } });
  // Well-formed encodings, and paths without any, reach the routes (401 here: no token).
  expect((await raw("/api/v1/updates/abc%20def")).status).toBe(401);
  expect((await raw("/api/v1/wa_numbers")).status).toBe(401);
});
