import type { ParseArgsConfig } from "node:util";
import type { AuthContext } from "@/lib/auth/context";

export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One CLI command: its flags (node's util.parseArgs) and a handler returning the JSON to print. */
export type AdminCommand = {
  summary: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  run: (flags: FlagValues) => Promise<Record<string, unknown>>;
};

/**
 * The tenant context for service functions called from the CLI. The operator acts for the team
 * named by --team; no token is involved (tokenId 0 never matches a stored token).
 */
export function cliContext(teamId: number): AuthContext {
  return { teamId, actor: { kind: "token", tokenId: 0 } };
}
