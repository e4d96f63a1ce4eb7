import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { me } from "@/lib/auth/session";

export const GET = withAuth(async ({ ctx }) => {
  const data = await me({ ctx });
  return json({ message: "Agente obtenido correctamente.", data });
});
