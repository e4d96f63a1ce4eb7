import type { Role } from "./permissions";

/**
 * Who is calling, and for which team. Every service function takes it; every query filters by teamId.
 * `role` (an agent's) and `scopes` (a token's) are set by authenticate() for every /api/v1 caller and
 * checked by withAuth (lib/auth/permissions.ts); contexts built for the service's own work (the
 * CLI, chores) leave them out, and a caller without them is refused everything.
 */
export type Actor =
  | { kind: "token"; tokenId: number; scopes?: readonly string[] }
  | { kind: "agent"; agentId: number; agentName: string; sessionId: number; role?: Role };

/** `address`: the client's, as the per-address limits read it (lib/http/client-address.ts), for the audit trail. */
export type AuthContext = { teamId: number; actor: Actor; address?: string };
