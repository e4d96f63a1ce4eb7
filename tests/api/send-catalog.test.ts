import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { sendTemplate } from "@/lib/messages/send-service";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { CATALOG_CACHE_MS } from "@/lib/messages/send-catalog";
import { numberDisabled } from "@/lib/numbers/settings-schemas";
import { updateNumberSettings } from "@/lib/numbers/settings-service";
import { templateNotApproved } from "@/lib/templates/service";
import { createNumber, createTeam, createTemplate, textTemplateComponents, uniqueNumber } from "../helpers/factories";
import { messageByUpdateId, tokenCtx } from "../helpers/send-factories";
import { countStatements } from "../helpers/statement-count";
import { waitFor } from "../helpers/wait";

/**
 * The process's cache of sending numbers and templates (lib/messages/send-catalog.ts): a send
 * served from it reads neither, and a change made anywhere else (another connection: another
 * process, psql) reaches it by NOTIFY wa_catalog well within the CATALOG_CACHE_MS it trusts an
 * entry for. On PGlite, one session for the whole process, "another connection" is a statement
 * sent straight to the database, past every service that would drop the entry itself.
 */
const other = config.databaseUrl ? postgres(config.databaseUrl, { max: 1, onnotice: () => {} }) : undefined;
afterAll(() => other?.end());

async function elsewhere(text: string, params: (string | number)[]) {
  if (other) return other.unsafe(text, params);
  const db = await getDb();
  // PGlite: the values inlined as literals (numbers and quoted text only: the test's own).
  const inlined = text.replace(/\$(\d+)/g, (_, i) => {
    const v = params[Number(i) - 1];
    return typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`;
  });
  return db.execute(sql.raw(inlined));
}

async function world() {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const template = await createTemplate(team.id);
  const send = (input: Record<string, unknown> = {}) =>
    countStatements(() =>
      sendTemplate({
        ctx: tokenCtx(team.id),
        input: sendTemplateInput.parse({
          wa_number: number.number,
          destination: uniqueNumber(),
          template_name: template.name,
          header_param: { key: "1", value: "Ana" },
          body_params: [
            { key: "1", value: "A-77" },
            { key: "2", value: "martes" },
          ],
          ...input,
        }),
        idempotency: null,
      }),
    );
  const refusal = async () => {
    try {
      await send();
      return null;
    } catch (err) {
      if (err instanceof ApiError) return err.message;
      throw err;
    }
  };
  // Once the LISTEN is up, a send leaves the number and template in the cache: the next one reads neither.
  const reads = (statements: string[]) => statements.filter((s) => /from "(wa_numbers|templates)"/.test(s)).length;
  await waitFor(
    async () => reads((await send()).statements),
    (n) => n > 0,
  );
  await waitFor(
    async () => reads((await send()).statements),
    (n) => n === 0,
  );
  return { team, number, template, send, refusal, reads };
}

describe("the send catalog cache", () => {
  it("serves a send without reading the number or the template", async () => {
    const w = await world();
    const { result, statements } = await w.send();
    expect(w.reads(statements)).toBe(0);
    expect(await messageByUpdateId((result.body as { data: { update_id: string } }).data.update_id)).toMatchObject({
      waNumberId: w.number.id,
      templateId: w.template.id,
    });
  });

  it("drops a template changed on another connection", async () => {
    const w = await world();
    await elsewhere("UPDATE templates SET status = 'REJECTED', rejected_reason = 'INVALID_FORMAT' WHERE team_id = $1 AND id = $2", [
      w.team.id,
      w.template.id,
    ]);
    const changedAt = Date.now();
    const refused = await waitFor(w.refusal, (m) => m !== null, CATALOG_CACHE_MS / 2, 10, "return");
    expect(refused).toBe(templateNotApproved(w.template.name, "REJECTED", "INVALID_FORMAT"));
    console.log(`[send-catalog] template change honoured after ${Date.now() - changedAt} ms`);
  });

  it("drops a number switched off on another connection", async () => {
    const w = await world();
    await elsewhere("UPDATE wa_numbers SET disabled_at = now() WHERE team_id = $1 AND id = $2", [w.team.id, w.number.id]);
    const refused = await waitFor(w.refusal, (m) => m !== null, CATALOG_CACHE_MS / 2, 10, "return");
    expect(refused).toBe(numberDisabled(w.number.number));
  });

  it("drops the team-wide template when the number gets its own of that name on another connection", async () => {
    const w = await world();
    const inserted = (await elsewhere(
      `INSERT INTO templates (team_id, wa_number_id, name, language, category, components)
       VALUES ($1, $2, $3, 'en_US', 'UTILITY', $4::jsonb) RETURNING id`,
      [w.team.id, w.number.id, w.template.name, JSON.stringify(textTemplateComponents)],
    )) as unknown as { id: number }[] | { rows: { id: number }[] };
    const [own] = Array.isArray(inserted) ? inserted : inserted.rows;
    const templateId = await waitFor(
      async () => {
        const { result } = await w.send();
        return (await messageByUpdateId((result.body as { data: { update_id: string } }).data.update_id)).templateId;
      },
      (id) => id === own.id,
      CATALOG_CACHE_MS / 2,
      10,
      "return",
    );
    expect(templateId).toBe(own.id);
  });

  it("refuses this process's next send at once when its own settings switch the number off", async () => {
    const w = await world();
    await updateNumberSettings({ ctx: tokenCtx(w.team.id), input: { id: w.number.id, changes: { disabled: true } } });
    expect(await w.refusal()).toBe(numberDisabled(w.number.number));
  });
});
