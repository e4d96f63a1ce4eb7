import fs from "node:fs/promises";
import { z } from "@/lib/http/zod-es";
import { addTemplate } from "@/lib/templates/service";
import { templateInputSchema } from "@/lib/templates/schemas";
import { AdminError } from "./errors";
import { intFlag, textFlag } from "./flags";
import { requireTeam } from "./teams";
import { cliContext, type AdminCommand } from "./types";

export const templateAdd: AdminCommand = {
  summary: "Agrega o actualiza una plantilla (estructura 2.1) desde un archivo JSON: --team ID --file T.json",
  options: { team: { type: "string" }, file: { type: "string" } },
  run: async (flags) => {
    const f = z.object({ team: intFlag("team"), file: textFlag("file") }).parse(flags);
    const teamId = await requireTeam(f.team);
    let text: string;
    try {
      text = await fs.readFile(f.file, "utf8");
    } catch {
      throw new AdminError(`No se pudo leer el archivo ${f.file}.`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AdminError(`El archivo ${f.file} no es un JSON válido.`);
    }
    const input = templateInputSchema.parse(raw);
    return addTemplate({ ctx: cliContext(teamId), input });
  },
};
