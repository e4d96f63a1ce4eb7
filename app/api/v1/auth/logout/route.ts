import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { logout, sessionCookie } from "@/lib/auth/session";

export const POST = withAuth(async ({ req, ctx }) => {
  await logout({ ctx });
  return json({ message: "Sesión cerrada." }, 200, { "set-cookie": sessionCookie(req, "", 0) });
});
