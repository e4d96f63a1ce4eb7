import type { Metadata } from "next";
import { AcceptInvitation } from "@/components/agents/accept-invitation";

// Outside the dashboard, like the sign-in page: whoever holds the link is not signed in yet.
export const metadata: Metadata = { title: "Invitación · WA Mensajería", robots: { index: false, follow: false } };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-wa-green to-slate-100 px-4 py-10">
      <AcceptInvitation token={token} />
    </main>
  );
}
