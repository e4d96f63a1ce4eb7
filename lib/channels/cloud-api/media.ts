import type { ChannelNumber } from "../types";
import { graphFetch, type GraphSettings } from "./client";

/**
 * Downloads an inbound attachment: GET /{media-id} gives a short-lived URL, which is fetched
 * with the same token. Returned as a stream so the proxy route never buffers large videos.
 */
export async function downloadMedia(graph: GraphSettings, number: ChannelNumber, mediaId: string) {
  const meta = await graphFetch<{ url?: string; mime_type?: string }>(graph, number, encodeURIComponent(mediaId));
  if (!meta.ok || !meta.body?.url) return null;
  const res = await fetch(meta.body.url, {
    headers: { authorization: `Bearer ${number.secrets.accessToken ?? ""}` },
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok || !res.body) return null;
  return { body: res.body, contentType: meta.body.mime_type || res.headers.get("content-type") || "application/octet-stream" };
}
