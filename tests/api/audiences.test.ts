import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactLabels, contacts } from "@/db/schema";
import { selectAudienceContacts } from "@/lib/audiences/service";
import { transaction } from "@/db/client";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createLabel, createTeam, writeForTeam } from "../helpers/factories";
import { audienceSizeResponse } from "@/lib/audiences/schemas";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A deterministic pseudo-random sequence (so a failure can be replayed). */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** 400 contacts holding random subsets of 6 labels (up to 5 each); every 10th has no number. */
async function buildWorld(seed: number) {
  const team = await createTeam();
  const labels = [];
  for (let i = 0; i < 6; i++) labels.push((await createLabel(team.id, { title: `A${i}` })).id);
  const rand = rng(seed);
  const people: { id: number; hasNumber: boolean; labels: Set<number> }[] = [];
  const rows = Array.from({ length: 400 }, (_, i) => ({
    teamId: team.id,
    name: `Persona ${i}`,
    customerNumber: i % 10 === 9 ? null : `5731${seed}${String(i).padStart(6, "0")}`,
    customerId: `s${seed}-${i}`,
  }));
  const inserted = await writeForTeam(team.id, (db) => db.insert(contacts).values(rows).returning());
  const pairs: (typeof contactLabels.$inferInsert)[] = [];
  for (const c of inserted) {
    const mine = new Set(labels.filter(() => rand() < 0.3).slice(0, 5));
    people.push({ id: c.id, hasNumber: c.customerNumber !== null, labels: mine });
    for (const l of mine) pairs.push({ teamId: team.id, contactId: c.id, labelId: l });
  }
  await writeForTeam(team.id, (db) => db.insert(contactLabels).values(pairs));
  return { team, labels, people };
}

/** The rule, computed by brute force over the generated set. */
function bruteForce(w: World, any: number[], all: number[], exclude: number[]) {
  return w.people
    .filter(
      (p) =>
        p.hasNumber &&
        (!any.length || any.some((l) => p.labels.has(l))) &&
        all.every((l) => p.labels.has(l)) &&
        !exclude.some((l) => p.labels.has(l)),
    )
    .map((p) => p.id);
}

describe("GET /api/v1/audiences/size", () => {
  it("matches a brute-force count for random any/all/exclude combinations", async () => {
    const w = await buildWorld(7);
    const api = apiClient(server.url, w.team.token);
    const rand = rng(99);
    const pick = (max: number) => w.labels.filter(() => rand() < max);
    let nonEmpty = 0;
    for (let i = 0; i < 40; i++) {
      let any = pick(0.3);
      const all = pick(0.2);
      const exclude = pick(0.2);
      if (!any.length && !all.length) any = [w.labels[i % 6]];
      const qs = new URLSearchParams({ any: any.join(","), all: all.join(","), exclude: exclude.join(",") });
      const res = await api.get(`/api/v1/audiences/size?${qs}`);
      expect(res.status, res.text).toBe(200);
      const expected = bruteForce(w, any, all, exclude).length;
      expect(res.body, `any=${any} all=${all} exclude=${exclude}`).toEqual({
        message: "Tamaño de la audiencia obtenido correctamente.",
        data: { size: expected, opted_out: 0 },
      });
      expect(audienceSizeResponse.parse(res.body)).toEqual(res.body);
      if (expected > 0) nonEmpty++;
    }
    // The combinations exercised the arithmetic, not just empty sets.
    expect(nonEmpty).toBeGreaterThan(10);
  });

  it("selectAudienceContacts pages the same audience in id order, numbers only", async () => {
    const w = await buildWorld(8);
    const audience = { labels_any: [w.labels[0], w.labels[1]], labels_all: [w.labels[2]], labels_exclude: [w.labels[3]] };
    const expected = bruteForce(w, audience.labels_any, audience.labels_all, audience.labels_exclude).sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(3);
    const seen: number[] = [];
    let afterId = 0;
    for (;;) {
      const page = await transaction((tx) => selectAudienceContacts(tx, { teamId: w.team.id, audience, afterId, limit: 3 }));
      if (!page.length) break;
      for (const c of page) {
        expect(c.customer_number).toMatch(/^\d+$/);
        expect(c).toEqual({
          id: c.id,
          name: expect.any(String),
          customer_number: c.customer_number,
          customer_id: expect.any(String),
          marketing_opted_out: false,
        });
      }
      seen.push(...page.map((c) => c.id));
      afterId = page.at(-1)!.id;
    }
    expect(seen).toEqual(expected);
  });

  it("is team-scoped: another team's labels answer 422 on the list holding them, and its contacts never count", async () => {
    const a = await buildWorld(11);
    const b = await buildWorld(12);
    const api = apiClient(server.url, a.team.token);
    const res = await api.get(`/api/v1/audiences/size?any=${a.labels[0]}&exclude=${b.labels[0]}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: "Etiqueta no encontrada.", errors: { exclude: ["Etiqueta no encontrada."] } });
    const missing = await api.get(`/api/v1/audiences/size?all=2147483647`);
    expect(missing.body.errors).toEqual({ all: ["Etiqueta no encontrada."] });
    // Team B's size for its own label counts only team B's contacts.
    const own = await apiClient(server.url, b.team.token).get(`/api/v1/audiences/size?any=${b.labels[0]}`);
    expect(own.body.data.size).toBe(bruteForce(b, [b.labels[0]], [], []).length);
  });

  it("validates the query with the contract's texts", async () => {
    const w = await buildWorld(13);
    const api = apiClient(server.url, w.team.token);
    const none = await api.get(`/api/v1/audiences/size?exclude=${w.labels[0]}`);
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ any: ["La audiencia debe indicar al menos una etiqueta en labels_any o labels_all."] });
    const bad = await api.get(`/api/v1/audiences/size?any=1,abc`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.any).toEqual(["Cada etiqueta debe indicarse con un número entero positivo."]);
    const zero = await api.get(`/api/v1/audiences/size?any=0`);
    expect(zero.body.errors.any).toEqual(["Cada etiqueta debe indicarse con un número entero positivo."]);
    const huge = await api.get(`/api/v1/audiences/size?any=99999999999`);
    expect(huge.status).toBe(422);
    expect((await apiClient(server.url).get(`/api/v1/audiences/size?any=1`)).status).toBe(401);
  });
});

describe("audienceSchema inside a body", () => {
  it("keys its errors audience.labels_* and normalizes the lists", async () => {
    const { z } = await import("@/lib/http/zod-es");
    const { zodFieldErrors } = await import("@/lib/http/respond");
    const { audienceSchema } = await import("@/lib/audiences/schemas");
    const body = z.object({ audience: audienceSchema });
    const errorsOf = (v: unknown) => {
      const r = body.safeParse(v);
      return r.success ? r.data : zodFieldErrors(r.error);
    };
    expect(errorsOf({ audience: { labels_exclude: [1] } })).toEqual({
      "audience.labels_any": ["La audiencia debe indicar al menos una etiqueta en labels_any o labels_all."],
    });
    expect(errorsOf({ audience: { labels_any: [1, "2"], labels_all: [0] } })).toEqual({
      "audience.labels_any": ["Cada etiqueta debe indicarse con un número entero positivo."],
      "audience.labels_all": ["Cada etiqueta debe indicarse con un número entero positivo."],
    });
    expect(errorsOf({ audience: { labels_all: [3, 3, 4] } })).toEqual({
      audience: { labels_any: [], labels_all: [3, 4], labels_exclude: [] },
    });
  });
});
