import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { media } from "@/db/schema";

export async function insertMedia(db: DbOrTx, values: typeof media.$inferInsert) {
  const [row] = await db
    .insert(media)
    .values(values)
    .returning({ path: media.path, contentType: media.contentType, size: media.size, sha256: media.sha256 });
  return row;
}

/** The file with its bytes, only if it belongs to the team. */
export async function findMediaFile(db: DbOrTx, { teamId, path }: { teamId: number; path: string }) {
  const [row] = await db
    .select({
      contentType: media.contentType,
      size: media.size,
      sha256: media.sha256,
      originalName: media.originalName,
      content: media.content,
    })
    .from(media)
    .where(and(eq(media.teamId, teamId), eq(media.path, path)))
    .limit(1);
  return row;
}

/** Metadata only (no bytes): whether the team uploaded this path. */
export async function findMediaMeta(db: DbOrTx, { teamId, path }: { teamId: number; path: string }) {
  const [row] = await db
    .select({ id: media.id, contentType: media.contentType, sha256: media.sha256 })
    .from(media)
    .where(and(eq(media.teamId, teamId), eq(media.path, path)))
    .limit(1);
  return row;
}
