"use client";
import { useT } from "@/lib/i18n";
import { RichText } from "./rich-text";
import { obj, safeUrl, str } from "./safe-url";

/** Renderers of the media types of spec 2.5: image, video, audio, document, sticker. */
type P = { payload: unknown };

function Caption({ text }: { text: string }) {
  return text ? (
    <p className="mt-1 text-sm">
      <RichText text={text} />
    </p>
  ) : null;
}

/** A media URL that is not http(s) is shown as text next to a placeholder, never loaded. */
function Unavailable({ label, url }: { label: string; url: string }) {
  return (
    <div className="rounded-md bg-slate-200 p-3 text-sm text-slate-700">
      <p className="font-medium">{label}</p>
      {url && (
        <p className="wa-text text-xs" data-inert-url="">
          {url}
        </p>
      )}
    </div>
  );
}

export function ImageMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  const src = safeUrl(p.url);
  return (
    <figure data-renderer="image">
      {src ? (
        <a href={src} target="_blank" rel="noopener noreferrer nofollow">
          <img
            src={src}
            alt={str(p.caption) || t("msg.image")}
            loading="lazy"
            className="max-h-72 w-full rounded-md bg-slate-200 object-cover"
          />
        </a>
      ) : (
        <Unavailable label={t("msg.image")} url={str(p.url)} />
      )}
      <Caption text={str(p.caption)} />
    </figure>
  );
}

export function VideoMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  const src = safeUrl(p.url);
  return (
    <figure data-renderer="video">
      {src ? (
        <video
          src={src}
          controls
          preload="metadata"
          className="max-h-72 w-full rounded-md bg-black"
          aria-label={str(p.filename) || t("msg.video")}
        />
      ) : (
        <Unavailable label={t("msg.video")} url={str(p.url)} />
      )}
      {str(p.filename) && <p className="mt-1 text-xs text-slate-600">{str(p.filename)}</p>}
      <Caption text={str(p.caption)} />
    </figure>
  );
}

export function AudioMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  const src = safeUrl(p.url);
  return (
    <div data-renderer="audio" className="flex min-w-56 items-center gap-2">
      <span aria-hidden="true" className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-wa-light text-white">
        🎤
      </span>
      {src ? (
        <audio src={src} controls preload="none" className="h-9 w-full" aria-label={t("msg.audio")} />
      ) : (
        <Unavailable label={t("msg.audio")} url={str(p.url)} />
      )}
    </div>
  );
}

export function DocumentMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  const src = safeUrl(p.url);
  const name = str(p.filename) || t("msg.document");
  const ext = (name.split(".").pop() ?? "").slice(0, 4).toUpperCase() || "DOC";
  const inner = (
    <span className="flex items-center gap-3 rounded-md bg-black/5 p-2">
      <span aria-hidden="true" className="rounded bg-red-600 px-1.5 py-1 text-[10px] font-bold text-white">
        {ext}
      </span>
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium" data-testid="document-name">
          {name}
        </span>
        <span className="block text-xs text-slate-600">{str(p.contentType)}</span>
      </span>
    </span>
  );
  return (
    <div data-renderer="document">
      {src ? (
        <a href={src} target="_blank" rel="noopener noreferrer nofollow" download={name} aria-label={`${t("msg.download")}: ${name}`}>
          {inner}
        </a>
      ) : (
        <>
          {inner}
          {str(p.url) && (
            <p className="wa-text text-xs" data-inert-url="">
              {str(p.url)}
            </p>
          )}
        </>
      )}
      <Caption text={str(p.caption)} />
    </div>
  );
}

export function StickerMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  const src = safeUrl(p.url);
  const label = `${t("msg.sticker")}${p.animated === true ? ` (${t("msg.animated")})` : ""}`;
  return (
    <div data-renderer="sticker">
      {src ? (
        <img src={src} alt={label} loading="lazy" className="h-32 w-32 object-contain" />
      ) : (
        <Unavailable label={label} url={str(p.url)} />
      )}
      {p.animated === true && <p className="text-xs text-slate-600">{label}</p>}
    </div>
  );
}
