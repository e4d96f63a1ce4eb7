import { z } from "zod";
import type { ChannelNumber } from "../types";
import { graphFetch, type GraphSettings } from "./client";

const text = z.union([z.string(), z.number()]).transform(String).optional();

/** One component of a Graph template; fields we do not read pass through (z.looseObject). */
const graphComponentSchema = z.looseObject({
  type: z.string(),
  format: z.string().optional(),
  text: z.string().optional(),
  buttons: z.array(z.looseObject({ type: z.string(), text: text, url: text })).optional(),
});

/** A template of GET /{waba_id}/message_templates, parsed before it is read (untrusted JSON). */
export const graphTemplateSchema = z.looseObject({
  id: text,
  name: z.string().min(1),
  status: z.string(),
  category: z.string().optional(),
  language: z.string(),
  components: z.array(graphComponentSchema).optional(),
});
export type GraphTemplate = z.infer<typeof graphTemplateSchema>;

const pageSchema = z.looseObject({
  data: z.array(z.unknown()).optional(),
  paging: z.looseObject({ next: z.string().optional() }).optional(),
});

/**
 * Every template of the number's business account, following `paging.next` to the end. Items are
 * returned as received: the caller parses each with `graphTemplateSchema`, so one malformed
 * template is reported on its own instead of failing the sync.
 */
export async function fetchTemplates(graph: GraphSettings, number: ChannelNumber): Promise<unknown[]> {
  const out: unknown[] = [];
  let next: string | undefined =
    `${number.businessAccountId}/message_templates?fields=id,name,status,category,language,components&limit=100`;
  for (let page = 0; next && page < 1000; page++) {
    const res: Awaited<ReturnType<typeof graphFetch<unknown>>> = await graphFetch<unknown>(graph, number, next);
    if (!res.ok) throw new Error(`Graph API: ${res.error.code ?? ""} ${res.error.title}`.trim());
    const body = pageSchema.safeParse(res.body);
    if (!body.success) throw new Error("Graph API: the template list page is not the documented shape");
    out.push(...(body.data.data ?? []));
    next = body.data.paging?.next;
  }
  return out;
}
