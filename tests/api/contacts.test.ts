import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { replicaCaughtUp } from "../helpers/replica";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createTeam } from "../helpers/factories";
import { createContact as createContactService } from "@/lib/contacts/service";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { getDb } from "@/db/client";
import { conversations } from "@/db/schema";
import { and, eq } from "drizzle-orm";
import { insertMessages } from "../helpers/history-factories";
import { createNumber } from "../helpers/factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PATH = "/api/v1/contacts";
const ctxOf = (teamId: number): AuthContext => ({ teamId, actor: { kind: "token", tokenId: 0 } });
const labelDto = (l: { id: number; title: string; description: string | null; bgColor: string; textColor: string }) => ({
  id: l.id,
  title: l.title,
  description: l.description,
  bg_color: l.bgColor,
  text_color: l.textColor,
});

describe("GET /api/v1/contacts", () => {
  it("lists the team's contacts with their labels (ordered by label id), 20 per page by default", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const [l1, l2, l3] = [await createLabel(team.id), await createLabel(team.id), await createLabel(team.id)];
    const first = await createContact(team.id, { name: "Ana", labelIds: [l3.id, l1.id] });
    const rest = [];
    for (let i = 0; i < 21; i++) rest.push(await createContact(team.id, { labelIds: i === 0 ? [l2.id] : [] }));
    await createContact(other.id, { labelIds: [(await createLabel(other.id)).id] });
    const api = apiClient(server.url, team.token);

    const page1 = await api.get(PATH);
    expect(page1.status).toBe(200);
    expect(typeof page1.body.message).toBe("string");
    expect(page1.body.pagination).toEqual({ total_items: 22, items_per_page: 20, current_page: 1, total_pages: 2 });
    expect(page1.body.data).toHaveLength(20);
    expect(page1.body.data[0]).toEqual({
      id: first.id,
      name: "Ana",
      customer_number: first.customerNumber,
      customer_id: first.customerId,
      labels: [labelDto(l1), labelDto(l3)],
      last_activity_at: null,
      marketing_opt_out: null,
    });
    expect(page1.body.data[1].labels).toEqual([labelDto(l2)]);
    expect(page1.body.data[2].labels).toEqual([]);

    const page2 = await api.get(`${PATH}?page=2`);
    expect(page2.body.data.map((c: any) => c.id)).toEqual(rest.slice(19).map((c) => c.id));
    const big = await api.get(`${PATH}?per_page=100`);
    expect(big.body.data).toHaveLength(22);
    expect(big.body.data.map((c: any) => c.id)).toEqual([first, ...rest].map((c) => c.id));
  });

  it("searches by name (case-insensitive), by the digits of a number, and by exact customer_id", async () => {
    const team = await createTeam();
    const maria = await createContact(team.id, { name: "Maria Lopez", customerNumber: "573009876543", customerId: "cus_maria" });
    const pedro = await createContact(team.id, { name: "Pedro Perez", customerNumber: "5215551234567", customerId: "wa_77" });
    const api = apiClient(server.url, team.token);
    const ids = async (search: string) => (await api.get(`${PATH}?search=${encodeURIComponent(search)}`)).body.data.map((c: any) => c.id);

    expect(await ids("maria")).toEqual([maria.id]);
    expect(await ids("LOPEZ")).toEqual([maria.id]);
    expect(await ids("+57 300 987")).toEqual([maria.id]);
    expect(await ids("555-1234")).toEqual([pedro.id]);
    expect(await ids("cus_maria")).toEqual([maria.id]);
    expect(await ids("wa_77")).toEqual([pedro.id]);
    expect(await ids("wa_7")).toEqual([]);
    expect(await ids("PE")).toEqual([maria.id, pedro.id]);
    expect(await ids("987 6543")).toEqual([maria.id]);
    // LIKE wildcards in the search are literal characters.
    expect(await ids("%")).toEqual([]);
    expect(await ids("_")).toEqual([]);
    expect(await ids("")).toEqual([maria.id, pedro.id]);
    const res = await api.get(`${PATH}?search=perez`);
    expect(res.body.pagination).toEqual({ total_items: 1, items_per_page: 20, current_page: 1, total_pages: 1 });
  });

  it("validates page, per_page (max 100) and search", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const notInt = await api.get(`${PATH}?per_page=x`);
    expect(notInt.status).toBe(422);
    expect(notInt.body.message).toBe("El parámetro page/per_page debe ser un número entero.");
    const tooBig = await api.get(`${PATH}?per_page=101`);
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.message).toBe("El campo per_page no puede ser mayor a la cantidad máxima permitida de 100.");
    const zero = await api.get(`${PATH}?page=0`);
    expect(zero.status).toBe(422);
    expect(zero.body.message).toBe("El campo page debe ser al menos 1.");
    const longSearch = await api.get(`${PATH}?search=${"a".repeat(101)}`);
    expect(longSearch.status).toBe(422);
    expect(longSearch.body.errors.search).toEqual(["El campo search no puede tener más de 100 caracteres."]);
  });

  it("never shows another team's contacts, even searched by their exact customer_id or number", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const theirs = await createContact(other.id, { name: "Secreto" });
    const api = apiClient(server.url, team.token);
    for (const search of [theirs.customerId!, theirs.customerNumber!, "Secreto"]) {
      const res = await api.get(`${PATH}?search=${search}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination.total_items).toBe(0);
    }
  });

  it("filters by label_id (repeatable): the contacts holding any of them, with the search and paging", async () => {
    const team = await createTeam();
    const [vip, mayorista, unused] = [await createLabel(team.id), await createLabel(team.id), await createLabel(team.id)];
    const ana = await createContact(team.id, { name: "Ana Ruiz", labelIds: [vip.id] });
    const beto = await createContact(team.id, { name: "Beto Ruiz", labelIds: [vip.id, mayorista.id] });
    const caro = await createContact(team.id, { name: "Caro Díaz", labelIds: [mayorista.id] });
    await createContact(team.id, { name: "Dani Ruiz" });
    const api = apiClient(server.url, team.token);
    const ids = async (q: string) => {
      const res = await api.get(`${PATH}?${q}`);
      expect(res.status, q).toBe(200);
      return { ids: res.body.data.map((c: any) => c.id), total: res.body.pagination.total_items };
    };

    expect(await ids(`label_id=${vip.id}`)).toEqual({ ids: [ana.id, beto.id], total: 2 });
    // Any of them, each contact once even when it holds several.
    expect(await ids(`label_id=${vip.id}&label_id=${mayorista.id}`)).toEqual({ ids: [ana.id, beto.id, caro.id], total: 3 });
    expect(await ids(`label_id=${vip.id}&label_id=${vip.id}`)).toEqual({ ids: [ana.id, beto.id], total: 2 });
    expect(await ids(`label_id=${unused.id}`)).toEqual({ ids: [], total: 0 });
    expect(await ids(`label_id=${mayorista.id}&search=ruiz`)).toEqual({ ids: [beto.id], total: 1 });
    expect(await ids(`label_id=${mayorista.id}&label_id=${vip.id}&per_page=2&page=2`)).toEqual({ ids: [caro.id], total: 3 });
    // The contacts keep all their labels, not only the filtered ones.
    const res = await api.get(`${PATH}?label_id=${mayorista.id}&search=beto`);
    expect(res.body.data[0].labels.map((l: any) => l.id)).toEqual([vip.id, mayorista.id]);
  });

  it("answers 422 for a label_id that is not one of the team's labels, or not an id, as the label routes do", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const mine = await createLabel(team.id);
    const theirs = await createLabel(other.id);
    await createContact(other.id, { labelIds: [theirs.id] });
    const api = apiClient(server.url, team.token);
    for (const q of [`label_id=${theirs.id}`, `label_id=${mine.id}&label_id=${theirs.id}`, "label_id=999999999", "label_id=9999999999"]) {
      const res = await api.get(`${PATH}?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body, q).toEqual({ message: "Etiqueta no encontrada.", errors: { label_id: ["Etiqueta no encontrada."] } });
    }
    for (const q of ["label_id=abc", "label_id=0", "label_id=-1", "label_id=1.5", "label_id="]) {
      const res = await api.get(`${PATH}?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.message, q).toBe("Cada etiqueta debe indicarse con un número entero positivo.");
      expect(Object.keys(res.body.errors)[0], q).toMatch(/^label_id/);
    }
    const many = Array.from({ length: 21 }, () => `label_id=${mine.id}`).join("&");
    const tooMany = await api.get(`${PATH}?${many}`);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual({
      message: "No puede filtrar por más de 20 etiquetas.",
      errors: { label_id: ["No puede filtrar por más de 20 etiquetas."] },
    });
  });

  it("shows each contact's last activity: the newest last_message_at of its conversations, null without any", async () => {
    const team = await createTeam();
    const [n1, n2] = [await createNumber(team.id), await createNumber(team.id)];
    const busy = await createContact(team.id, { name: "Con dos conversaciones" });
    const quiet = await createContact(team.id, { name: "Sin mensajes" });
    await insertMessages({ team, number: n1, contact: busy }, [{}]);
    await insertMessages({ team, number: n2, contact: busy }, [
      { direction: "OUTBOUND", sender: "SYSTEM", status: "QUEUED", type: "text" },
    ]);
    const db = await getDb();
    // Set apart so the newest is unmistakable: the answer is read from the conversations rows.
    const setAt = (numberId: number, at: string) =>
      db
        .update(conversations)
        .set({ lastMessageAt: new Date(at) })
        .where(and(eq(conversations.teamId, team.id), eq(conversations.waNumberId, numberId), eq(conversations.contactId, busy.id)));
    await setAt(n1.id, "2026-03-01T10:00:00Z");
    await setAt(n2.id, "2026-05-02T08:30:15.250Z");
    // Written beside the API: the scale pass's replica serves the list once it has replayed them.
    await replicaCaughtUp();
    const api = apiClient(server.url, team.token);
    const list = (await api.get(PATH)).body.data;
    expect(list.map((c: any) => [c.id, c.last_activity_at])).toEqual([
      [busy.id, "2026-05-02T08:30:15.250Z"],
      [quiet.id, null],
    ]);
    await setAt(n1.id, "2026-06-01T00:00:00Z");
    await replicaCaughtUp();
    expect((await api.get(`${PATH}?search=${busy.customerId}`)).body.data[0].last_activity_at).toBe("2026-06-01T00:00:00.000Z");
    // A new message moves it on (the message trigger keeps the conversation row).
    const before = Date.now();
    await insertMessages({ team, number: n2, contact: busy }, [{}]);
    await replicaCaughtUp();
    const moved = (await api.get(`${PATH}?search=${busy.customerId}`)).body.data[0].last_activity_at;
    expect(new Date(moved).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // Another team's conversation with the same number never shows.
    const other = await createTeam();
    const theirs = await createContact(other.id, { customerNumber: quiet.customerNumber, customerId: quiet.customerId });
    await insertMessages({ team: other, number: await createNumber(other.id), contact: theirs }, [{}]);
    await replicaCaughtUp();
    expect((await api.get(`${PATH}?search=${quiet.customerId}`)).body.data[0].last_activity_at).toBeNull();
  });

  it("answers 401 without or with a wrong token", async () => {
    const none = await apiClient(server.url).get(PATH);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: "Unauthenticated." });
    expect((await apiClient(server.url, "wam_wrong").get(PATH)).status).toBe(401);
  });
});

describe("createContact (service used by the admin CLI)", () => {
  it("stores the number sanitized and the contact shows up in the listing", async () => {
    const team = await createTeam();
    const created = await createContactService({
      ctx: ctxOf(team.id),
      input: { name: "Luis", customer_number: "+57 (300) 111-2222", customer_id: "cus_luis" },
    });
    expect(created).toEqual({
      id: expect.any(Number),
      name: "Luis",
      customer_number: "573001112222",
      customer_id: "cus_luis",
      labels: [],
      last_activity_at: null,
      marketing_opt_out: null,
    });
    const noName = await createContactService({ ctx: ctxOf(team.id), input: { customer_number: "0057 300 111 3333" } });
    expect(noName).toMatchObject({ name: "", customer_number: "573001113333", customer_id: null });
    const list = await apiClient(server.url, team.token).get(PATH);
    expect(list.body.data).toEqual([created, noName]);
  });

  it("refuses invalid and duplicate numbers and customer_ids with 422, per team", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const ctx = ctxOf(team.id);
    await createContactService({ ctx, input: { name: "A", customer_number: "573001114444", customer_id: "cus_a" } });
    const fail = async (input: Parameters<typeof createContactService>[0]["input"]) => {
      try {
        await createContactService({ ctx, input });
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        return { status: (err as ApiError).status, message: (err as ApiError).message, errors: (err as ApiError).errors };
      }
      throw new Error("expected a refusal");
    };
    expect(await fail({ customer_number: "12" })).toEqual({
      status: 422,
      message: "El número de teléfono no es válido.",
      errors: { customer_number: ["El número de teléfono no es válido."] },
    });
    expect((await fail({ customer_number: "abc" })).message).toBe("El número de teléfono no es válido.");
    expect((await fail({ customer_number: "+57 300 111 4444" })).message).toBe("Ya existe un contacto con ese número.");
    expect((await fail({ customer_number: "573001115555", customer_id: "cus_a" })).message).toBe(
      "Ya existe un contacto con ese customer_id.",
    );
    // The same number in another team is another contact.
    const elsewhere = await createContactService({ ctx: ctxOf(other.id), input: { customer_number: "573001114444" } });
    expect(elsewhere.customer_number).toBe("573001114444");
  });

  it("creates one contact when the same number is added in parallel", async () => {
    const team = await createTeam();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => createContactService({ ctx: ctxOf(team.id), input: { customer_number: "573001116666" } })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") {
        expect(r.reason).toBeInstanceOf(ApiError);
        expect(r.reason.message).toBe("Ya existe un contacto con ese número.");
      }
    }
  });
});
