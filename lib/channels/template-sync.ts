import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { addTemplate } from "@/lib/templates/service";
import { templateInputSchema, type TemplateInputRaw } from "@/lib/templates/schemas";
import type { GraphSettings } from "./cloud-api/client";
import { fetchTemplates, graphTemplateSchema, type GraphTemplate } from "./cloud-api/templates";
import { withSecrets } from "./credentials";
import { findNumberByDigits } from "./repo";

const SUPPORTED_BUTTONS = new Set(["QUICK_REPLY", "URL"]);

/**
 * Graph's template → our 2.1 input. Button kinds the contract has no place for (phone number,
 * copy code, flows…) are left out: they need no send-time values, so sends still work. But Meta
 * numbers a send's button components by the button's position among ALL of the template's
 * buttons, so a kept button that no longer sits at its Meta position carries it as `index`
 * (Meta's [PHONE_NUMBER, URL] is stored as [URL with index 1]); every send reads it through
 * metaButtonIndex. The buttons left out are not stored: nothing is ever sent for them.
 */
function toInput(t: GraphTemplate, waNumber: string): TemplateInputRaw {
  const components = (t.components ?? []).map((c) => {
    const type = c.type.toUpperCase();
    if (type === "BUTTONS") {
      const kept = (c.buttons ?? []).flatMap((b, metaIndex) => (SUPPORTED_BUTTONS.has(b.type.toUpperCase()) ? [{ b, metaIndex }] : []));
      return {
        type,
        buttons: kept.map(({ b, metaIndex }, position) => {
          const index = metaIndex === position ? {} : { index: metaIndex };
          return b.type.toUpperCase() === "URL"
            ? { type: "URL", text: b.text ?? "", url: b.url ?? "", ...index }
            : { type: "QUICK_REPLY", text: b.text ?? "", payload: b.text ?? "", ...index };
        }),
      };
    }
    if (type === "HEADER") return { ...c, type, format: (c.format ?? "").toUpperCase() };
    return { ...c, type };
  });
  return {
    id: t.id,
    name: t.name,
    language: t.language,
    category: (t.category ?? "").toUpperCase() as "UTILITY",
    status: "APPROVED",
    rejected_reason: "NONE",
    components: components.filter((c) => !("buttons" in c) || c.type !== "BUTTONS" || c.buttons?.length) as TemplateInputRaw["components"],
    wa_number: waNumber,
  };
}

/**
 * `npm run admin -- templates:sync --number <digits>`: reads the business account's APPROVED
 * templates from GET /{business_account_id}/message_templates (every page) into `templates`
 * of the number's team. Re-running refreshes them (same name and language). Templates our
 * structure cannot hold (e.g. a LOCATION header) are reported, not imported.
 */
export async function syncTemplates({ input, graph }: { input: { number: string }; graph: GraphSettings }) {
  const row = await findNumberByDigits(await getDb(), input.number);
  if (!row) throw ApiError.invalid("number", "El número de WhatsApp no está registrado.");
  if (row.provider !== "cloud_api" || !row.businessAccountId) {
    throw ApiError.invalid("number", "El número no es de Cloud API o no tiene business_account_id.");
  }
  const ctx: AuthContext = { teamId: row.teamId, actor: { kind: "token", tokenId: 0 } };
  const all = await fetchTemplates(graph, withSecrets(row));
  const imported: string[] = [];
  const skipped: { name: string; language: string; reason: string }[] = [];
  for (const raw of all) {
    // Untrusted Graph JSON: a template that is not the documented shape is reported, not read.
    const fromGraph = graphTemplateSchema.safeParse(raw);
    if (!fromGraph.success) {
      const r = (raw ?? {}) as { name?: unknown; language?: unknown };
      const issue = fromGraph.error.issues[0];
      skipped.push({
        name: typeof r.name === "string" ? r.name : "",
        language: typeof r.language === "string" ? r.language : "",
        reason: `estructura no soportada: ${issue ? `${issue.path.map(String).join(".") || "(raíz)"} ${issue.message}` : "inválida"}`,
      });
      continue;
    }
    const t = fromGraph.data;
    const label = { name: t.name, language: t.language };
    if (t.status !== "APPROVED") {
      skipped.push({ ...label, reason: `status ${t.status}` });
      continue;
    }
    const parsed = templateInputSchema.safeParse(toInput(t, row.number));
    if (!parsed.success) {
      skipped.push({ ...label, reason: parsed.error.issues[0]?.message ?? "estructura no soportada" });
      continue;
    }
    try {
      await addTemplate({ ctx, input: parsed.data });
      imported.push(`${label.name}/${label.language}`);
    } catch (err) {
      skipped.push({ ...label, reason: (err as Error).message });
    }
  }
  return { number: row.number, team_id: row.teamId, imported, skipped };
}
