import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { getDb } from "@/db/client";
import { agents, apiTokens, bots, campaigns, contactLabels, contacts, labels, media, messages, templates, waNumbers } from "@/db/schema";
import { seedDemo } from "@/lib/seed/demo";
import { verifyPassword } from "@/lib/auth/password";
import { hashToken } from "@/lib/auth/tokens";
import { startServer, type TestServer } from "./helpers/server";
import { apiClient } from "./helpers/client";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PAYLOAD_TYPES = [
  "image",
  "audio",
  "video",
  "document",
  "sticker",
  "list",
  "quick_reply",
  "list_reply",
  "button_reply",
  "button",
  "text",
  "template",
  "location",
  "contacts",
  "system",
  "unknown",
  "unsupported",
  "call_permission_request",
  "call_permission_reply",
];
const STATUSES = ["RECEIVED", "QUEUED", "SENDED", "SENT", "DELIVERED", "READED", "FAILED"];

async function countsOf(teamId: number) {
  const db = await getDb();
  const n = async (table: any) => (await db.select({ n: count() }).from(table).where(eq(table.teamId, teamId)))[0].n;
  return {
    waNumbers: await n(waNumbers),
    templates: await n(templates),
    media: await n(media),
    labels: await n(labels),
    contacts: await n(contacts),
    contactLabels: await n(contactLabels),
    bots: await n(bots),
    campaigns: await n(campaigns),
    agents: await n(agents),
    messages: await n(messages),
    apiTokens: await n(apiTokens),
  };
}

describe("seedDemo", () => {
  it("is idempotent: a second run adds only a token, and a pinned token only once", async () => {
    const first = await seedDemo();
    const before = await countsOf(first.team_id);
    const second = await seedDemo();
    expect(second.created).toBe(false);
    expect(second.team_id).toBe(first.team_id);
    expect(second.token).not.toBe(first.token);
    const after = await countsOf(first.team_id);
    expect(after).toEqual({ ...before, apiTokens: before.apiTokens + 1 });

    const pinned = `wam_demo_pinned_${Date.now()}_${process.pid}`;
    const third = await seedDemo({ token: pinned });
    const fourth = await seedDemo({ token: pinned });
    expect([third.token, fourth.token]).toEqual([pinned, pinned]);
    expect(await countsOf(first.team_id)).toEqual({ ...before, apiTokens: before.apiTokens + 2 });

    // Every token it hands out authenticates, for the demo team.
    for (const token of [first.token, second.token, pinned]) {
      const res = await apiClient(server.url, token).get("/api/v1/wa_numbers");
      expect(res.status).toBe(200);
      expect(res.body.data.map((n: any) => n.number)).toEqual(["573001234567"]);
    }
    const db = await getDb();
    const [row] = await db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(pinned)));
    expect(row.teamId).toBe(first.team_id);
  });

  it("holds the whole demo: number, templates of every header format, media, labels, contacts, bots, campaign, agent", async () => {
    const { team_id: teamId } = await seedDemo();
    const db = await getDb();
    const [number] = await db.select().from(waNumbers).where(eq(waNumbers.teamId, teamId));
    expect(number).toMatchObject({ number: "573001234567", provider: "sandbox", displayName: "Tienda Demo" });

    const tpls = await db.select().from(templates).where(eq(templates.teamId, teamId));
    const headerOf = (t: (typeof tpls)[number]) => t.components.find((c) => c.type === "HEADER");
    const formats = tpls.map((t) => headerOf(t)?.format ?? "NONE").sort();
    expect(formats).toEqual(["DOCUMENT", "IMAGE", "NONE", "TEXT", "VIDEO"]);
    const textHeader = tpls.map(headerOf).find((h) => h?.format === "TEXT");
    expect(textHeader?.text).toMatch(/\{\{1\}\}/);
    expect(tpls.every((t) => t.status === "APPROVED")).toBe(true);
    expect(tpls.filter((t) => t.components.some((c) => c.type === "FOOTER")).length).toBeGreaterThanOrEqual(4);
    const buttons = tpls.flatMap((t) => t.components.flatMap((c) => (c.type === "BUTTONS" ? c.buttons : [])));
    expect(buttons.some((b) => b.type === "QUICK_REPLY" && b.payload)).toBe(true);
    expect(buttons.some((b) => b.type === "URL" && b.url.startsWith("https://"))).toBe(true);

    // Each media template's default attachment is a stored file that upload sniffing accepts as its extension.
    const expected: Record<string, string> = { IMAGE: "png", DOCUMENT: "pdf", VIDEO: "mp4" };
    for (const t of tpls.filter((t) => headerOf(t) && headerOf(t)!.format !== "TEXT")) {
      const format = headerOf(t)!.format;
      expect(t.defaultMediaPath, t.name).toMatch(new RegExp(`^uploads/team${teamId}/[0-9a-f-]{36}\\.${expected[format]}$`));
      const [file] = await db
        .select()
        .from(media)
        .where(and(eq(media.teamId, teamId), eq(media.path, t.defaultMediaPath!)));
      expect((await fileTypeFromBuffer(file.content))?.ext, t.name).toBe(expected[format]);
      expect(file.size).toBe(file.content.length);
    }
    for (const t of tpls.filter((t) => !headerOf(t) || headerOf(t)!.format === "TEXT")) expect(t.defaultMediaPath).toBeNull();

    const labelRows = await db.select().from(labels).where(eq(labels.teamId, teamId));
    expect(labelRows.length).toBeGreaterThanOrEqual(8);
    expect(new Set(labelRows.map((l) => l.bgColor)).size).toBe(labelRows.length);
    expect(labelRows.every((l) => /^#[0-9a-f]{6}$/.test(l.bgColor) && /^#[0-9a-f]{6}$/.test(l.textColor))).toBe(true);

    const contactRows = await db.select().from(contacts).where(eq(contacts.teamId, teamId));
    expect(contactRows.length).toBeGreaterThanOrEqual(10);
    const assigned = await db.select().from(contactLabels).where(eq(contactLabels.teamId, teamId));
    const perContact = contactRows.map((c) => assigned.filter((a) => a.contactId === c.id).length);
    expect(Math.min(...perContact)).toBe(0);
    expect(Math.max(...perContact)).toBe(5);
    expect(contactRows.find((c) => c.customerId === "cus_maria")).toMatchObject({ name: "María López", customerNumber: "573009876543" });

    const botRows = await db.select().from(bots).where(eq(bots.teamId, teamId));
    expect(botRows.length).toBeGreaterThanOrEqual(2);
    expect(botRows.filter((b) => b.isDefault).map((b) => b.name)).toEqual(["Asistente"]);
    const campaignRows = await db.select().from(campaigns).where(eq(campaigns.teamId, teamId));
    expect(campaignRows.map((c) => c.name)).toContain("Promo Navidad");

    const [agent] = await db.select().from(agents).where(eq(agents.email, "agente@demo.local"));
    expect(agent).toMatchObject({ teamId, name: "Ana Agente", role: "owner" });
    expect(await verifyPassword("demo1234", agent.passwordHash)).toBe(true);
  });

  it("has a conversation with María holding every payload type of 2.5, every status and every sender", async () => {
    const { team_id: teamId, token } = await seedDemo();
    const res = await apiClient(server.url, token).get(
      `/api/v1/messages/whatsapp/history?wa_number=573001234567&customer_source=cus_maria&order=ASC&from_date=${new Date(
        Date.now() - 7 * 86_400_000,
      )
        .toISOString()
        .slice(0, 10)}`,
    );
    expect(res.status).toBe(200);
    const records: any[] = res.body.data;
    for (const type of PAYLOAD_TYPES)
      expect(
        records.some((r) => r.type === type),
        type,
      ).toBe(true);
    expect(records.some((r) => r.type === "text" && r.payload.referral?.ctwa_clid && r.payload.referral.source_type === "ad")).toBe(true);
    expect(new Set(records.map((r) => r.status))).toEqual(new Set(STATUSES));
    expect(new Set(records.map((r) => r.sender))).toEqual(new Set(["CUSTOMER", "AGENT", "BOT", "SYSTEM"]));
    // The QUEUED example is not due: a worker running beside the demo leaves it QUEUED.
    const queued = await (
      await getDb()
    )
      .select({ nextAttemptAt: messages.nextAttemptAt })
      .from(messages)
      .where(and(eq(messages.teamId, teamId), eq(messages.status, "QUEUED")));
    expect(queued.length).toBeGreaterThan(0);
    for (const q of queued) expect(q.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    for (const r of records) {
      if (r.direction === "INBOUND") expect(r.status).toBe("RECEIVED");
      else expect(r.status).not.toBe("RECEIVED");
      if (r.sender === "AGENT") expect([r.agent_id > 0, r.agent_name]).toEqual([true, "Ana Agente"]);
      else expect([r.agent_id, r.agent_name]).toEqual([0, null]);
    }
    const ids = records.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(records.map((r) => r.timestamp)).toEqual(records.map((r) => r.timestamp).sort((a, b) => a - b));

    // Payload fields exactly as 2.5 names them, for a sample of shapes.
    const byType = (t: string) => records.find((r) => r.type === t)!.payload;
    expect(Object.keys(byType("image")).sort()).toEqual(["caption", "contentType", "id", "sha256", "url"]);
    expect(Object.keys(byType("audio")).sort()).toEqual(["contentType", "id", "url"]);
    expect(Object.keys(byType("video")).sort()).toEqual(["caption", "contentType", "filename", "id", "sha256", "url"]);
    expect(Object.keys(byType("document")).sort()).toEqual(["caption", "contentType", "filename", "id", "sha256", "url"]);
    expect(Object.keys(byType("sticker")).sort()).toEqual(["animated", "contentType", "id", "sha256", "url"]);
    expect(Object.keys(byType("location")).sort()).toEqual(["address", "latitude", "longitude", "name"]);
    expect(Object.keys(byType("system")).sort()).toEqual(["body", "new_wa_id", "type"]);
    expect(byType("unknown")).toMatchObject({ code: expect.any(Number), error_data: { details: expect.any(String) } });
    expect(Object.keys(byType("unsupported")).sort()).toEqual(["code", "details", "title"]);
    expect(byType("call_permission_reply")).toMatchObject({ response: "accept", is_permanent: false, response_source: "user_action" });
    expect(Array.isArray(byType("contacts"))).toBe(true);
    expect(byType("list").items[0].rows[0]).toEqual({ id: expect.any(String), title: expect.any(String), description: expect.any(String) });
    expect(byType("quick_reply").content).toEqual({ type: "text", header: expect.any(String), text: expect.any(String) });

    // Media URLs point at files of the team served by the media endpoint.
    const db = await getDb();
    const paths = new Set((await db.select({ path: media.path }).from(media).where(eq(media.teamId, teamId))).map((m) => m.path));
    for (const r of records.filter((r) => ["image", "audio", "video", "document", "sticker"].includes(r.type))) {
      const prefix = "http://app.test/api/v1/media/";
      expect(r.payload.url.startsWith(prefix), r.payload.url).toBe(true);
      expect(paths.has(r.payload.url.slice(prefix.length))).toBe(true);
    }
    // A sent media template shows the attachment it carried (ruling 11) and its filled-in body.
    const promo = records.find((r) => r.type === "template" && r.payload.name === "promo_navidad")!.payload;
    expect(promo.components[0].example.header_handle[0]).toMatch(/^http:\/\/app\.test\/api\/v1\/media\/uploads\/team\d+\/.+\.png$/);
    expect(promo.components[1].text).toContain("María");

    // Every message of the conversation is inside the last 7 days, so the default views show it all.
    const [maria] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.teamId, teamId), eq(contacts.customerId, "cus_maria")));
    const [{ n }] = await db.select({ n: count() }).from(messages).where(eq(messages.contactId, maria.id));
    expect(records).toHaveLength(n);

    const failed = await db
      .select()
      .from(messages)
      .where(and(eq(messages.teamId, teamId), eq(messages.status, "FAILED")));
    expect(failed.length).toBeGreaterThan(0);
    for (const m of failed) expect(m.error).toMatchObject({ code: expect.any(Number), title: expect.any(String) });
  });
});
