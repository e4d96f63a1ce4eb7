import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";
import { newToken } from "@/lib/auth/tokens";
import { seedDemo } from "./demo";

/**
 * Demo data on start: the token is DEMO_API_TOKEN when set, else the one kept in
 * `.data/demo-token` from an earlier start, else a new one. Only its hash is in the database,
 * so the file is what lets README's curl examples (`TOKEN=$(cat .data/demo-token)`) work.
 */
export async function ensureDemoData() {
  const tokenFile = path.join(config.dataDir, "demo-token");
  const saved = fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, "utf8").trim() : undefined;
  const token = config.demoApiToken ?? saved ?? newToken();
  const result = await seedDemo({ token });
  if (token !== saved) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(tokenFile, token + "\n", { mode: 0o600 });
  }
  return {
    ...result,
    token,
    tokenFile: path.relative(process.cwd(), tokenFile).startsWith("..") ? tokenFile : path.relative(process.cwd(), tokenFile),
  };
}
