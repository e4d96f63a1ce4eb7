import type { Template, WaNumber } from "@/lib/api-client/types";

/**
 * The /templates page's sections: one per business account of the team's Cloud API numbers (its
 * numbers and the templates synced for them), one for Cloud API numbers without an account, and
 * one for the sandbox and the team-wide templates (usable from every number). Pure: the page
 * groups what the list and the numbers answered.
 */
export type TemplateGroup = {
  key: string;
  kind: "account" | "unlinked" | "team";
  businessAccountId: string | null;
  numbers: WaNumber[];
  templates: Template[];
};

export function groupTemplates(numbers: WaNumber[], templates: Template[]): TemplateGroup[] {
  const groups = new Map<string, TemplateGroup>();
  const groupOf = (n: WaNumber | undefined): TemplateGroup => {
    const kind = !n || n.provider === "sandbox" ? "team" : n.business_account_id ? "account" : "unlinked";
    const key = kind === "account" ? `account:${n!.business_account_id}` : kind;
    let g = groups.get(key);
    if (!g)
      groups.set(
        key,
        (g = { key, kind, businessAccountId: kind === "account" ? n!.business_account_id : null, numbers: [], templates: [] }),
      );
    return g;
  };
  for (const n of numbers) groupOf(n).numbers.push(n);
  const byDigits = new Map(numbers.map((n) => [n.number, n]));
  for (const t of templates) groupOf(t.wa_number ? byDigits.get(t.wa_number) : undefined).templates.push(t);
  const order = { account: 0, unlinked: 1, team: 2 };
  return [...groups.values()].sort((a, b) => order[a.kind] - order[b.kind]);
}
