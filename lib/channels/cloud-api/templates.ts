import type { ChannelNumber } from "../types";
import { graphFetch, type GraphSettings } from "./client";

export type GraphTemplate = {
  id?: string;
  name?: string;
  status?: string;
  category?: string;
  language?: string;
  components?: Record<string, unknown>[];
};

/** Every template of the number's business account, following `paging.next` to the end. */
export async function fetchTemplates(graph: GraphSettings, number: ChannelNumber): Promise<GraphTemplate[]> {
  const out: GraphTemplate[] = [];
  let next: string | undefined = `${number.businessAccountId}/message_templates?fields=id,name,status,category,language,components&limit=100`;
  for (let page = 0; next && page < 1000; page++) {
    const res: Awaited<ReturnType<typeof graphFetch<{ data?: GraphTemplate[]; paging?: { next?: string } }>>> = await graphFetch(graph, number, next);
    if (!res.ok) throw new Error(`Graph API: ${res.error.code ?? ""} ${res.error.title}`.trim());
    out.push(...(res.body.data ?? []));
    next = res.body.paging?.next;
  }
  return out;
}
