import { z } from "@/lib/http/zod-es";
import { createLabel } from "@/lib/labels/service";
import { createLabelBody } from "@/lib/labels/schemas";
import { createContact } from "@/lib/contacts/service";
import { hexFlag, intFlag, textFlag } from "./flags";
import { requireTeam } from "./teams";
import { cliContext, type AdminCommand } from "./types";

export const labelAdd: AdminCommand = {
  summary: "Crea una etiqueta: --team ID --title T [--bg #rrggbb --text #rrggbb --description D]",
  options: {
    team: { type: "string" },
    title: { type: "string" },
    bg: { type: "string" },
    text: { type: "string" },
    description: { type: "string" },
  },
  run: async (flags) => {
    const f = z
      .object({
        team: intFlag("team"),
        title: textFlag("title"),
        bg: hexFlag("bg", "#25d366"),
        text: hexFlag("text", "#ffffff"),
        description: z.string().optional(),
      })
      .parse(flags);
    const teamId = await requireTeam(f.team);
    const input = createLabelBody.parse({ title: f.title, description: f.description, bg_color: f.bg, text_color: f.text });
    return createLabel({ ctx: cliContext(teamId), input });
  },
};

export const contactAdd: AdminCommand = {
  summary: "Crea un contacto: --team ID --number N [--name N --customer-id X]",
  options: { team: { type: "string" }, number: { type: "string" }, name: { type: "string" }, "customer-id": { type: "string" } },
  run: async (flags) => {
    const f = z
      .object({
        team: intFlag("team"),
        number: textFlag("number"),
        name: z.string().optional(),
        "customer-id": textFlag("customer-id").optional(),
      })
      .parse(flags);
    const teamId = await requireTeam(f.team);
    return createContact({
      ctx: cliContext(teamId),
      input: { customer_number: f.number, name: f.name, customer_id: f["customer-id"] },
    });
  },
};
