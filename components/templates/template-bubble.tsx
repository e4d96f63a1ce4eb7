import type { TemplateComponent } from "@/lib/templates/schemas";
import { fillPlaceholders } from "@/lib/templates/schemas";
import { RichText, SafeLink } from "@/components/messages/rich-text";
import { arr, obj, safeUrl, str } from "@/components/messages/safe-url";

type Props = {
  components: TemplateComponent[];
  headerValues?: Record<string, string>;
  bodyValues?: Record<string, string>;
  /** A chosen or uploaded file to show in a media header instead of the example. */
  mediaUrl?: string | null;
  mediaName?: string | null;
};

/**
 * A template as WhatsApp shows it: media or text header, body, grey footer, and buttons under
 * the bubble. Used for the send form's live preview and for `template` messages in the history,
 * whose stored payloads may hold anything: every field is read as untrusted.
 */
export function TemplateContent({ components, headerValues = {}, bodyValues = {}, mediaUrl, mediaName }: Props) {
  const header = components.find((c) => c.type === "HEADER");
  const body = components.find((c) => c.type === "BODY");
  const footer = components.find((c) => c.type === "FOOTER");
  const buttons = components.find((c) => c.type === "BUTTONS");
  return (
    <div data-testid="template-content">
      {header && <HeaderView header={header} values={headerValues} mediaUrl={mediaUrl} mediaName={mediaName} />}
      {body && (
        <p className="text-sm" data-part="body">
          <RichText text={fillPlaceholders(str(body.text), bodyValues)} />
        </p>
      )}
      {footer && (
        <p className="mt-1 text-xs text-slate-600" data-part="footer">
          <RichText text={str(footer.text)} />
        </p>
      )}
      {buttons && arr(buttons.buttons).length > 0 && (
        <ul className="-mx-2 mt-2 divide-y divide-slate-200 border-t border-slate-200" data-part="buttons">
          {arr(buttons.buttons).map((button, i) => {
            const b = obj(button);
            return (
              <li key={i} className="px-2 py-1.5 text-center text-sm font-medium text-wa-blue">
                {b.type === "URL" ? (
                  <span className="inline-flex items-center gap-1">
                    <span aria-hidden="true">↗</span>
                    <SafeLink url={b.url}>{str(b.text)}</SafeLink>
                  </span>
                ) : (
                  <span className="inline-flex items-center gap-1">
                    <span aria-hidden="true">↩</span>
                    {str(b.text)}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function HeaderView({
  header,
  values,
  mediaUrl,
  mediaName,
}: {
  header: Extract<TemplateComponent, { type: "HEADER" }>;
  values: Record<string, string>;
  mediaUrl?: string | null;
  mediaName?: string | null;
}) {
  if (header.format === "TEXT") {
    return (
      <p className="mb-1 font-semibold" data-part="header">
        <RichText text={fillPlaceholders(str(header.text), values)} />
      </p>
    );
  }
  const src = safeUrl(mediaUrl) ?? safeUrl(arr(obj(header.example).header_handle)[0]);
  const name = mediaName ?? (src ? fileNameOf(src) : "");
  return (
    <div className="-mx-1 -mt-1 mb-2 overflow-hidden rounded-md bg-slate-200" data-part="header" data-format={header.format}>
      {header.format === "IMAGE" && src ? (
        <img src={src} alt="" className="max-h-56 w-full object-cover" />
      ) : header.format === "VIDEO" && src ? (
        <video src={src} controls preload="metadata" className="max-h-56 w-full bg-black" />
      ) : (
        <div className="flex items-center gap-2 p-3 text-sm text-slate-700">
          <span aria-hidden="true" className="rounded bg-red-600 px-1.5 py-0.5 text-[10px] font-bold text-white">
            {header.format === "DOCUMENT" ? "PDF" : header.format}
          </span>
          <span className="truncate">{name || header.format}</span>
        </div>
      )}
    </div>
  );
}

/** The last path segment, percent-decoded when it decodes (a stored URL may hold a broken `%`). */
function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0].split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
