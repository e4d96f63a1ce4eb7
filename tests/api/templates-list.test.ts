import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createNumber, createTeam, createTemplate, textTemplateComponents } from "../helpers/factories";
import { tokenCtx, uploadFor } from "../helpers/send-factories";
import { pdfBytes } from "../fixtures/media-bytes";
import { addTemplate, BUTTON_INDEX_ORDER } from "@/lib/templates/service";
import type { TemplateButton } from "@/lib/templates/schemas";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";

const LIST = "/api/v1/message_templates";
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("GET /api/v1/message_templates", () => {
  it("lists the team's templates in the 2.1 structure plus default_media_path", async () => {
    const team = await createTeam();
    const tpl = await createTemplate(team.id, { name: "aviso_pedido", externalId: "1234567890", defaultMediaPath: null });
    const res = await apiClient(server.url, team.token).get(LIST);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Plantillas obtenidas correctamente.");
    expect(res.body.data).toEqual([
      {
        id: "1234567890",
        name: "aviso_pedido",
        status: "APPROVED",
        category: "UTILITY",
        language: "es_CO",
        rejected_reason: "NONE",
        components: textTemplateComponents,
        default_media_path: null,
        quality_score: "UNKNOWN",
        wa_number: null,
        updated_at: tpl.updatedAt.toISOString(),
      },
    ]);
    expect(res.body.pagination).toEqual({ total_items: 1, items_per_page: 50, current_page: 1, total_pages: 1 });
    expect(tpl.id).toBeGreaterThan(0);
  });

  it("uses our id, as a string, for a template without a provider id", async () => {
    const team = await createTeam();
    const tpl = await createTemplate(team.id);
    const res = await apiClient(server.url, team.token).get(LIST);
    expect(res.body.data[0].id).toBe(String(tpl.id));
  });

  it("with wa_number, lists that number's templates and the team-wide ones", async () => {
    const team = await createTeam();
    const n1 = await createNumber(team.id);
    const n2 = await createNumber(team.id);
    await createTemplate(team.id, { name: "a_global" });
    await createTemplate(team.id, { name: "b_numero_uno", waNumberId: n1.id });
    await createTemplate(team.id, { name: "c_numero_dos", waNumberId: n2.id });
    const api = apiClient(server.url, team.token);
    const names = async (q: string) => (await api.get(`${LIST}${q}`)).body.data.map((t: any) => t.name);
    expect(await names("")).toEqual(["a_global", "b_numero_uno", "c_numero_dos"]);
    expect(await names(`?wa_number=${n1.number}`)).toEqual(["a_global", "b_numero_uno"]);
    expect(await names(`?wa_number=%2B${n2.number}`)).toEqual(["a_global", "c_numero_dos"]);
  });

  it("searches by name, treating % and _ literally", async () => {
    const team = await createTeam();
    await createTemplate(team.id, { name: "promo_junio" });
    await createTemplate(team.id, { name: "promojulio" });
    await createTemplate(team.id, { name: "factura" });
    const api = apiClient(server.url, team.token);
    const names = async (q: string) => (await api.get(`${LIST}?search=${encodeURIComponent(q)}`)).body.data.map((t: any) => t.name);
    expect(await names("PROMO")).toEqual(["promo_junio", "promojulio"]);
    expect(await names("o_j")).toEqual(["promo_junio"]);
    expect(await names("%")).toEqual([]);
  });

  it("paginates, and enforces the page/per_page messages", async () => {
    const team = await createTeam();
    for (const name of ["t1", "t2", "t3"]) await createTemplate(team.id, { name });
    const api = apiClient(server.url, team.token);
    const page2 = await api.get(`${LIST}?per_page=2&page=2`);
    expect(page2.body.data.map((t: any) => t.name)).toEqual(["t3"]);
    expect(page2.body.pagination).toEqual({ total_items: 3, items_per_page: 2, current_page: 2, total_pages: 2 });
    const big = await api.get(`${LIST}?per_page=101`);
    expect(big.status).toBe(422);
    expect(big.body.message).toBe("El campo per_page no puede ser mayor a la cantidad máxima permitida de 100.");
    const nan = await api.get(`${LIST}?page=abc`);
    expect(nan.status).toBe(422);
    expect(nan.body.message).toBe("El parámetro page/per_page debe ser un número entero.");
  });

  it("answers 401 without a valid token", async () => {
    for (const token of [undefined, "wam_wrong"]) {
      const res = await apiClient(server.url, token).get(LIST);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Unauthenticated." });
    }
  });

  it("never shows another team's templates, nor filters by its number", async () => {
    const owner = await createTeam();
    const ownerNumber = await createNumber(owner.id);
    await createTemplate(owner.id, { name: "secreta" });
    const other = await createTeam();
    const api = apiClient(server.url, other.token);
    const list = await api.get(LIST);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    const searched = await api.get(`${LIST}?search=secreta`);
    expect(searched.body.data).toEqual([]);
    const byNumber = await api.get(`${LIST}?wa_number=${ownerNumber.number}`);
    expect(byNumber.status).toBe(422);
    expect(byNumber.body).toEqual({ message: WA_NUMBER_NOT_REGISTERED, errors: { wa_number: [WA_NUMBER_NOT_REGISTERED] } });
  });
});

describe("addTemplate (admin CLI / sync)", () => {
  const doc = {
    name: "bienvenida",
    language: "es_MX",
    category: "MARKETING" as const,
    components: [{ type: "BODY" as const, text: "Hola {{1}}" }],
  };

  it("adds a template, and refreshes it when added again with the same name and language", async () => {
    const team = await createTeam();
    const ctx = tokenCtx(team.id);
    const first = await addTemplate({ ctx, input: doc });
    expect(first).toMatchObject({ name: "bienvenida", status: "APPROVED", rejected_reason: "NONE", default_media_path: null });
    const again = await addTemplate({ ctx, input: { ...doc, id: "ext-9", components: [{ type: "BODY", text: "Buenas {{1}}" }] } });
    expect(again.id).toBe("ext-9");
    const list = await apiClient(server.url, team.token).get(LIST);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].components).toEqual([{ type: "BODY", text: "Buenas {{1}}" }]);
  });

  it("binds a template to a number of the team, and checks the default attachment", async () => {
    const team = await createTeam();
    const ctx = tokenCtx(team.id);
    const number = await createNumber(team.id);
    const upload = await uploadFor(team.id, pdfBytes(), "cat.pdf");
    const doc2 = {
      ...doc,
      name: "catalogo",
      wa_number: number.number,
      default_media_path: upload.media_path,
      components: [{ type: "HEADER" as const, format: "DOCUMENT" as const }, ...doc.components],
    };
    expect(await addTemplate({ ctx, input: doc2 })).toMatchObject({ default_media_path: upload.media_path });
    const other = await createTeam();
    await expect(addTemplate({ ctx: tokenCtx(other.id), input: { ...doc2, wa_number: null } })).rejects.toMatchObject({
      status: 422,
      message: `El archivo por defecto debe estar en uploads/team${other.id}/ o ser una URL http(s).`,
    });
    await expect(addTemplate({ ctx: tokenCtx(other.id), input: { ...doc2, default_media_path: null } })).rejects.toMatchObject({
      status: 422,
      message: WA_NUMBER_NOT_REGISTERED,
    });
  });

  it("stores a button's index (Meta's position) only where it differs from its position, in order", async () => {
    const team = await createTeam();
    const ctx = tokenCtx(team.id);
    const url = { type: "URL" as const, text: "Seguir", url: "https://tienda.test/{{1}}" };
    const reply = { type: "QUICK_REPLY" as const, text: "Gracias", payload: "OK" };
    const withButtons = (buttons: TemplateButton[]) => ({
      ...doc,
      components: [...doc.components, { type: "BUTTONS" as const, buttons }],
    });
    const added = await addTemplate({
      ctx,
      input: withButtons([
        { ...url, index: 0 },
        { ...reply, index: 3 },
      ]),
    });
    expect(added.components[1]).toEqual({ type: "BUTTONS", buttons: [url, { ...reply, index: 3 }] });
    const wrongs: TemplateButton[][] = [
      [
        { ...url, index: 1 },
        { ...reply, index: 1 },
      ],
      [url, { ...reply, index: 0 }],
    ];
    for (const wrong of wrongs) {
      await expect(addTemplate({ ctx, input: withButtons(wrong) })).rejects.toMatchObject({
        status: 422,
        message: BUTTON_INDEX_ORDER,
      });
    }
  });

  it("refuses a template without exactly one BODY, or an invalid document", async () => {
    const ctx = tokenCtx((await createTeam()).id);
    await expect(addTemplate({ ctx, input: { ...doc, components: [{ type: "FOOTER", text: "x" }] } })).rejects.toMatchObject({
      status: 422,
      message: "La plantilla debe tener exactamente un componente BODY.",
    });
    await expect(addTemplate({ ctx, input: { ...doc, name: "Con Espacios" } })).rejects.toThrow();
  });
});
