import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db/client";
import {
  agents,
  apiTokens,
  bots,
  campaigns,
  contactLabels,
  contacts,
  labels,
  media,
  messages,
  teams,
  templates,
  waNumbers,
} from "@/db/schema";
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
  DEMO_TEMPLATES,
} from "./demo-content";
import { demoConversation, type DemoFile } from "./demo-conversation";
import { demoMp4, demoPdf, demoPng, demoWav, demoWebp } from "./media-bytes";

export type SeedDemoResult = { team_id: number; token: string; created: boolean };

// Serializes concurrent seeds (two replicas starting at once) on both drivers.
const SEED_LOCK = 727_275;

/**
 * Creates the demo team once. Idempotent: when the demo number already exists nothing is added
 * except an API token, because only token hashes are stored and an old token cannot be shown
 * again. `opts.token` (DEMO_API_TOKEN) pins that token, inserted only if its hash is new.
 */
export async function seedDemo(opts: { token?: string } = {}): Promise<SeedDemoResult> {
  const db = await getDb();
  // scrypt is slow on purpose: hash only when the demo is missing, and outside the transaction
  // (PGlite runs one transaction at a time).
  const passwordHash = (await demoTeamId(db)) === undefined ? await hashPassword(DEMO_AGENT.password) : undefined;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const existing = await demoTeamId(tx);
    if (existing !== undefined) return { team_id: existing, token: await issueToken(tx, existing, opts.token), created: false };
    const teamId = await createDemo(tx, passwordHash ?? (await hashPassword(DEMO_AGENT.password)));
    return { team_id: teamId, token: await issueToken(tx, teamId, opts.token), created: true };
  });
}

/** The demo team is the one owning the demo number (numbers are unique across the service). */
async function demoTeamId(db: DbOrTx): Promise<number | undefined> {
  const [row] = await db.select({ teamId: waNumbers.teamId }).from(waNumbers).where(eq(waNumbers.number, DEMO_NUMBER)).limit(1);
  return row?.teamId;
}

async function issueToken(tx: Tx, teamId: number, wanted?: string): Promise<string> {
  const token = wanted ?? newToken();
  const tokenHash = hashToken(token);
  const [stored] = await tx.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)).limit(1);
  if (!stored) await tx.insert(apiTokens).values({ teamId, name: "demo", tokenHash, prefix: token.slice(0, 8) });
  return token;
}

async function createDemo(tx: Tx, passwordHash: string): Promise<number> {
  const [team] = await tx.insert(teams).values({ name: DEMO_TEAM }).returning({ id: teams.id });
  const teamId = team.id;
  const [number] = await tx
    .insert(waNumbers)
    .values({ teamId, number: DEMO_NUMBER, displayName: DEMO_NUMBER_NAME, provider: "sandbox" })
    .returning({ id: waNumbers.id });

  const files = await storeFiles(tx, teamId);
  const templateDtos: Record<string, Template> = {};
  for (const t of DEMO_TEMPLATES) {
    const file = t.media ? files[t.media] : null;
    const [row] = await tx
      .insert(templates)
      .values({
        teamId,
        name: t.name,
        language: "es_CO",
        category: t.category,
        components: t.components(file?.url ?? null),
        defaultMediaPath: file?.path ?? null,
      })
      .returning();
    templateDtos[t.name] = toTemplateDto(row);
  }

  const labelRows = await tx
    .insert(labels)
    .values(DEMO_LABELS.map((l) => ({ teamId, ...l })))
    .returning({ id: labels.id });
  const contactRows = await tx
    .insert(contacts)
    .values(DEMO_CONTACTS.map((c) => ({ teamId, name: c.name, customerNumber: c.number, customerId: c.customerId })))
    .returning({ id: contacts.id });
  const assignments = DEMO_CONTACTS.flatMap((c, i) =>
    c.labels.map((l) => ({ teamId, contactId: contactRows[i].id, labelId: labelRows[l].id })),
  );
  await tx.insert(contactLabels).values(assignments);

  const [bot] = await tx.insert(bots).values({ teamId, name: "Asistente", isDefault: true }).returning({ id: bots.id });
  await tx.insert(bots).values({ teamId, name: "Bot de Soporte" });
  const [campaign] = await tx.insert(campaigns).values({ teamId, name: "Promo Navidad" }).returning({ id: campaigns.id });
  const [agent] = await tx
    .insert(agents)
    .values({ teamId, email: DEMO_AGENT.email, name: DEMO_AGENT.name, passwordHash })
    .returning({ id: agents.id, name: agents.name });

  const maria = contactRows[DEMO_CONTACTS.findIndex((c) => c.number === DEMO_CUSTOMER.number)];
  const rows = demoConversation({
    now: new Date(),
    customer: DEMO_CUSTOMER,
    agent,
    botId: bot.id,
    campaignId: campaign.id,
    files,
    templates: templateDtos,
  });
  await tx.insert(messages).values(rows.map((r) => ({ ...r, teamId, waNumberId: number.id, contactId: maria.id })));
  return teamId;
}

type StoredFile = DemoFile & { path: string };

async function storeFiles(tx: Tx, teamId: number) {
  const store = async (bytes: Buffer, ext: string, contentType: string, filename: string): Promise<StoredFile> => {
    const path = `${teamFolder(teamId)}${randomUUID()}.${ext}`;
    const sha256 = sha256Hex(bytes);
    await tx.insert(media).values({ teamId, path, originalName: filename, contentType, size: bytes.length, sha256, content: bytes });
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
