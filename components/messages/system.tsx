"use client";
import { useI18n, useT } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
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
      {str(p.body) && (
        <p>
          <RichText text={str(p.body)} />
        </p>
      )}
      {str(p.new_wa_id) && <p className="text-xs text-slate-600">{t("msg.newNumber", { id: str(p.new_wa_id) })}</p>}
    </div>
  );
}

/**
 * What WhatsApp could not hand over: our own words first, then the provider's English texts once
 * each (they often repeat one another), folded away under "provider detail".
 */
function ErrorView({
  renderer,
  title,
  hint,
  p,
  texts,
}: {
  renderer: string;
  title: string;
  hint?: string;
  p: Record<string, unknown>;
  texts: unknown[];
}) {
  const t = useT();
  const detail = [...new Set(texts.map((x) => str(x).trim()).filter(Boolean))];
  const code = p.code !== undefined && p.code !== null && str(p.code) !== "" ? str(p.code) : "";
  const original = str(p.original_type);
  return (
    <div data-renderer={renderer} className="text-sm">
      <p className="font-medium text-slate-700">
        <span aria-hidden="true">⚠ </span>
        {title}
      </p>
      {hint && <p className="text-xs text-slate-700">{hint}</p>}
      {original && <p className="text-xs text-slate-600">{t("msg.originalType", { type: original })}</p>}
      {(detail.length > 0 || code) && (
        <details className="mt-1 text-xs text-slate-600" data-testid="provider-detail">
          <summary className="cursor-pointer">{t("msg.providerDetail")}</summary>
          {detail.map((d) => (
            <p key={d} lang="en">
              {d}
            </p>
          ))}
          {code && <p>{t("msg.code", { code })}</p>}
        </details>
      )}
    </div>
  );
}

export function UnknownMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return (
    <ErrorView
      renderer="unknown"
      title={t("msg.unknown")}
      hint={t("msg.unknownHint")}
      p={p}
      texts={[p.title, p.message, obj(p.error_data).details]}
    />
  );
}

export function UnsupportedMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return <ErrorView renderer="unsupported" title={t("msg.unsupported")} hint={t("msg.unknownHint")} p={p} texts={[p.title, p.details]} />;
}

export function CallRequestMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return (
    <div data-renderer="call_permission_request" className="text-sm">
      <p className="font-medium">
        <span aria-hidden="true">📞 </span>
        {t("msg.callRequest")}
      </p>
      {str(p.text) && (
        <p>
          <RichText text={str(p.text)} />
        </p>
      )}
    </div>
  );
}

export function CallReplyMessage({ payload }: P) {
  const { t, locale } = useI18n();
  const p = obj(payload);
  const accepted = str(p.response) === "accept";
  const source = str(p.response_source);
  const expires = str(p.expiration_timestamp);
  // WhatsApp sends Unix seconds; anything else is shown as it came.
  const expiresText = /^\d{1,12}$/.test(expires.trim()) ? formatDateTime(Number(expires) * 1000, locale) : expires;
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
      {unrenderable && (
        <p className="text-xs text-slate-600" data-testid="unrenderable">
          {t("msg.unrenderable")}
        </p>
      )}
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
