import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { settingsProblems } from "@/lib/config";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";

/**
 * Invitations by mail (docs/operations.md, "E-mail"): with SMTP_URL and MAIL_FROM the invitation
 * reaches a real SMTP server (smtp-server, Nodemailer's own, on a local port), and the answer says
 * email_sent: true; a server that refuses leaves the invitation standing, email_sent: false.
 */
type Received = { from: string; to: string[]; user: string | undefined; data: string };
const received: Received[] = [];
let refuse = false;

const smtp = new SMTPServer({
  authOptional: false,
  allowInsecureAuth: true,
  disabledCommands: ["STARTTLS"],
  onAuth(auth, _session, cb) {
    if (auth.username === "mailer" && auth.password === "s3creto") return cb(null, { user: auth.username });
    cb(new Error("Invalid username or password"));
  },
  onData(stream, session, cb) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      if (refuse) {
        const err = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        return cb(err);
      }
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((r) => r.address),
        user: session.user,
        data: Buffer.concat(chunks).toString("utf8"),
      });
      cb();
    });
  },
});

let server: TestServer;
const saved = { url: process.env.SMTP_URL, from: process.env.MAIL_FROM };
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  process.env.SMTP_URL = `smtp://mailer:s3creto@127.0.0.1:${port}`;
  process.env.MAIL_FROM = "WA Mensajería <no-reply@example.com>";
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  for (const [name, value] of [
    ["SMTP_URL", saved.url],
    ["MAIL_FROM", saved.from],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The mail's text with its quoted-printable soft breaks joined and =XX bytes decoded. */
const bodyOf = (raw: string) => qp(raw.slice(raw.indexOf("\r\n\r\n") + 4).replace(/=\r\n/g, ""));

const qp = (s: string) =>
  Buffer.from(
    s.replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    "latin1",
  ).toString("utf8");

/** The Subject header, unfolded, its RFC 2047 words (Q or B, UTF-8) decoded. */
function subjectOf(raw: string): string {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ");
  const line = /^Subject: (.*)$/m.exec(head)?.[1] ?? "";
  return line
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : qp(text.replace(/_/g, " ")),
    );
}

describe("invitations by mail", () => {
  it("mails the link to the invited address, signed in to the SMTP server, and says so", async () => {
    const team = await createTeam("Ferretería Sol");
    const owner = await agentSession(team.id, { role: "owner", name: "Olga" });
    const address = `nuevo-${process.pid}-${Date.now()}@example.com`;
    const res = await apiClient(server.url).post("/api/v1/agents/invitations", { email: address, role: "agent" }, owner.headers);
    expect(res.status).toBe(201);
    expect(res.body.data.email_sent).toBe(true);
    expect(res.body.message).toBe(`Invitación creada y enviada por correo a ${address}. El enlace solo se muestra esta vez.`);
    const mail = received.find((m) => m.to.includes(address));
    expect(mail).toMatchObject({ from: "no-reply@example.com", to: [address], user: "mailer" });
    expect(subjectOf(mail!.data)).toBe("Invitación al equipo Ferretería Sol en WA Mensajería");
    const body = bodyOf(mail!.data);
    expect(body).toContain(res.body.data.link);
    expect(body).toContain("Olga le invita a unirse al equipo Ferretería Sol como agente.");
  });

  it("keeps the invitation when the mail server refuses it: email_sent false, the link to share", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const address = `rechazado-${process.pid}-${Date.now()}@example.com`;
    refuse = true;
    try {
      const res = await apiClient(server.url).post("/api/v1/agents/invitations", { email: address, role: "agent" }, owner.headers);
      expect(res.status).toBe(201);
      expect(res.body.data.email_sent).toBe(false);
      expect(res.body.message).toContain("No se envió ningún correo");
      const listed = await apiClient(server.url).get("/api/v1/agents/invitations", owner.headers);
      expect(listed.body.data.map((i: { email: string }) => i.email)).toContain(address);
    } finally {
      refuse = false;
    }
  });

  it("refuses half a mail setting, and an SMTP URL of another scheme, at start-up without printing the URL", () => {
    const url = process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    expect(settingsProblems()).toContain("MAIL_FROM: es obligatoria con SMTP_URL (el remitente de las invitaciones)");
    process.env.MAIL_FROM = "no-reply@example.com";
    process.env.SMTP_URL = "http://mailer:s3creto@127.0.0.1:25";
    const problems = settingsProblems();
    expect(problems.some((p) => p.startsWith("SMTP_URL: debe ser una URL smtp:// o smtps://"))).toBe(true);
    expect(problems.join("\n")).not.toContain("s3creto");
    process.env.SMTP_URL = url;
  });
});
