import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTemplate } from "../helpers/factories";
import { countMessages, createMediaTemplate, messageByUpdateId, sendingTeam, uploadFor } from "../helpers/send-factories";
import { jpegBytes, mp4Bytes, pdfBytes, pngBytes } from "../fixtures/media-bytes";

const SEND = "/api/v1/message_templates/send";
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Format = "IMAGE" | "DOCUMENT" | "VIDEO";

/** A team with a number and a media template of `format`; `send` posts a valid body for it. */
async function mediaTeam(format: Format, defaultMediaPath: string | null = null) {
  const s = await sendingTeam();
  const template = await createMediaTemplate(s.team.id, format, defaultMediaPath);
  const api = apiClient(server.url, s.team.token);
  const send = (extra: Record<string, unknown>) =>
    api.post(SEND, {
      wa_number: s.number.number,
      destination: "573001234567",
      template_name: template.name,
      body_params: [{ key: "1", value: "Ana" }],
      ...extra,
    });
  return { ...s, template, send };
}

const headerOf = (payload: any) => payload.components.find((c: any) => c.type === "HEADER");

describe("media_path: accepted attachments", () => {
  it.each<[Format, string, () => Uint8Array]>([
    ["DOCUMENT", "factura.pdf", () => pdfBytes()],
    ["IMAGE", "foto.png", () => pngBytes()],
    ["IMAGE", "foto.jpg", () => jpegBytes()],
    ["IMAGE", "foto.jpeg", () => jpegBytes()],
    ["VIDEO", "clip.mp4", () => mp4Bytes()],
  ])("%s header with an upload named %s: stored, and its URL in the payload (ruling 11)", async (format, name, bytes) => {
    const t = await mediaTeam(format);
    const upload = await uploadFor(t.team.id, bytes(), name);
    const res = await t.send({ media_path: upload.media_path });
    expect(res.status).toBe(200);
    const row = await messageByUpdateId(res.body.data.update_id);
    expect(row.mediaPath).toBe(upload.media_path);
    expect(headerOf(row.payload)).toEqual({
      type: "HEADER",
      format,
      example: { header_handle: [`http://app.test/api/v1/media/${upload.media_path}`] },
    });
    expect((row.payload as any).components[1].text).toBe("Adjunto tu documento, Ana.");
  });
});

describe("media_path: rule 1, extension per header format (422)", () => {
  it.each<[Format, string, string]>([
    ["DOCUMENT", "png", "El archivo de media_path debe tener extensión .pdf para una plantilla con encabezado DOCUMENT."],
    ["DOCUMENT", "jpg", "El archivo de media_path debe tener extensión .pdf para una plantilla con encabezado DOCUMENT."],
    ["IMAGE", "pdf", "El archivo de media_path debe tener extensión .jpg, .jpeg o .png para una plantilla con encabezado IMAGE."],
    ["IMAGE", "mp4", "El archivo de media_path debe tener extensión .jpg, .jpeg o .png para una plantilla con encabezado IMAGE."],
    ["VIDEO", "jpeg", "El archivo de media_path debe tener extensión .mp4 para una plantilla con encabezado VIDEO."],
    ["VIDEO", "mov", "El archivo de media_path debe tener extensión .mp4 para una plantilla con encabezado VIDEO."],
  ])("%s header refuses .%s", async (format, ext, message) => {
    const t = await mediaTeam(format);
    const res = await t.send({ media_path: `uploads/team${t.team.id}/x.${ext}` });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message, errors: { media_path: [message] } });
  });

  it("refuses a real upload of the wrong kind for the header", async () => {
    const t = await mediaTeam("DOCUMENT");
    const image = await uploadFor(t.team.id, pngBytes(), "x.png");
    const res = await t.send({ media_path: image.media_path });
    expect(res.status).toBe(422);
    expect(await countMessages(t.team.id)).toBe(0);
  });
});

describe("media_path: rule 2, TEXT header or no header (422)", () => {
  it("refuses media_path for a TEXT header and for a template without header", async () => {
    const s = await sendingTeam();
    const upload = await uploadFor(s.team.id, pdfBytes(), "a.pdf");
    const bodyOnly = await createTemplate(s.team.id, { components: [{ type: "BODY", text: "Hola" }] });
    const api = apiClient(server.url, s.team.token);
    const base = { wa_number: s.number.number, destination: "573001234567", media_path: upload.media_path };
    const text = await api.post(SEND, {
      ...base,
      template_name: s.template.name,
      header_param: { key: "1", value: "Ana" },
      body_params: [
        { key: "1", value: "x" },
        { key: "2", value: "y" },
      ],
    });
    expect(text.status).toBe(422);
    const msg = `La plantilla ${s.template.name} no tiene un encabezado multimedia (IMAGE, DOCUMENT o VIDEO): no se admite media_path.`;
    expect(text.body).toEqual({ message: msg, errors: { media_path: [msg] } });
    const none = await api.post(SEND, { ...base, template_name: bodyOnly.name });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe(
      `La plantilla ${bodyOnly.name} no tiene un encabezado multimedia (IMAGE, DOCUMENT o VIDEO): no se admite media_path.`,
    );
  });
});

describe("media_path: rule 3, only the caller's own team folder (403)", () => {
  it("answers 403 for another team's real file, and creates nothing", async () => {
    const t = await mediaTeam("DOCUMENT");
    const other = await sendingTeam();
    const foreign = await uploadFor(other.team.id, pdfBytes(), "secreto.pdf");
    const res = await t.send({ media_path: foreign.media_path });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: `El archivo de media_path no pertenece a su equipo: debe estar en uploads/team${t.team.id}/.` });
    expect(await countMessages(t.team.id)).toBe(0);
  });

  it("answers 403 to every traversal or encoded form that could reach another team's file", async () => {
    const t = await mediaTeam("DOCUMENT");
    const other = await sendingTeam();
    const foreign = await uploadFor(other.team.id, pdfBytes(), "secreto.pdf");
    const file = foreign.media_path.split("/").pop()!;
    const A = `uploads/team${t.team.id}`;
    const B = `team${other.team.id}`;
    const attempts = [
      `${A}/../${B}/${file}`,
      `${A}/./../${B}/${file}`,
      `${A}/%2e%2e/${B}/${file}`,
      `${A}/%2E%2E%2F${B}%2F${file}`,
      `${A}/..%2f${B}%2f${file}`,
      `${A}/%252e%252e/${B}/${file}`,
      `${A}/..\\${B}\\${file}`,
      `uploads\\${B}\\${file}`,
      `/${foreign.media_path}`,
      `./${foreign.media_path}`,
      `${A}//../../${foreign.media_path}`,
      `${A}/sub/../../${B}/${file}`,
      `uploads/team${t.team.id}0/../${B}/${file}`,
      `https://evil.example/${file}`,
      `/etc/passwd.pdf`,
    ];
    for (const media_path of attempts) {
      const res = await t.send({ media_path });
      expect([media_path, res.status]).toEqual([media_path, 403]);
    }
    // A NUL cannot reach Postgres in any field, so it is refused before the path rules (400).
    const nul = await t.send({ media_path: `${A}\u0000/../${B}/${file}` });
    expect(nul.status).toBe(400);
    expect(await countMessages(t.team.id)).toBe(0);
  });

  it("answers 422 for a path in the own folder that was never uploaded", async () => {
    const t = await mediaTeam("IMAGE");
    const res = await t.send({ media_path: `uploads/team${t.team.id}/00000000-0000-4000-8000-000000000000.png` });
    expect(res.status).toBe(422);
    expect(res.body.errors.media_path).toEqual(["El archivo de media_path no existe: súbalo primero con /api/v1/media-upload."]);
  });
});

describe("media_path: rule 4, the template's default attachment", () => {
  it("uses the default upload when media_path is omitted, null or blank", async () => {
    const s = await sendingTeam();
    const upload = await uploadFor(s.team.id, pdfBytes(), "catalogo.pdf");
    const template = await createMediaTemplate(s.team.id, "DOCUMENT", upload.media_path);
    const api = apiClient(server.url, s.team.token);
    for (const media_path of [undefined, null, ""]) {
      const res = await api.post(SEND, {
        wa_number: s.number.number,
        destination: "573001234567",
        template_name: template.name,
        body_params: [{ key: "1", value: "Ana" }],
        media_path,
      });
      expect(res.status).toBe(200);
      const row = await messageByUpdateId(res.body.data.update_id);
      expect(row.mediaPath).toBe(upload.media_path);
      expect(headerOf(row.payload).example.header_handle).toEqual([`http://app.test/api/v1/media/${upload.media_path}`]);
    }
  });

  it("uses a default given as an http(s) URL as it is", async () => {
    const t = await mediaTeam("IMAGE", "https://cdn.example.com/banner.png");
    const res = await t.send({});
    expect(res.status).toBe(200);
    const row = await messageByUpdateId(res.body.data.update_id);
    expect(headerOf(row.payload).example.header_handle).toEqual(["https://cdn.example.com/banner.png"]);
  });

  it("a given media_path wins over the default", async () => {
    const s = await sendingTeam();
    const def = await uploadFor(s.team.id, pngBytes(), "def.png");
    const mine = await uploadFor(s.team.id, jpegBytes(), "mine.jpg");
    const template = await createMediaTemplate(s.team.id, "IMAGE", def.media_path);
    const res = await apiClient(server.url, s.team.token).post(SEND, {
      wa_number: s.number.number,
      destination: "573001234567",
      template_name: template.name,
      body_params: [{ key: "1", value: "Ana" }],
      media_path: mine.media_path,
    });
    expect(res.status).toBe(200);
    expect((await messageByUpdateId(res.body.data.update_id)).mediaPath).toBe(mine.media_path);
  });

  it("answers 422 when there is neither media_path nor a default", async () => {
    const t = await mediaTeam("VIDEO");
    const res = await t.send({});
    const msg = `La plantilla ${t.template.name} tiene un encabezado VIDEO: indique media_path, pues no tiene un archivo por defecto configurado.`;
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: msg, errors: { media_path: [msg] } });
  });

  it("answers 422 when the default upload is gone or belongs to another team", async () => {
    const other = await sendingTeam();
    const foreign = await uploadFor(other.team.id, pdfBytes(), "x.pdf");
    const t = await mediaTeam("DOCUMENT", foreign.media_path);
    const res = await t.send({});
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("El archivo por defecto de la plantilla no existe o no corresponde a su encabezado: indique media_path.");
  });
});
