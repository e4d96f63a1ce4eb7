import { getDb } from "@/db/client";
import { z } from "@/lib/http/zod-es";
import { createToken, revokeTokenById } from "@/lib/auth/tokens";
import { AdminError } from "./errors";
import { intFlag, textFlag } from "./flags";
import { findTeam, insertTeam } from "./repo";
import type { AdminCommand } from "./types";

/** The team named by --team, or a clear error before any insert trips a foreign key. */
export async function requireTeam(id: number): Promise<number> {
  if (!(await findTeam(await getDb(), id))) throw new AdminError(`El equipo con el ID: ${id} no existe.`);
  return id;
}

export const teamCreate: AdminCommand = {
  summary: "Crea un equipo: --name N → {id, name}",
  options: { name: { type: "string" } },
  run: async (flags) => {
    const { name } = z.object({ name: textFlag("name") }).parse(flags);
    return insertTeam(await getDb(), name);
  },
};

export const tokenCreate: AdminCommand = {
  summary: "Crea un token de API (se muestra una sola vez): --team ID [--name N] → {id, token}",
  options: { team: { type: "string" }, name: { type: "string" } },
  run: async (flags) => {
    const input = z.object({ team: intFlag("team"), name: textFlag("name").optional() }).parse(flags);
    const teamId = await requireTeam(input.team);
    return createToken({ input: { teamId, name: input.name ?? "cli" } });
  },
};

export const tokenRevoke: AdminCommand = {
  summary: "Revoca un token: --id ID → {id, revoked: true}",
  options: { id: { type: "string" } },
  run: async (flags) => {
    const { id } = z.object({ id: intFlag("id") }).parse(flags);
    const row = await revokeTokenById({ input: { id } });
    if (!row) throw new AdminError(`El token con el ID: ${id} no existe.`);
    return { id: row.id, revoked: true };
  },
};
