import http from "node:http";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam } from "../helpers/factories";
import { agentSession, mediaRow, uploadFor } from "../helpers/send-factories";
import { jpegBytes, mp4Bytes, pdfBytes, pngBytes, textBytes } from "../fixtures/media-bytes";

const UPLOAD = "/api/v1/media-upload";
const MB = 1024 * 1024;
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function form(bytes: Uint8Array | null, filename = "file.bin", field = "file", type = "application/octet-stream") {
  const f = new FormData();
  if (bytes) f.append(field, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), filename);
  return f;
}

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** A raw request, for what fetch will not send (a Content-Length larger than the body). */
function rawPost(path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: string }> {
  const url = new URL(server.url + path);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.write(body);
    // The body is deliberately left unfinished: the answer must come without it.
  });
}

function rawGet(path: string, token: string): Promise<number> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: u.hostname, port: u.port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
      .on("error", reject);
  });
}

describe("POST /api/v1/media-upload", () => {
  it.each<[string, Uint8Array, string, string]>([
    ["png", pngBytes(300), "logo.png", "image/png"],
    ["jpg", jpegBytes(300), "foto.JPG", "image/jpeg"],
    ["jpeg", jpegBytes(300), "foto.jpeg", "image/jpeg"],
    ["pdf", pdfBytes(), "factura.pdf", "application/pdf"],
    ["mp4", mp4Bytes(300), "clip.mp4", "video/mp4"],
  ])("stores a %s by its content, in the team's folder", async (ext, bytes, filename, mime) => {
    const team = await createTeam();
    // The client's declared type is ignored: only the bytes decide.
    const res = await apiClient(server.url, team.token).post(UPLOAD, form(bytes, filename, "file", "text/plain"));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Archivo subido correctamente.");
    expect(res.body.data).toEqual({
      media_path: expect.stringMatching(new RegExp(`^uploads/team${team.id}/[0-9a-f-]{36}\\.${ext}$`)),
      content_type: mime,
      size: bytes.byteLength,
      sha256: sha256(bytes),
    });
    const row = await mediaRow(res.body.data.media_path);
    expect(row).toMatchObject({ teamId: team.id, contentType: mime, size: bytes.byteLength, originalName: filename });
    expect(Buffer.compare(row.content, Buffer.from(bytes))).toBe(0);
  });

  it("names a file without extension by its content", async () => {
    const team = await createTeam();
    const res = await apiClient(server.url, team.token).post(UPLOAD, form(pngBytes(), "captura"));
    expect(res.status).toBe(200);
    expect(res.body.data.media_path).toMatch(/\.png$/);
  });

  it("refuses an extension that disagrees with the content", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const pngAsPdf = await api.post(UPLOAD, form(pngBytes(), "factura.pdf"));
    expect(pngAsPdf.status).toBe(422);
    const msg = "La extensión del archivo (.pdf) no coincide con su contenido (image/png).";
    expect(pngAsPdf.body).toEqual({ message: msg, errors: { file: [msg] } });
    const pdfAsJpg = await api.post(UPLOAD, form(pdfBytes(), "foto.jpg"));
    expect(pdfAsJpg.body.message).toBe("La extensión del archivo (.jpg) no coincide con su contenido (application/pdf).");
  });

  it("refuses types that are not allowed, and empty files", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const text = await api.post(UPLOAD, form(textBytes(), "nota.pdf"));
    expect(text.status).toBe(422);
    expect(text.body.message).toBe(
      "Tipo de archivo no permitido: se aceptan imágenes JPEG o PNG, videos MP4, documentos PDF, audios OGG o MP3 y stickers WebP.",
    );
    const gif = await api.post(UPLOAD, form(new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "a.gif"));
    expect(gif.status).toBe(422);
    const empty = await api.post(UPLOAD, form(new Uint8Array(0), "vacio.png"));
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe("El archivo está vacío.");
  });

  it("answers 422 when the file field is missing or is not a file", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const msg = "El campo file es obligatorio y debe ser un archivo.";
    const missing = await api.post(UPLOAD, form(pngBytes(), "a.png", "archivo"));
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ message: msg, errors: { file: [msg] } });
    const asText = new FormData();
    asText.append("file", "uploads/team1/x.png");
    expect((await api.post(UPLOAD, asText)).body.message).toBe(msg);
  });

  it("answers 415 when the body is not multipart/form-data", async () => {
    const team = await createTeam();
    const res = await apiClient(server.url, team.token).post(UPLOAD, { file: "x" });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: "El encabezado Content-Type debe ser multipart/form-data." });
  });

  it("answers 413 for an image over 5 MB", async () => {
    const team = await createTeam();
    const res = await apiClient(server.url, team.token).post(UPLOAD, form(pngBytes(5 * MB + 1), "grande.png"));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe("El archivo supera el tamaño máximo de 5 MB para image/png.");
  });

  it("answers 413 from Content-Length alone, before the body arrives", async () => {
    const team = await createTeam();
    const res = await rawPost(
      UPLOAD,
      {
        authorization: `Bearer ${team.token}`,
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(20 * MB),
      },
      Buffer.from("--x\r\n"),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ message: "El cuerpo de la solicitud es demasiado grande." });
  });

  it("answers 413 to a chunked body (no Content-Length) once it passes the limit", async () => {
    const team = await createTeam();
    const u = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: UPLOAD,
          method: "POST",
          headers: {
            authorization: `Bearer ${team.token}`,
            "content-type": "multipart/form-data; boundary=x",
            "transfer-encoding": "chunked",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on("error", () => {});
      req.on("close", () => reject(new Error("closed without an answer")));
      const chunk = Buffer.alloc(MB, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 20 && req.write(chunk)) sent++;
        if (sent < 20) req.once("drain", () => (sent++, pump()));
      };
      pump();
    });
    expect(status).toBe(413);
  });

  it("answers 401 without a valid token", async () => {
    for (const token of [undefined, "wam_wrong"]) {
      const res = await apiClient(server.url, token).post(UPLOAD, form(pngBytes(), "a.png"));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Unauthenticated." });
    }
  });
});

describe("GET /api/v1/media/{media_path}", () => {
  it("serves the team's own file with its content type, by token and by agent cookie", async () => {
    const team = await createTeam();
    const bytes = pdfBytes(2000);
    const up = await uploadFor(team.id, bytes, "Factura junio.pdf");
    const res = await fetch(`${server.url}/api/v1/media/${up.media_path}`, { headers: { authorization: `Bearer ${team.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''Factura%20junio.pdf");
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), Buffer.from(bytes))).toBe(0);

    const etag = res.headers.get("etag")!;
    expect(etag).toBe(`"${up.sha256}"`);
    const again = await fetch(`${server.url}/api/v1/media/${up.media_path}`, {
      headers: { authorization: `Bearer ${team.token}`, "if-none-match": etag },
    });
    expect(again.status).toBe(304);

    const { headers } = await agentSession(team.id);
    const viaCookie = await fetch(`${server.url}/api/v1/media/${up.media_path}`, { headers });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.headers.get("content-type")).toBe("application/pdf");
  });

  it("answers 404 for another team's file, exactly as for a missing one", async () => {
    const owner = await createTeam();
    const intruder = await createTeam();
    const up = await uploadFor(owner.id, pngBytes(), "privado.png");
    const api = apiClient(server.url, intruder.token);
    const foreign = await api.get(`/api/v1/media/${up.media_path}`);
    const missing = await api.get(`/api/v1/media/uploads/team${intruder.id}/00000000-0000-4000-8000-000000000000.png`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Archivo no encontrado." });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(foreign.body);
  });

  it("never serves another team's file through traversal or encoded paths", async () => {
    const owner = await createTeam();
    const intruder = await createTeam();
    const up = await uploadFor(owner.id, pngBytes(), "privado.png");
    const file = up.media_path.split("/").pop()!;
    const mine = `uploads/team${intruder.id}`;
    const attempts = [
      `${mine}/../team${owner.id}/${file}`,
      `${mine}/%2e%2e/team${owner.id}/${file}`,
      `${mine}/..%2fteam${owner.id}%2f${file}`,
      `${mine}/%252e%252e%252fteam${owner.id}%252f${file}`,
      `${mine}/..%5cteam${owner.id}%5c${file}`,
      `${mine}%2f..%2fteam${owner.id}%2f${file}`,
    ];
    // Positive control: the same raw request reaches the owner's file with the owner's token.
    expect(await rawGet(`/api/v1/media/${up.media_path}`, owner.token)).toBe(200);
    for (const path of attempts) {
      // Raw request: fetch would resolve `..` itself before sending.
      const status = await rawGet(`/api/v1/media/${path}`, intruder.token);
      expect([path, status]).toEqual([path, 404]);
    }
  });

  it("answers 401 without a valid token", async () => {
    const team = await createTeam();
    const up = await uploadFor(team.id, pngBytes(), "a.png");
    const res = await apiClient(server.url).get(`/api/v1/media/${up.media_path}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
  });
});
