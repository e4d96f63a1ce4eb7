import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createInvitationBody } from "@/lib/agents/invitation-schemas";
import { createInvitation, listInvitations } from "@/lib/agents/invitation-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "agents:read" }, async ({ ctx }) => {
  const data = await listInvitations({ ctx });
  return json({ message: "Invitaciones pendientes obtenidas correctamente.", data });
});

export const POST = withAuth({ need: "agents:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createInvitationBody);
  const data = await createInvitation({ ctx, input });
  return json(
    {
      message: data.email_sent
        ? `Invitación creada y enviada por correo a ${data.email}. El enlace solo se muestra esta vez.`
        : "Invitación creada. No se envió ningún correo: comparta el enlace con la persona invitada. El enlace solo se muestra esta vez.",
      data,
    },
    201,
  );
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD", "POST"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
