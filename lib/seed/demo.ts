import { randomUUID } from "node:crypto";
import { getDb, transaction, type Tx } from "@/db/client";
import { hashPassword } from "@/lib/auth/password";
import { hashToken, newToken } from "@/lib/auth/tokens";
import { sha256Hex } from "@/lib/crypto/hash";
import { mediaUrl, teamFolder } from "@/lib/media/paths";
import { toTemplateDto } from "@/lib/templates/service";
import type { Template } from "@/lib/templates/schemas";
import {
  DEMO_AGENT,
  DEMO_CONTACTS,
  DEMO_CUSTOMER,
  DEMO_LABELS,
  DEMO_NUMBER,
  DEMO_NUMBER_NAME,
  DEMO_TEAM,
  DEMO_COUNTRY,
  DEMO_SAVED_REPLIES,
  DEMO_TEMPLATES,
} from "./demo-content";
import { demoConversation, type DemoFile } from "./demo-conversation";
import { demoMp4, demoPdf, demoPng, demoWav, demoWebp } from "./media-bytes";
import {
  insertAgent,
  insertAssignments,
  insertBot,
  insertCampaign,
  insertContacts,
  insertLabels,
  insertMedia,
  insertMessages,
  insertNumber,
  insertSavedReplies,
  insertTeam,
  insertTemplate,
  insertTokenOnce,
  lockSeed,
  teamOfNumber,
} from "./repo";

export type SeedDemoResult = { team_id: number; token: string; created: boolean };

/**
 * Creates the demo team once. Idempotent: when the demo number already exists nothing is added
 * except an API token, because only token hashes are stored and an old token cannot be shown
 * again. `opts.token` (DEMO_API_TOKEN) pins that token, inserted only if its hash is new.
 * The demo team is the one owning the demo number.
 */
export async function seedDemo(opts: { token?: string } = {}): Promise<SeedDemoResult> {
  // scrypt is slow on purpose: hash only when the demo is missing, and outside the transaction
  // (PGlite runs one transaction at a time).
  const passwordHash = (await teamOfNumber(await getDb(), DEMO_NUMBER)) === undefined ? await hashPassword(DEMO_AGENT.password) : undefined;
  // One transaction holding the seed's lock: two processes starting at once seed once.
  return transaction(async (tx) => {
    await lockSeed(tx);
    const existing = await teamOfNumber(tx, DEMO_NUMBER);
    if (existing !== undefined) return { team_id: existing, token: await issueToken(tx, existing, opts.token), created: false };
    const teamId = await createDemo(tx, passwordHash ?? (await hashPassword(DEMO_AGENT.password)));
    return { team_id: teamId, token: await issueToken(tx, teamId, opts.token), created: true };
  });
}

async function issueToken(tx: Tx, teamId: number, wanted?: string): Promise<string> {
  const token = wanted ?? newToken();
  await insertTokenOnce(tx, { teamId, name: "demo", tokenHash: hashToken(token), prefix: token.slice(0, 8) });
  return token;
}

async function createDemo(tx: Tx, passwordHash: string): Promise<number> {
  // A Colombian team: the send form completes a number typed without +57 (docs/features/send-form.md).
  const teamId = await insertTeam(tx, { name: DEMO_TEAM, defaultCountry: DEMO_COUNTRY });
  const numberId = await insertNumber(tx, { teamId, number: DEMO_NUMBER, displayName: DEMO_NUMBER_NAME, provider: "sandbox" });

  const files = await storeFiles(tx, teamId);
  const templateDtos: Record<string, Template> = {};
  for (const t of DEMO_TEMPLATES) {
    const file = t.media ? files[t.media] : null;
    const row = await insertTemplate(tx, {
      teamId,
      name: t.name,
      language: "es_CO",
      category: t.category,
      components: t.components(file?.url ?? null),
      defaultMediaPath: file?.path ?? null,
    });
    templateDtos[t.name] = toTemplateDto(row);
  }

  const labelIds = await insertLabels(
    tx,
    DEMO_LABELS.map((l) => ({ teamId, ...l })),
  );
  const contactIds = await insertContacts(
    tx,
    DEMO_CONTACTS.map((c) => ({ teamId, name: c.name, customerNumber: c.number, customerId: c.customerId })),
  );
  await insertAssignments(
    tx,
    DEMO_CONTACTS.flatMap((c, i) => c.labels.map((l) => ({ teamId, contactId: contactIds[i], labelId: labelIds[l] }))),
  );

  await insertSavedReplies(
    tx,
    DEMO_SAVED_REPLIES.map((r) => ({ teamId, ...r })),
  );

  const botId = await insertBot(tx, { teamId, name: "Asistente", isDefault: true });
  await insertBot(tx, { teamId, name: "Bot de Soporte" });
  const campaignId = await insertCampaign(tx, { teamId, name: "Promo Navidad" });
  // The demo agent is the team's owner: it can try every page and setting (docs/roles.md).
  const agent = await insertAgent(tx, { teamId, email: DEMO_AGENT.email, name: DEMO_AGENT.name, passwordHash, role: "owner" });

  const mariaId = contactIds[DEMO_CONTACTS.findIndex((c) => c.number === DEMO_CUSTOMER.number)];
  const rows = demoConversation({
    now: new Date(),
    customer: DEMO_CUSTOMER,
    agent,
    botId,
    campaignId,
    files,
    templates: templateDtos,
  });
  await insertMessages(
    tx,
    rows.map((r) => ({ ...r, teamId, waNumberId: numberId, contactId: mariaId })),
  );
  return teamId;
}

type StoredFile = DemoFile & { path: string };

async function storeFiles(tx: Tx, teamId: number) {
  const store = async (bytes: Buffer, ext: string, contentType: string, filename: string): Promise<StoredFile> => {
    const path = `${teamFolder(teamId)}${randomUUID()}.${ext}`;
    const sha256 = sha256Hex(bytes);
    await insertMedia(tx, { teamId, path, originalName: filename, contentType, size: bytes.length, sha256, content: bytes });
    return { path, url: mediaUrl(path), contentType, sha256, filename };
  };
  return {
    png: await store(demoPng(), "png", "image/png", "saco-rojo.png"),
    pdf: await store(demoPdf(), "pdf", "application/pdf", "catalogo-navidad.pdf"),
    mp4: await store(demoMp4(), "mp4", "video/mp4", "bienvenida.mp4"),
    webp: await store(demoWebp(), "webp", "image/webp", "sticker.webp"),
    wav: await store(demoWav(), "wav", "audio/wav", "nota-de-voz.wav"),
  };
}
