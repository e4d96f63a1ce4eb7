import "server-only";
import { isSupportedCountry } from "libphonenumber-js";
import { getDb, transaction } from "@/db/client";
import { recordAudit } from "@/lib/audit/service";
import { hashPassword } from "@/lib/auth/password";
import { startSession } from "@/lib/auth/session-service";
import { ApiError } from "@/lib/http/errors";
import { anyTeam, insertSetupOwner, insertSetupTeam, lockFirstTeam } from "./repo";
import { SETUP_COUNTRY_UNKNOWN, SETUP_DONE, type SetupInput } from "./schemas";

/**
 * The first run without the demo (docs/features/setup.md): while the database has no team at all,
 * `/setup` creates the team and its owner and signs the owner in. Once a team exists it never
 * runs again: 409, and the page sends the visitor to sign in.
 */

// A team, once made, is never undone by the service: once seen, the answer is kept for the
// process and the public routes cost no database read.
let done = false;

export async function setupNeeded(): Promise<boolean> {
  if (done) return false;
  if (await anyTeam(await getDb())) done = true;
  return !done;
}

export async function runSetup({ input: read, address }: { input: () => Promise<SetupInput>; address: string }) {
  if (!(await setupNeeded())) throw ApiError.conflict(SETUP_DONE);
  const input = await read();
  const country = input.default_country ?? null;
  if (country && !isSupportedCountry(country)) throw ApiError.invalid("default_country", SETUP_COUNTRY_UNKNOWN);
  // scrypt is slow on purpose: outside the transaction (PGlite runs one at a time).
  const passwordHash = await hashPassword(input.password);
  const { team, owner } = await transaction(async (tx) => {
    // Two set-ups at once: the second waits here, then finds the first one's team.
    await lockFirstTeam(tx);
    if (await anyTeam(tx)) throw ApiError.conflict(SETUP_DONE);
    const team = await insertSetupTeam(tx, { name: input.team_name, defaultCountry: country });
    const owner = await insertSetupOwner(tx, { teamId: team.id, name: input.name, email: input.email, passwordHash });
    const actor = { kind: "agent" as const, id: owner.id, name: owner.name };
    await recordAudit(tx, {
      teamId: team.id,
      actor,
      ip: address,
      action: "team.created",
      target: { kind: "team", id: team.id, name: team.name },
      after: { name: team.name, default_country: team.defaultCountry },
    });
    // The password by name only, as the CLI records it.
    await recordAudit(tx, {
      teamId: team.id,
      actor,
      ip: address,
      action: "agent.created",
      target: { kind: "agent", id: owner.id, name: owner.name },
      after: { name: owner.name, email: owner.email, role: owner.role, password: "set" },
    });
    return { team, owner };
  }).catch((err) => {
    if (err instanceof ApiError && err.status === 409) done = true;
    throw err;
  });
  done = true;
  const session = await startSession({ agent: owner, address });
  return {
    token: session.token,
    data: { team: { id: team.id, name: team.name, default_country: team.defaultCountry }, agent: session.agent },
  };
}
