import { getDb } from "@/db/client";
import { z } from "@/lib/http/zod-es";
import { hashPassword } from "@/lib/auth/password";
import { uniqueViolation } from "@/db/errors";
import { AdminError } from "./errors";
import { intFlag, textFlag } from "./flags";
import { findAgentByEmail, insertAgent } from "./repo";
import { requireTeam } from "./teams";
import type { AdminCommand } from "./types";

export const agentCreate: AdminCommand = {
  summary: "Crea un agente del panel: --team ID --email E --name N --password P → {id, email}",
  options: { team: { type: "string" }, email: { type: "string" }, name: { type: "string" }, password: { type: "string" } },
  run: async (flags) => {
    const f = z
      .object({
        team: intFlag("team"),
        email: textFlag("email").toLowerCase().pipe(z.email("La opción --email debe ser un correo válido.")),
        name: textFlag("name"),
        password: z.string({ error: "La opción --password es obligatoria." }).min(8, "La contraseña debe tener al menos 8 caracteres."),
      })
      .parse(flags);
    const teamId = await requireTeam(f.team);
    const taken = () => new AdminError(`Ya existe un agente con el correo ${f.email}.`);
    if (await findAgentByEmail(await getDb(), f.email)) throw taken();
    const passwordHash = await hashPassword(f.password);
    try {
      return await insertAgent(await getDb(), { teamId, email: f.email, name: f.name, passwordHash });
    } catch (err) {
      if (uniqueViolation(err)) throw taken();
      throw err;
    }
  },
};
