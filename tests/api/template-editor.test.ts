import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents, events, templateChanges, templates } from "@/db/schema";
import { templateDraftSchema, type TemplateDraftInput } from "@/lib/templates/draft-schema";
import { approveDueSandboxTemplates } from "@/lib/templates/editor-service";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { agentSession } from "../helpers/send-factories";
import { createNumber, createTeam } from "../helpers/factories";
import { createCloudNumber } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { templateRefusal } from "../fakes/graph-template-admin";
import { templateStatusUpdate } from "../fakes/account-webhooks";

/**
 * The template editor (docs/features/template-editor.md): a draft checked by Meta's rules, submitted
 * to the fake Graph as Meta documents it (or to the sandbox, which approves it after
 * SANDBOX_TEMPLATE_REVIEW_MS through the status webhook's writer), PENDING until Meta's webhook
 * approves it and only then sendable; Meta's refusal in its own words; deletion at Meta then
 * marked DELETED; another team's template and number out of reach.
 */
let server: TestServer;
let graph: FakeGraph;
let hook: string;
beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  server = await startServer();
  hook = `${server.url}/api/v1/webhooks/whatsapp`;
});
afterAll(async () => {
  await Promise.all([server.close(), graph.close()]);
});

const URL_PATH = "/api/v1/message_templates";
let seq = 0;

function draft(waNumber: string, extra: Partial<TemplateDraftInput> = {}): TemplateDraftInput {
  return {
    wa_number: waNumber,
    name: `promo_editor_${++seq}`,
    language: "es_MX",
    category: "MARKETING",
    header: { format: "IMAGE", example: "https://example.com/oferta.jpg" },
    body: { text: "Hola {{nombre}}, tu cupón te espera.", examples: { nombre: "Ana" } },
    footer: "Tienda Sol",
    buttons: [
      { type: "QUICK_REPLY", text: "Me interesa" },
      { type: "URL", text: "Ver oferta", url: "https://example.com/o/{{1}}", example: "https://example.com/o/ABC" },
    ],
    ...extra,
  };
}

async function teamWith() {
  const team = await createTeam();
  const sandbox = await createNumber(team.id);
  const cloud = await createCloudNumber(team.id);
  const owner = await agentSession(team.id, { role: "owner" });
  const api = apiClient(server.url);
  return {
    team,
    sandbox,
    cloud,
    owner,
    api,
    submit: (body: unknown) => api.post(URL_PATH, body, owner.headers),
    remove: (id: string) => api.delete(`${URL_PATH}/${id}`, undefined, owner.headers),
    send: (waNumber: string, name: string, urlButtonIndex = 1) =>
      apiClient(server.url, team.token).post("/api/v1/message_templates/send", {
        wa_number: waNumber,
        destination: "+57 300 123 4567",
        template_name: name,
        body_params: [{ key: "nombre", value: "Ana" }],
        button_params: [{ index: urlButtonIndex, value: "XYZ" }],
      }),
  };
}

async function rowOf(teamId: number, name: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.teamId, teamId), eq(templates.name, name)));
  return row;
}

/** The first Spanish message zod gives for a draft, or null when it passes. */
function refusal(input: unknown): string[] {
  const r = templateDraftSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe("the draft schema: Meta's rules", () => {
  const base = draft("5215550000000");
  it("accepts a full draft with a named variable, an image header and a URL button", () => {
    expect(refusal(base)).toEqual([]);
    expect(
      refusal({
        ...base,
        header: { format: "TEXT", text: "Oferta para {{1}}", example: "Ana" },
        body: { text: "Hola {{1}}, listo {{2}}.", examples: { 1: "Ana", 2: "ya" } },
      }),
    ).toEqual([]);
  });

  it("refuses each broken rule with its Spanish text", () => {
    const cases: [unknown, string][] = [
      [{ ...base, name: "Promo Julio" }, "El campo name solo puede tener letras minúsculas, números y guiones bajos."],
      [{ ...base, name: "a".repeat(513) }, "El campo name no puede tener más de 512 caracteres."],
      [{ ...base, category: "AUTHENTICATION" }, "El campo category debe ser MARKETING o UTILITY."],
      [{ ...base, header: { format: "TEXT", text: "x".repeat(61) } }, "El campo header.text no puede tener más de 60 caracteres."],
      [
        { ...base, header: { format: "TEXT", text: "{{nombre}} y {{otro}}", example: "Ana" } },
        "El campo header.text admite como máximo una variable.",
      ],
      [
        { ...base, header: { format: "VIDEO", example: "" } },
        "El encabezado de imagen, video o documento necesita un ejemplo: un identificador de Meta o una URL http(s).",
      ],
      [{ ...base, body: { text: "y".repeat(1025), examples: {} } }, "El campo body.text no puede tener más de 1024 caracteres."],
      [
        { ...base, body: { text: "Hola {{1}} y {{nombre}} ya.", examples: { 1: "a", nombre: "b" } } },
        "La plantilla no puede mezclar variables numeradas ({{1}}) y con nombre ({{nombre}}).",
      ],
      [
        { ...base, body: { text: "Hola {{1}} y {{3}} ya.", examples: { 1: "a", 3: "b" } } },
        "Las variables del campo body.text deben ir numeradas en orden desde {{1}} (tiene {{1}}, {{3}}).",
      ],
      [
        { ...base, body: { text: "{{nombre}}, hola.", examples: { nombre: "Ana" } } },
        "El campo body.text no puede empezar ni terminar con una variable.",
      ],
      [
        { ...base, body: { text: "Hola {{nombre}}", examples: { nombre: "Ana" } } },
        "El campo body.text no puede empezar ni terminar con una variable.",
      ],
      [{ ...base, body: { text: "Hola {{nombre}}, ya.", examples: {} } }, "Falta el ejemplo de la variable {{nombre}} en body.text."],
      [
        { ...base, body: { text: "Hola {{Nombre Completo}}, ya.", examples: {} } },
        "El campo body.text tiene una variable no válida ({{Nombre Completo}}): use {{1}}, {{2}}… o un nombre en minúsculas como {{nombre}}.",
      ],
      [{ ...base, footer: "Hasta {{1}}" }, "El campo footer no puede tener variables."],
      [{ ...base, footer: "f".repeat(61) }, "El campo footer no puede tener más de 60 caracteres."],
      [
        { ...base, buttons: Array.from({ length: 11 }, (_, i) => ({ type: "QUICK_REPLY", text: `R${i}` })) },
        "La plantilla no puede tener más de 10 botones.",
      ],
      [
        {
          ...base,
          buttons: [
            { type: "QUICK_REPLY", text: "A" },
            { type: "PHONE_NUMBER", text: "Llamar", phone_number: "+5215512345678" },
            { type: "QUICK_REPLY", text: "B" },
          ],
        },
        "Los botones de respuesta rápida deben ir juntos, antes o después de los demás botones.",
      ],
      [{ ...base, buttons: [{ type: "QUICK_REPLY", text: "x".repeat(26) }] }, "El texto del botón no puede tener más de 25 caracteres."],
      [
        { ...base, buttons: [{ type: "URL", text: "Ver", url: "https://e.com/{{1}}/x" }] },
        "La URL del botón admite una sola variable, {{1}}, y solo al final.",
      ],
      [
        { ...base, buttons: [{ type: "URL", text: "Ver", url: "https://e.com/{{1}}" }] },
        "El botón URL con variable necesita un ejemplo: la URL completa con un valor en lugar de {{1}}.",
      ],
      [
        { ...base, buttons: [{ type: "URL", text: "Ver", url: "https://e.com/{{1}}", example: "https://otro.com/a" }] },
        "El ejemplo del botón URL debe empezar como su URL (la parte antes de {{1}}).",
      ],
      [
        { ...base, buttons: [{ type: "COPY_CODE", example: "1234567890123456" }] },
        "El código de ejemplo no puede tener más de 15 caracteres.",
      ],
      [
        {
          ...base,
          buttons: [
            { type: "PHONE_NUMBER", text: "A", phone_number: "+5215512345678" },
            { type: "PHONE_NUMBER", text: "B", phone_number: "+5215512345679" },
          ],
        },
        "La plantilla no puede tener más de un botón PHONE_NUMBER.",
      ],
    ];
    for (const [input, message] of cases) expect(refusal(input), message).toContain(message);
  });

  it("answers 422 over HTTP with the field and its text", async () => {
    const s = await teamWith();
    const res = await s.submit({ ...draft(s.sandbox.number), body: { text: "Hola {{nombre}}, ya.", examples: {} } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("Falta el ejemplo de la variable {{nombre}} en body.text.");
    expect(res.body.errors["body.examples.nombre"]).toEqual(["Falta el ejemplo de la variable {{nombre}} en body.text."]);
  });
});

describe("POST /api/v1/message_templates", () => {
  it("submits to Meta as Meta documents it; PENDING until Meta's webhook approves it, then sendable", async () => {
    const s = await teamWith();
    const d = draft(s.cloud.number, {
      buttons: [
        { type: "QUICK_REPLY", text: "Me interesa" },
        { type: "PHONE_NUMBER", text: "Llamar", phone_number: "+5215512345678" },
        { type: "URL", text: "Ver oferta", url: "https://example.com/o/{{1}}", example: "https://example.com/o/ABC" },
      ],
    });
    const res = await s.submit(d);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Plantilla enviada a Meta para su revisión.");
    expect(res.body.data).toMatchObject({ name: d.name, status: "PENDING", category: "MARKETING", wa_number: s.cloud.number });
    const [call] = graph.templateWrites().filter((w) => w.wabaId === s.cloud.businessAccountId);
    expect(call.method).toBe("POST");
    expect(call.body).toEqual({
      name: d.name,
      language: "es_MX",
      category: "MARKETING",
      parameter_format: "NAMED",
      components: [
        { type: "HEADER", format: "IMAGE", example: { header_handle: ["https://example.com/oferta.jpg"] } },
        {
          type: "BODY",
          text: "Hola {{nombre}}, tu cupón te espera.",
          example: { body_text_named_params: [{ param_name: "nombre", example: "Ana" }] },
        },
        { type: "FOOTER", text: "Tienda Sol" },
        {
          type: "BUTTONS",
          buttons: [
            { type: "QUICK_REPLY", text: "Me interesa" },
            { type: "PHONE_NUMBER", text: "Llamar", phone_number: "+5215512345678" },
            { type: "URL", text: "Ver oferta", url: "https://example.com/o/{{1}}", example: ["https://example.com/o/ABC"] },
          ],
        },
      ],
    });
    const row = await rowOf(s.team.id, d.name);
    expect(row.externalId).toBe(res.body.data.id);
    // The phone button is not stored (2.1 has no place for it); the URL keeps Meta's position 2.
    expect(row.components.find((c) => c.type === "BUTTONS")).toEqual({
      type: "BUTTONS",
      buttons: [
        { type: "QUICK_REPLY", text: "Me interesa", payload: "Me interesa" },
        { type: "URL", text: "Ver oferta", url: "https://example.com/o/{{1}}", example: ["https://example.com/o/ABC"], index: 2 },
      ],
    });
    expect(row.defaultMediaPath).toBe("https://example.com/oferta.jpg");

    const pending = await s.send(s.cloud.number, d.name, 2);
    expect(pending.status).toBe(422);
    expect(pending.body.message).toBe(`La plantilla ${d.name} no está aprobada (estado: PENDING).`);

    const hooked = await graph.postAccountChanges(hook, s.cloud.secrets.appSecret, s.cloud.businessAccountId, [
      templateStatusUpdate({ id: row.externalId!, name: d.name, language: "es_MX" }, "APPROVED"),
    ]);
    expect(hooked.status).toBe(200);
    expect((await rowOf(s.team.id, d.name)).status).toBe("APPROVED");
    // The URL button is Meta's third (index 2): the phone number button before it is counted.
    const sent = await s.send(s.cloud.number, d.name, 2);
    expect(sent.body.message).toBeTypeOf("string");
    expect(sent.status).toBe(200);

    const db = await getDb();
    const history = await db.select().from(templateChanges).where(eq(templateChanges.templateId, row.id)).orderBy(asc(templateChanges.id));
    expect(history.map((h) => [h.source, h.previous, h.value])).toEqual([
      ["editor", null, "PENDING"],
      ["webhook", "PENDING", "APPROVED"],
    ]);
    const audit = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.teamId, s.team.id), eq(auditEvents.action, "template.submitted")));
    expect(audit).toHaveLength(1);
    expect(audit[0].targetLabel).toBe(`${d.name} (es_MX)`);
  });

  it("for the sandbox: PENDING, then approved after SANDBOX_TEMPLATE_REVIEW_MS by the status webhook's writer", async () => {
    const s = await teamWith();
    const saved = process.env.SANDBOX_TEMPLATE_REVIEW_MS;
    process.env.SANDBOX_TEMPLATE_REVIEW_MS = "400";
    try {
      const d = draft(s.sandbox.number);
      const res = await s.submit(d);
      expect(res.status).toBe(201);
      expect(res.body.data.status).toBe("PENDING");
      expect(graph.templateWrites().some((w) => w.body?.name === d.name)).toBe(false);
      const submittedAt = Date.now();
      // Not yet due: nothing approved.
      expect(await approveDueSandboxTemplates([s.team.id], submittedAt)).toBe(0);
      expect((await s.send(s.sandbox.number, d.name)).status).toBe(422);
      // Due: approved once; a second look (another worker) changes nothing.
      expect(await approveDueSandboxTemplates([s.team.id], submittedAt + 1000)).toBe(1);
      expect(await approveDueSandboxTemplates([s.team.id], submittedAt + 1000)).toBe(0);
      const row = await rowOf(s.team.id, d.name);
      expect(row.status).toBe("APPROVED");
      const db = await getDb();
      const [event] = await db
        .select()
        .from(events)
        .where(and(eq(events.teamId, s.team.id), eq(events.type, "template.updated")))
        .orderBy(asc(events.id))
        .offset(1);
      expect(event.data).toMatchObject({
        name: d.name,
        status: "APPROVED",
        sendable: true,
        change: { field: "status", previous: "PENDING" },
      });
      expect((await s.send(s.sandbox.number, d.name)).status).toBe(200);
    } finally {
      process.env.SANDBOX_TEMPLATE_REVIEW_MS = saved;
    }
  });

  it("shows Meta's refusal in its words (422) and keeps nothing; a name already taken is ours to refuse", async () => {
    const s = await teamWith();
    graph.scriptTemplateWrite(templateRefusal("Template body is invalid", "The body contains a variable at the start."));
    const d = draft(s.cloud.number);
    const res = await s.submit(d);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("Meta rechazó la plantilla: Template body is invalid: The body contains a variable at the start.");
    expect(res.body.errors.template).toEqual([res.body.message]);
    expect(await rowOf(s.team.id, d.name)).toBeUndefined();

    expect((await s.submit(d)).status).toBe(201);
    const again = await s.submit({ ...d, wa_number: s.sandbox.number });
    expect(again.status).toBe(422);
    expect(again.body.errors.name).toEqual([`Ya existe la plantilla ${d.name} en el idioma es_MX.`]);
  });

  it("keeps teams apart and is for owners and admins", async () => {
    const s = await teamWith();
    const other = await teamWith();
    const foreign = await s.submit(draft(other.sandbox.number));
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.wa_number).toBeDefined();
    const agent = await agentSession(s.team.id, { role: "agent" });
    expect((await s.api.post(URL_PATH, draft(s.sandbox.number), agent.headers)).status).toBe(403);
  });
});

describe("DELETE /api/v1/message_templates/{templateId}", () => {
  it("deletes at Meta by name and id, then marks it DELETED; a repeat changes nothing", async () => {
    const s = await teamWith();
    const d = draft(s.cloud.number);
    const created = await s.submit(d);
    const id = created.body.data.id as string;
    const res = await s.remove(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: "Plantilla borrada correctamente.", data: { id, status: "DELETED" } });
    const call = graph.templateWrites().find((w) => w.method === "DELETE" && w.wabaId === s.cloud.businessAccountId)!;
    expect(Object.fromEntries(call.query)).toEqual({ name: d.name, hsm_id: id });
    expect((await rowOf(s.team.id, d.name)).status).toBe("DELETED");
    expect((await s.send(s.cloud.number, d.name)).body.message).toBe(`La plantilla ${d.name} no está aprobada (estado: DELETED).`);
    expect((await s.remove(id)).status).toBe(200);
    expect(graph.templateWrites().filter((w) => w.method === "DELETE" && w.wabaId === s.cloud.businessAccountId)).toHaveLength(1);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.teamId, s.team.id), eq(auditEvents.action, "template.deleted"))),
    ).toHaveLength(1);
  });

  it("shows Meta's refusal and leaves the template; a sandbox template is only marked; another team's is a 404", async () => {
    const s = await teamWith();
    const cloudDraft = draft(s.cloud.number);
    const created = await s.submit(cloudDraft);
    graph.scriptTemplateWrite(templateRefusal("Message template not found", "The message template could not be found.", 2593002));
    const refused = await s.remove(created.body.data.id);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("Meta no borró la plantilla: Message template not found: The message template could not be found.");
    expect((await rowOf(s.team.id, cloudDraft.name)).status).toBe("PENDING");

    const sandboxDraft = draft(s.sandbox.number);
    const ours = await s.submit(sandboxDraft);
    const writes = graph.templateWrites().length;
    expect((await s.remove(ours.body.data.id)).status).toBe(200);
    expect(graph.templateWrites()).toHaveLength(writes);
    expect((await rowOf(s.team.id, sandboxDraft.name)).status).toBe("DELETED");

    const other = await teamWith();
    const theirs = await other.submit(draft(other.sandbox.number));
    const foreign = await s.remove(theirs.body.data.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("La plantilla no existe.");
  });
});
