import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { randomSecret } from "@/lib/crypto/hash";
import type { AuthContext } from "./context";
import { SESSION_COOKIE } from "./authenticate";
import { accountKey, addressKey, clearFailures, failureLimitError, releaseFailure, reserveFailure } from "@/lib/rate-limit/failures";
import { unmatchableHash, verifyPassword } from "./password";
import { hashToken } from "./tokens";
import { deleteSession, findAgentByEmail, findAgentById, insertSession } from "./session-repo";
import { INVALID_CREDENTIALS, type AgentDto, type LoginRequest } from "./session-schemas";

// Unknown emails are checked against a hash no password matches, with the same parameters: both
// failures cost one scrypt, so response time does not reveal which emails exist.
const DUMMY_HASH = unmatchableHash();

/**
 * Checks the credentials and opens a session; returns the raw token (only its hash is stored).
 *
 * Failure budgets (lib/rate-limit/failures.ts, shared by every replica): the client address
 * (`AUTH_FAILURES_PER_ADDRESS`) and the account (`SIGN_IN_FAILURES_PER_ACCOUNT`, keyed by the
 * email whether or not it exists, so unknown and known emails get the same answers) each take a
 * slot before the password is checked: a spent budget answers 429 with `Retry-After` and costs
 * no hash. A wrong password keeps both slots. A right one gives its address slot back (the
 * address's failures on other accounts still count) and clears the account's failures: the owner
 * proved the password, and earlier typos should not lock them out later in the window. An attempt
 * that could not be checked (hash queue full, database error) gives both back.
 */
export async function login({ input, address }: { input: LoginRequest; address: string }) {
  const byAddress = await reserveFailure(addressKey(address), config.authFailuresPerAddress);
  if (!byAddress.ok) throw failureLimitError(byAddress.retryAfter);
  const account = accountKey(input.email);
  const byAccount = await reserveFailure(account, config.signInFailuresPerAccount);
  if (!byAccount.ok) {
    await releaseFailure(byAddress.slot);
    throw failureLimitError(byAccount.retryAfter);
  }
  let agent: Awaited<ReturnType<typeof findAgentByEmail>>;
  let ok: boolean;
  try {
    agent = await findAgentByEmail(await getDb(), input.email);
    ok = await verifyPassword(input.password, agent?.passwordHash ?? DUMMY_HASH, { failFast: true });
  } catch (err) {
    await Promise.all([releaseFailure(byAddress.slot), releaseFailure(byAccount.slot)]);
    throw err;
  }
  if (!agent || !ok) throw ApiError.invalid("email", INVALID_CREDENTIALS);
  await Promise.all([releaseFailure(byAddress.slot), clearFailures(account)]);
  const token = randomSecret(32);
  await insertSession(await getDb(), {
    agentId: agent.id,
    teamId: agent.teamId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + config.sessionTtlSeconds * 1000),
  });
  const dto: AgentDto = { id: agent.id, name: agent.name, email: agent.email, team_id: agent.teamId };
  return { token, agent: dto };
}

export async function logout({ ctx }: { ctx: AuthContext }) {
  if (ctx.actor.kind === "agent") await deleteSession(await getDb(), ctx.teamId, ctx.actor.sessionId);
}

/** The signed-in agent; a bearer token has no agent behind it (404). */
export async function me({ ctx }: { ctx: AuthContext }): Promise<AgentDto> {
  if (ctx.actor.kind !== "agent") throw ApiError.notFound("La solicitud no pertenece a una sesión de agente.");
  const row = await findAgentById(await getDb(), ctx.teamId, ctx.actor.agentId);
  if (!row) throw ApiError.unauthenticated();
  return { id: row.id, name: row.name, email: row.email, team_id: row.teamId };
}

/** `Set-Cookie` for a session token; Secure only over https so plain-http localhost still works. */
export function sessionCookie(req: Request, token: string, maxAge = config.sessionTtlSeconds): string {
  const https = new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  const parts = [`${SESSION_COOKIE}=${encodeURIComponent(token)}`, "HttpOnly", "SameSite=Lax", "Path=/", `Max-Age=${maxAge}`];
  if (https) parts.push("Secure");
  return parts.join("; ");
}
