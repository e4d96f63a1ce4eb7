import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createNumberBody } from "@/lib/numbers/settings-schemas";
import { createNumber, listNumberSettings } from "@/lib/numbers/settings-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** The team's numbers as settings (docs/features/numbers.md); GET /api/v1/wa_numbers stays the send catalogue. */
export const GET = withAuth({ need: "numbers:admin" }, async ({ ctx }) => {
  const data = await listNumberSettings({ ctx });
  return json({ message: "Números obtenidos correctamente.", data });
});

export const POST = withAuth({ need: "numbers:admin" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createNumberBody);
  const data = await createNumber({ ctx, input });
  return json({ message: "Número registrado correctamente.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD", "POST"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
