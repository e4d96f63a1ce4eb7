import { seedDemo } from "@/lib/seed/demo";
import { config } from "@/lib/config";
import type { AdminCommand } from "./types";

export const seedDemoCommand: AdminCommand = {
  summary: "Crea el equipo de demostración (idempotente) y emite un token (DEMO_API_TOKEN si está definido) → {team_id, token}",
  options: {},
  run: async () => {
    const { team_id, token, created } = await seedDemo({ token: config.demoApiToken });
    return { team_id, token, created };
  },
};
