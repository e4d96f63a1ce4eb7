import { getDb } from "@/db/client";
import { z } from "@/lib/http/zod-es";
import { hashPassword } from "@/lib/auth/password";
import { uniqueViolation } from "@/db/errors";
import { AdminError } from "./errors";
import { intFlag, textFlag } from "./flags";
import { findAgentByEmail, insertAgent } from "./repo";
import { CLI, requireTeam } from "./teams";
import { recordAudit } from "@/lib/audit/service";
import type { AdminCommand } from "./types";
import { ROLES } from "@/lib/auth/permissions";

export const agentCreate: AdminCommand = {
  summary: `Crea un agente del panel: --team ID --email E --name N --password P [--role ${ROLES.join("|")}] (por omisión, agent) → {id, email, role}`,
  options: {
    team: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
    password: { type: "string" },
    role: { type: "string" },
  },
  run: async (flags) => {
    const f = z
      .object({
        team: intFlag("team"),
        email: textFlag("email").toLowerCase().pipe(z.email("La opción --email debe ser un correo válido.")),
        name: textFlag("name"),
        password: z.string({ error: "La opción --password es obligatoria." }).min(8, "La contraseña debe tener al menos 8 caracteres."),
        role: z.enum(ROLES, { error: `La opción --role debe ser una de: ${ROLES.join(", ")}.` }).default("agent"),
      })
      .parse(flags);
    const teamId = await requireTeam(f.team);
    const taken = () => new AdminError(`Ya existe un agente con el correo ${f.email}.`);
    if (await findAgentByEmail(await getDb(), f.email)) throw taken();
    const passwordHash = await hashPassword(f.password);
    try {
      const agent = await insertAgent(await getDb(), { teamId, email: f.email, name: f.name, passwordHash, role: f.role });
      // The password by name only: the trail records that it was set, never its hash.
      await recordAudit(await getDb(), {
        teamId,
        actor: CLI,
        action: "agent.created",
        target: { kind: "agent", id: agent.id, name: f.name },
        after: { name: f.name, email: f.email, role: f.role, password: "set" },
      });
      return agent;
    } catch (err) {
      if (uniqueViolation(err)) throw taken();
      throw err;
    }
  },
};
