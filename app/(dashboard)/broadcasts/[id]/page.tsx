import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BroadcastDetail } from "@/components/broadcasts/broadcast-detail";

export const metadata: Metadata = { title: "Difusión · WA Mensajería" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^\d{1,9}$/.test(id)) notFound();
  return <BroadcastDetail id={Number(id)} />;
}
