import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { LIVE_BASE_URL } from "./fixtures";
import { api, expectAccessible, signIn } from "./helpers";

// The live server runs the delivery worker (playwright.config.ts); both servers allow 127.0.0.1 URLs.
test.use({ baseURL: LIVE_BASE_URL });

const sign = (secret: string, raw: string) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

/** The integrator's endpoint: records each POST, answers 500 until told to accept. */
async function startReceiver() {
  const received: { signature: string; raw: string; status: number }[] = [];
  const state = { accept: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const status = state.accept ? 200 : 500;
      received.push({ signature: String(req.headers["x-signature-256"]), raw: Buffer.concat(chunks).toString("utf8"), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** /settings/webhooks: an endpoint made in the page; its failing delivery, resent from the log after a roll, arrives signed with the new secret. */
test("an owner creates an endpoint, rolls its secret and resends a failed delivery from the log", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page);
    await page.goto("/settings/webhooks");
    await expect(page.getByRole("heading", { level: 2, name: "Endpoints de webhook" })).toBeVisible();

    await page.getByRole("button", { name: "Añadir endpoint" }).click();
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByLabel("Descripción (opcional)").fill("CRM de pruebas");
    await page.getByRole("checkbox", { name: "contact.updated" }).check();
    await page.getByTestId("endpoint-form").getByRole("button", { name: "Añadir endpoint" }).click();
    const panel = page.getByTestId("webhook-secret");
    await expect(panel).toContainText("no se volverá a mostrar");
    const first = await panel.getByLabel("Secreto de firma").inputValue();
    expect(first).toMatch(/^whsec_/);
    await panel.getByRole("button", { name: "Listo, ya lo guardé" }).click();
    const row = page.getByTestId("endpoint-row").filter({ hasText: receiver.url });
    await expect(row.getByTestId("endpoint-state")).toHaveText("Activo");
    await expectAccessible(page);

    // An event: a contact opted out of marketing. The receiver answers 500.
    const contacts = await (await api(page).get("/api/v1/contacts?per_page=1")).json();
    const opted = await api(page).patch(`/api/v1/contacts/${contacts.data[0].id}`, { marketing_opt_out: true });
    expect(opted.status()).toBe(200);
    await expect.poll(() => receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received[0]).toMatchObject({ status: 500, signature: sign(first, receiver.received[0].raw) });

    // Roll the secret with no overlap: from now on only the new one signs.
    await row.getByRole("button", { name: "Renovar secreto" }).click();
    await row.getByLabel("El secreto actual deja de firmar").selectOption("0");
    await row.getByRole("button", { name: "Renovar", exact: true }).click();
    const rolled = await panel.getByLabel("Secreto de firma").inputValue();
    expect(rolled).not.toBe(first);
    await panel.getByRole("button", { name: "Listo, ya lo guardé" }).click();

    receiver.state.accept = true;
    const seen = receiver.received.length;
    await row.getByRole("button", { name: "Entregas" }).click();
    const delivery = row.getByTestId("delivery-row").filter({ hasText: "contact.updated" });
    await expect(delivery).toContainText("500");
    await delivery.getByRole("button", { name: "Reenviar" }).click();
    await expect(delivery.getByTestId("delivery-status")).toHaveText("Entregada");
    const accepted = receiver.received.slice(seen).find((r) => r.status === 200);
    expect(accepted).toBeDefined();
    expect(accepted!.signature).toBe(sign(rolled, accepted!.raw));
    expect(JSON.parse(accepted!.raw)).toMatchObject({ event: "contact.updated", data: { contact_id: contacts.data[0].id } });
  } finally {
    await receiver.close();
  }
});
