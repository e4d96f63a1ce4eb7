import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { updateParams } from "@/lib/delivery/updates-schemas";
import { getUpdate } from "@/lib/delivery/updates";

export const GET = withAuth<{ update_id: string }>(async ({ ctx, params }) => {
  const input = updateParams.parse(params);
  const data = await getUpdate({ ctx, input });
  return json({ message: "Actualización obtenida correctamente.", data });
});
