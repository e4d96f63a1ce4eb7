"use client";
import { useT } from "@/lib/i18n";
import { RichText } from "./rich-text";
import { obj, str } from "./safe-url";

/** System and call types of spec 2.5, and the readable fallback for any other type. */
type P = { payload: unknown };

export function SystemMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return (
    <div data-renderer="system" className="text-sm">
      <p className="font-medium">☎ {t("msg.numberChanged")}</p>
      {str(p.body) && <p><RichText text={str(p.body)} /></p>}
      {str(p.new_wa_id) && <p className="text-xs text-slate-600">{t("msg.newNumber", { id: str(p.new_wa_id) })}</p>}
    </div>
  );
}

function ErrorView({ renderer, title, p, details }: { renderer: string; title: string; p: Record<string, unknown>; details: string }) {
  const t = useT();
  return (
    <div data-renderer={renderer} className="text-sm">
      <p className="font-medium text-slate-700">
        <span aria-hidden="true">⚠ </span>
        {title}
      </p>
      {str(p.title) && <p>{str(p.title)}</p>}
      {str(p.message) && <p>{str(p.message)}</p>}
      {details && <p className="text-xs text-slate-600">{details}</p>}
      {p.code !== undefined && p.code !== null && <p className="text-xs text-slate-600">{t("msg.code", { code: str(p.code) })}</p>}
    </div>
  );
}

export function UnknownMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return <ErrorView renderer="unknown" title={t("msg.unknown")} p={p} details={str(obj(p.error_data).details)} />;
}

export function UnsupportedMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return <ErrorView renderer="unsupported" title={t("msg.unsupported")} p={p} details={str(p.details)} />;
}

export function CallRequestMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return (
    <div data-renderer="call_permission_request" className="text-sm">
      <p className="font-medium"><span aria-hidden="true">📞 </span>{t("msg.callRequest")}</p>
      {str(p.text) && <p><RichText text={str(p.text)} /></p>}
    </div>
  );
}

export function CallReplyMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  const accepted = str(p.response) === "accept";
  const source = str(p.response_source);
  const expires = str(p.expiration_timestamp);
  const expiresText = /^\d+$/.test(expires) ? new Date(Number(expires) * 1000).toLocaleString() : expires;
  return (
    <div data-renderer="call_permission_reply" className="text-sm">
      <p className="text-xs text-slate-600">{t("msg.callReply")}</p>
      <p className={accepted ? "font-medium text-green-800" : "font-medium text-red-800"}>
        <span aria-hidden="true">{accepted ? "✅ " : "⛔ "}</span>
        {accepted ? t("msg.callAccept") : t("msg.callReject")}
      </p>
      <p className="text-xs text-slate-600">
        {p.is_permanent === true ? t("msg.permanent") : expires ? t("msg.expires", { date: expiresText }) : null}
        {source === "user_action" || source === "automatic" ? ` · ${t(`msg.source.${source}`)}` : source ? ` · ${source}` : ""}
      </p>
    </div>
  );
}

/**
 * Any other type, or a payload its type's renderer cannot show (`unrenderable`): its fields as a
 * readable list, text only, so nothing is lost and nothing runs.
 */
export function FallbackMessage({ type, payload, unrenderable }: { type: string; payload: unknown; unrenderable?: boolean }) {
  const t = useT();
  return (
    <div data-renderer="fallback" data-unrenderable={unrenderable ? "" : undefined} className="text-sm">
      <p className="text-xs font-semibold text-slate-600">{t("msg.fallback", { type })}</p>
      {unrenderable && <p className="text-xs text-slate-600" data-testid="unrenderable">{t("msg.unrenderable")}</p>}
      <FieldsView value={payload} />
    </div>
  );
}

function FieldsView({ value, depth = 0 }: { value: unknown; depth?: number }) {
  const t = useT();
  if (value === null || value === undefined || value === "") return <span className="text-slate-500">{t("msg.empty")}</span>;
  if (typeof value !== "object") return <span className="wa-text">{str(value)}</span>;
  if (depth > 4) return <span className="wa-text text-xs">{JSON.stringify(value)}</span>;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return (
    <dl className="space-y-0.5 border-l border-slate-300 pl-2">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt className="inline text-xs font-medium text-slate-600">{k}: </dt>
          <dd className="inline text-sm">
            <FieldsView value={v} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
