"use client";
import { useI18n, useT, type MessageKey } from "@/lib/i18n";
import type { TemplateComponent } from "@/lib/templates/schemas";
import { TemplateContent } from "@/components/templates/template-bubble";
import { RichText, SafeLink } from "./rich-text";
import { FallbackMessage } from "./system";
import { arr, obj, safeUrl, str } from "./safe-url";
import { formatLongDate } from "@/lib/i18n/dates";
import { templateMediaName } from "./payload-helpers";

/** Informational types of spec 2.5: text (with ad referral), template, location, contacts. */
type P = { payload: unknown };

export function TextMessage({ payload }: P) {
  const p = obj(payload);
  const referral = p.referral ? obj(p.referral) : null;
  return (
    <div data-renderer="text">
      {referral && <Referral r={referral} />}
      <p className="text-sm">
        <RichText text={str(p.text)} />
      </p>
    </div>
  );
}

function Referral({ r }: { r: Record<string, unknown> }) {
  const t = useT();
  const thumb = safeUrl(r.thumbnail_url) ?? safeUrl(r.image_url);
  return (
    <div className="mb-2 overflow-hidden rounded-md border-l-4 border-wa-green bg-black/5" data-testid="referral">
      <div className="flex gap-2 p-2">
        {thumb && <img src={thumb} alt="" className="h-14 w-14 shrink-0 rounded object-cover" />}
        <div className="min-w-0 text-xs">
          <p className="font-semibold text-wa-green-dark">
            {t("msg.adFrom")} · {str(r.source_type) === "post" ? t("msg.post") : t("msg.ad")}
            {str(r.media_type) ? ` · ${str(r.media_type)}` : ""}
          </p>
          {str(r.headline) && <p className="font-medium text-slate-900">{str(r.headline)}</p>}
          {str(r.body) && <p className="line-clamp-2 text-slate-700">{str(r.body)}</p>}
          {str(r.source_url) && <SafeLink url={r.source_url} className="break-all" />}
          {safeUrl(r.video_url) && (
            <p>
              <SafeLink url={r.video_url}>{t("msg.video")}</SafeLink>
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

export function TemplateMessage({ payload }: P) {
  const p = obj(payload);
  const components = arr(p.components);
  // A template that is not shaped like one (a BODY whose text is a number, BUTTONS without its
  // list…) is shown as its fields: the agent sees everything it holds, nothing is guessed.
  if (!components.every(isRenderableComponent)) return <FallbackMessage type="template" payload={payload} unrenderable />;
  return (
    <div data-renderer="template">
      <TemplateContent components={components} mediaName={templateMediaName(str(p.name), components)} />
    </div>
  );
}

const isString = (v: unknown) => typeof v === "string";
const isOptionalString = (v: unknown) => v === undefined || v === null || typeof v === "string";

/** What TemplateContent reads of each component, with the types it reads them as. */
function isRenderableComponent(c: unknown): c is TemplateComponent {
  if (!c || typeof c !== "object" || Array.isArray(c)) return false;
  const comp = c as Record<string, unknown>;
  switch (comp.type) {
    case "HEADER": {
      if (!isString(comp.format) || !isOptionalString(comp.text)) return false;
      if (comp.example === undefined || comp.example === null) return true;
      const handles = obj(comp.example).header_handle;
      return handles === undefined || (Array.isArray(handles) && handles.every(isString));
    }
    case "BODY":
      return isString(comp.text);
    case "FOOTER":
      return isString(comp.text);
    case "BUTTONS":
      return (
        Array.isArray(comp.buttons) &&
        comp.buttons.every((b) => !!b && typeof b === "object" && isString(obj(b).text) && isOptionalString(obj(b).url))
      );
    default:
      // Components the viewer does not draw are ignored, whatever they hold.
      return isString(comp.type);
  }
}

export function LocationMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  const lat = Number(p.latitude);
  const lng = Number(p.longitude);
  const ok = Number.isFinite(lat) && Number.isFinite(lng) && str(p.latitude) !== "" && str(p.longitude) !== "";
  const map = ok ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}` : null;
  return (
    <div data-renderer="location" className="min-w-56">
      <div
        aria-hidden="true"
        className="mb-2 flex h-24 items-center justify-center rounded-md bg-[linear-gradient(135deg,#d6ecd2,#cfe3f3)] text-3xl"
      >
        📍
      </div>
      {str(p.name) && <p className="font-medium">{str(p.name)}</p>}
      {str(p.address) && <p className="text-xs text-slate-700">{str(p.address)}</p>}
      <p className="text-xs text-slate-600">
        {str(p.latitude)}, {str(p.longitude)}
      </p>
      {map && (
        <a href={map} target="_blank" rel="noopener noreferrer" className="text-sm text-wa-blue underline">
          {t("msg.openMap")}
        </a>
      )}
    </div>
  );
}

export function ContactsMessage({ payload }: P) {
  const t = useT();
  const list = Array.isArray(payload) ? payload : arr(obj(payload).contacts);
  return (
    <div data-renderer="contacts" className="min-w-56 space-y-2">
      <p className="text-xs font-semibold text-slate-600">{t("msg.contacts")}</p>
      {list.map((c, i) => (
        <ContactCard key={i} c={obj(c)} />
      ))}
    </div>
  );
}

const KINDS = ["HOME", "WORK", "CELL", "MAIN", "IPHONE", "OTHER"];

/** HOME/WORK/CELL… of a vCard field in the UI's language; other kinds as the sender wrote them. */
function useKind() {
  const t = useT();
  return (value: unknown) => {
    const kind = str(value).trim();
    const key = kind.toUpperCase().replace(/^MOBILE$/, "CELL");
    return KINDS.includes(key) ? t(`msg.kind.${key}` as MessageKey) : kind;
  };
}

function ContactCard({ c }: { c: Record<string, unknown> }) {
  const { t, locale } = useI18n();
  const kind = useKind();
  const name = obj(c.name);
  const org = obj(c.org);
  const display =
    str(name.formatted_name) ||
    [name.prefix, name.first_name, name.middle_name, name.last_name, name.suffix].map(str).filter(Boolean).join(" ");
  return (
    <div className="rounded-md bg-black/5 p-2 text-sm" data-testid="contact-card">
      <div className="flex items-center gap-2">
        <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-full bg-slate-400 text-white">
          {display.slice(0, 1).toUpperCase() || "?"}
        </span>
        <div className="min-w-0">
          <p className="font-medium">{display}</p>
          {(str(org.company) || str(org.title)) && (
            <p className="text-xs text-slate-600">{[org.title, org.department, org.company].map(str).filter(Boolean).join(" · ")}</p>
          )}
        </div>
      </div>
      <dl className="mt-1 space-y-0.5 text-xs">
        {arr(c.phones).map((ph, i) => {
          const p = obj(ph);
          return (
            <div key={`p${i}`} className="flex gap-1">
              <dt className="text-slate-600">
                {t("msg.phone")}
                {kind(p.type) ? ` (${kind(p.type)})` : ""}:
              </dt>
              <dd>{str(p.phone)}</dd>
            </div>
          );
        })}
        {arr(c.emails).map((em, i) => {
          const e = obj(em);
          return (
            <div key={`e${i}`} className="flex gap-1">
              <dt className="text-slate-600">
                {t("msg.email")}
                {kind(e.type) ? ` (${kind(e.type)})` : ""}:
              </dt>
              <dd className="break-all">{str(e.email)}</dd>
            </div>
          );
        })}
        {arr(c.addresses).map((ad, i) => {
          const a = obj(ad);
          return (
            <div key={`a${i}`} className="flex gap-1">
              <dt className="text-slate-600">
                {t("msg.address")}
                {kind(a.type) ? ` (${kind(a.type)})` : ""}:
              </dt>
              <dd>{[a.street, a.city, a.state, a.zip, a.country].map(str).filter(Boolean).join(", ")}</dd>
            </div>
          );
        })}
        {arr(c.urls).map((u, i) => {
          const url = obj(u);
          return (
            <div key={`u${i}`} className="flex gap-1">
              <dt className="text-slate-600">URL{kind(url.type) ? ` (${kind(url.type)})` : ""}:</dt>
              <dd className="break-all">
                <SafeLink url={url.url} />
              </dd>
            </div>
          );
        })}
        {str(c.birthday) && (
          <div className="flex gap-1">
            <dt className="text-slate-600">{t("msg.birthday")}:</dt>
            <dd>{formatLongDate(str(c.birthday), locale)}</dd>
          </div>
        )}
      </dl>
    </div>
  );
}
