import { z } from "zod";
import type { TemplateInputRaw } from "@/lib/templates/schemas";
import type { ChannelNumber, SendOutcome } from "../types";
import { graphFetch, type GraphSettings } from "./client";

const text = z.union([z.string(), z.number()]).transform(String).optional();

/** One component of a Graph template; fields we do not read pass through (z.looseObject). */
const graphComponentSchema = z.looseObject({
  type: z.string(),
  format: z.string().optional(),
  text: z.string().optional(),
  buttons: z.array(z.looseObject({ type: z.string(), text: text, url: text })).optional(),
});

/**
 * A template of GET /{waba_id}/message_templates, parsed before it is read (untrusted JSON).
 * `quality_score` is Meta's object (`{"score":"GREEN","date":…}`); a bare string is read too.
 * `rejected_reason` is `NONE` unless Meta rejected it (INVALID_FORMAT, TAG_CONTENT_MISMATCH…).
 */
export const graphTemplateSchema = z.looseObject({
  id: text,
  name: z.string().min(1),
  status: z.string().min(1),
  category: z.string().optional(),
  language: z.string(),
  components: z.array(graphComponentSchema).optional(),
  quality_score: z.union([z.string(), z.looseObject({ score: z.string().nullish() })]).nullish(),
  rejected_reason: z.string().nullish(),
});
export type GraphTemplate = z.infer<typeof graphTemplateSchema>;

const pageSchema = z.looseObject({
  data: z.array(z.unknown()).optional(),
  paging: z
    .looseObject({
      cursors: z.looseObject({ after: z.string().nullish() }).nullish(),
      next: z.string().nullish(),
    })
    .nullish(),
});

/** The fields the sync reads (Meta answers only `id`, `name`… without `fields`). */
export const TEMPLATE_FIELDS = "id,name,language,status,category,components,quality_score,rejected_reason";
const PAGE_SIZE = 100;
// 1,000 pages of 100: far beyond any business account (Meta caps a WABA's templates in the thousands).
const MAX_PAGES = 1000;

type GraphFailure = Extract<SendOutcome, { ok: false }>["error"];
export type TemplateListFetch = { ok: true; items: unknown[]; pages: number } | { ok: false; error: GraphFailure };

/**
 * Every template of the number's business account, page by page, as Meta pages them: a page with
 * `paging.next` has another after it, read with its `paging.cursors.after` (or the `after` of the
 * `next` URL). The next request is built on the configured Graph URL rather than by following
 * `next` as given, so the account's token is only ever sent to GRAPH_API_BASE_URL. Items are
 * returned as received: the caller parses each, so one malformed template is set aside on its own.
 * A Graph error on any page (190 bad token, 100 unknown account, a timeout) fails the whole read:
 * a partial list must not make the rest look deleted.
 */
export async function fetchTemplates(graph: GraphSettings, number: ChannelNumber): Promise<TemplateListFetch> {
  const items: unknown[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ fields: TEMPLATE_FIELDS, limit: String(PAGE_SIZE) });
    if (after) query.set("after", after);
    const res = await graphFetch<unknown>(
      graph,
      number,
      `${encodeURIComponent(number.businessAccountId ?? "")}/message_templates?${query}`,
    );
    if (!res.ok) return { ok: false, error: res.error };
    const body = pageSchema.safeParse(res.body);
    if (!body.success) return { ok: false, error: { code: null, title: "The template list page is not the documented shape" } };
    items.push(...(body.data.data ?? []));
    const next = nextCursor(body.data.paging);
    if (!next) return { ok: true, items, pages: page + 1 };
    if (next === after) return { ok: false, error: { code: null, title: "Graph API repeated the same page cursor" } };
    after = next;
  }
  return { ok: false, error: { code: null, title: `More than ${MAX_PAGES} pages of templates` } };
}

/** The cursor of the page after this one; null on the last page (Meta leaves `next` out there). */
function nextCursor(paging: z.infer<typeof pageSchema>["paging"]): string | null {
  if (!paging?.next) return null;
  if (paging.cursors?.after) return paging.cursors.after;
  try {
    return new URL(paging.next).searchParams.get("after");
  } catch {
    return null;
  }
}

const SUPPORTED_BUTTONS = new Set(["QUICK_REPLY", "URL"]);

/**
 * Graph's template → our 2.1 input (status, quality and reason are read by the caller). Button
 * kinds the contract has no place for (phone number, copy code, flows…) are left out: they need no
 * send-time values, so sends still work. But Meta numbers a send's button components by the
 * button's position among ALL of the template's buttons, so a kept button that no longer sits at
 * its Meta position carries it as `index` (Meta's [PHONE_NUMBER, URL] is stored as [URL with
 * index 1]); every send reads it through metaButtonIndex. The buttons left out are not stored:
 * nothing is ever sent for them.
 */
export function graphTemplateToInput(t: GraphTemplate): TemplateInputRaw {
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
    // Meta writes `en_US`; a language written `en-US` is the same one.
    language: t.language.replace("-", "_"),
    category: (t.category ?? "").toUpperCase() as "UTILITY",
    status: t.status.toUpperCase(),
    rejected_reason: t.rejected_reason || "NONE",
    components: components.filter((c) => !("buttons" in c) || c.type !== "BUTTONS" || c.buttons?.length) as TemplateInputRaw["components"],
  };
}

/** Meta's quality score of a listed template (GREEN, YELLOW, RED, UNKNOWN), or null when it gives none. */
export function graphQualityScore(t: GraphTemplate): string | null {
  const q = t.quality_score;
  const score = typeof q === "string" ? q : q?.score;
  return score && /^[A-Za-z_]{1,40}$/.test(score) ? score.toUpperCase() : null;
}
