import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { selectAudienceContacts } from "@/lib/audiences/service";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createNumber } from "../helpers/factories";
import { broadcastMessages, broadcastTeam, body, createContact } from "./helpers";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

// Broadcasts select their recipients with lib/audiences (one rule, one query, one 422).
describe("broadcast audience = lib/audiences' audience", () => {
  it("enqueues exactly the contacts the size endpoint counts (any AND all, minus exclude, with a number)", async () => {
    const t = await broadcastTeam();
    const number = await createNumber(t.team.id);
    const api = apiClient(server.url, t.team.token);
    const { vip, promo, baja } = t.labels;
    const vp = await createContact(t.team.id, { name: "Ana", labelIds: [vip.id, promo.id] });
    await createContact(t.team.id, { name: "Beto", labelIds: [vip.id] }); // lacks promo (labels_all)
    await createContact(t.team.id, { name: "Caro", labelIds: [vip.id, promo.id, baja.id] }); // excluded
    await createContact(t.team.id, { name: "Dani", customerNumber: null, labelIds: [vip.id, promo.id] }); // no number
    const vp2 = await createContact(t.team.id, { name: "Eva", labelIds: [promo.id, vip.id] });
    const audience = { labels_any: [vip.id, baja.id], labels_all: [promo.id], labels_exclude: [baja.id] };

    const size = await api.get(`/api/v1/audiences/size?any=${vip.id},${baja.id}&all=${promo.id}&exclude=${baja.id}`);
    expect(size.body.data.size).toBe(2);
    const res = await api.post("/api/v1/broadcasts", body({ wa_number: number.number, template_name: t.template.name, audience }));
    expect(res.status).toBe(201);
    expect(res.body.data.counts.recipients).toBe(2);
    const rows = await broadcastMessages(t.team.id, res.body.data.id);
    expect(rows.map((r) => r.contactId).sort((a, b) => a! - b!)).toEqual([vp.id, vp2.id].sort((a, b) => a - b));

    // Keyset pages, as the enqueue reads them.
    const db = await getDb();
    const first = await selectAudienceContacts(db, { teamId: t.team.id, audience, afterId: 0, limit: 1 });
    const second = await selectAudienceContacts(db, { teamId: t.team.id, audience, afterId: first[0].id, limit: 1 });
    const third = await selectAudienceContacts(db, { teamId: t.team.id, audience, afterId: second[0].id, limit: 1 });
    expect([...first, ...second].map((c) => c.id)).toEqual([vp.id, vp2.id]);
    expect(third).toEqual([]);
  });

  it("refuses a bad label id on the list, keyed audience.labels_*, like the audiences schema", async () => {
    const t = await broadcastTeam();
    const number = await createNumber(t.team.id);
    const api = apiClient(server.url, t.team.token);
    const res = await api.post(
      "/api/v1/broadcasts",
      body({
        wa_number: number.number,
        template_name: t.template.name,
        audience: { labels_any: [t.labels.vip.id, "x"], labels_all: [-1] },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      "audience.labels_any": ["Cada etiqueta debe indicarse con un número entero positivo."],
      "audience.labels_all": ["Cada etiqueta debe indicarse con un número entero positivo."],
    });
  });
});
