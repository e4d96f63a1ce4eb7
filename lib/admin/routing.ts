import { z } from "@/lib/http/zod-es";
import { createBot } from "@/lib/bots/service";
import { createCampaign } from "@/lib/campaigns/service";
import { intFlag, textFlag } from "./flags";
import { requireTeam } from "./teams";
import { cliContext, type AdminCommand } from "./types";

/** Reply targets. The webhook signing secret is printed here once and never by the API. */
export const botAdd: AdminCommand = {
  summary: "Crea un bot: --team ID --name N [--default] [--webhook-url U]",
  options: { team: { type: "string" }, name: { type: "string" }, default: { type: "boolean" }, "webhook-url": { type: "string" } },
  run: async (flags) => {
    const f = z
      .object({
        team: intFlag("team"),
        name: textFlag("name"),
        default: z.boolean().optional(),
        "webhook-url": textFlag("webhook-url").optional(),
      })
      .parse(flags);
    const teamId = await requireTeam(f.team);
    return createBot({ ctx: cliContext(teamId), input: { name: f.name, is_default: f.default ?? false, webhook_url: f["webhook-url"] } });
  },
};

export const campaignAdd: AdminCommand = {
  summary: "Crea una campaña: --team ID --name N [--webhook-url U]",
  options: { team: { type: "string" }, name: { type: "string" }, "webhook-url": { type: "string" } },
  run: async (flags) => {
    const f = z.object({ team: intFlag("team"), name: textFlag("name"), "webhook-url": textFlag("webhook-url").optional() }).parse(flags);
    const teamId = await requireTeam(f.team);
    return createCampaign({ ctx: cliContext(teamId), input: { name: f.name, webhook_url: f["webhook-url"] } });
  },
};
