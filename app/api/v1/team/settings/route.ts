import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { parseJsonBody } from "@/lib/http/parse";
import { getTeamSettings, setTeamSettings } from "@/lib/teams/settings-service";
import { updateTeamSettingsInput } from "@/lib/teams/settings-schemas";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "team:read" }, async ({ ctx }) => {
  const data = await getTeamSettings({ ctx });
  return json({ message: "Configuración del equipo obtenida correctamente.", data });
});

export const PATCH = withAuth({ need: "team:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, updateTeamSettingsInput);
  const data = await setTeamSettings({ ctx, input });
  return json({ message: "Configuración del equipo actualizada correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD", "PATCH"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
