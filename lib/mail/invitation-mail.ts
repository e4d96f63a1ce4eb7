import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/config";

/**
 * Agent invitations by mail (docs/operations.md, "E-mail"), through Nodemailer: the well-kept
 * SMTP client of Node (STARTTLS, TLS, auth, pooling, timeouts), rather than a hand-written SMTP
 * dialogue. Only when SMTP_URL and MAIL_FROM are set; otherwise, and when the server refuses or
 * does not answer, the invitation stands and the inviting admin shares the link, as the answer's
 * `email_sent: false` says. Nothing here logs the link or the address: the link signs someone in.
 */

// One pooled transport per SMTP URL, made when first needed (a test or an operator may change it).
let current: { url: string; mailer: Transporter } | null = null;

function mailerFor(url: string): Transporter {
  if (current?.url !== url) {
    current?.mailer.close();
    current = {
      url,
      // Short waits: the admin's request waits for the answer; a silent server costs seconds, not minutes.
      mailer: nodemailer.createTransport({ url, pool: true, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 }),
    };
  }
  return current.mailer;
}

export type InvitationMail = { to: string; link: string; teamName: string; role: string; invitedBy: string; expiresAt: Date };

const ROLE_NAMES: Record<string, string> = { owner: "propietario", admin: "administrador", supervisor: "supervisor", agent: "agente" };

/** The mail's text, Spanish as the product's default language. */
export function invitationText(m: InvitationMail): { subject: string; text: string } {
  const until = m.expiresAt.toISOString().replace("T", " ").slice(0, 16);
  return {
    subject: `Invitación al equipo ${m.teamName} en WA Mensajería`,
    text:
      `${m.invitedBy} le invita a unirse al equipo ${m.teamName} como ${ROLE_NAMES[m.role] ?? m.role}.\n\n` +
      `Abra este enlace para elegir su nombre y su contraseña:\n${m.link}\n\n` +
      `El enlace sirve una sola vez y vence el ${until} UTC. Si no esperaba esta invitación, ignore este correo.\n`,
  };
}

/** Mails the invitation; true once the SMTP server accepted it, false without mail settings or on its refusal. */
export async function mailInvitation(m: InvitationMail): Promise<boolean> {
  const settings = config.mail;
  if (!settings) return false;
  try {
    await mailerFor(settings.smtpUrl).sendMail({ from: settings.from, to: m.to, ...invitationText(m) });
    return true;
  } catch (err) {
    // The server's code and words, never the message (it holds the link).
    const e = err as { code?: string; responseCode?: number };
    console.warn(`[mail] an invitation was not sent: ${e.code ?? "error"}${e.responseCode ? ` ${e.responseCode}` : ""}`);
    return false;
  }
}
