"use client";
import { useT } from "@/lib/i18n";
import { RichText } from "./rich-text";
import { arr, obj, str } from "./safe-url";

/** Interactive types of spec 2.5: list, quick_reply, list_reply, button_reply, button. */
type P = { payload: unknown };

export function ListMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return (
    <div data-renderer="list">
      {str(p.title) && <p className="font-semibold">{str(p.title)}</p>}
      {str(p.body) && (
        <p className="text-sm">
          <RichText text={str(p.body)} />
        </p>
      )}
      <details className="-mx-2 mt-2 border-t border-slate-200">
        <summary className="cursor-pointer list-none px-2 py-1.5 text-center text-sm font-medium text-wa-blue">
          <span aria-hidden="true">☰ </span>
          {str(p.button) || t("msg.listItems")}
        </summary>
        <div className="space-y-2 px-2 pb-2">
          {arr(p.items).map((section, i) => {
            const s = obj(section);
            return (
              <div key={i}>
                {str(s.title) && <p className="text-xs font-semibold uppercase text-wa-green-dark">{str(s.title)}</p>}
                <ul className="divide-y divide-slate-100">
                  {arr(s.rows).map((row, j) => {
                    const r = obj(row);
                    return (
                      <li key={j} className="py-1" data-row-id={str(r.id)}>
                        <p className="text-sm">{str(r.title)}</p>
                        {str(r.description) && <p className="text-xs text-slate-600">{str(r.description)}</p>}
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
        </div>
      </details>
    </div>
  );
}

export function QuickReplyMessage({ payload }: P) {
  const p = obj(payload);
  const content = obj(p.content);
  return (
    <div data-renderer="quick_reply">
      {str(content.header) && <p className="font-semibold">{str(content.header)}</p>}
      {str(content.text) && (
        <p className="text-sm">
          <RichText text={str(content.text)} />
        </p>
      )}
      <ul className="-mx-2 mt-2 divide-y divide-slate-200 border-t border-slate-200">
        {arr(p.options).map((o, i) => {
          const opt = obj(o);
          return (
            <li key={i} className="px-2 py-1.5 text-center text-sm font-medium text-wa-blue" data-option-id={str(opt.id)}>
              <span aria-hidden="true">↩ </span>
              {str(opt.title)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A customer's answer quoting what they picked, like WhatsApp's reply preview. */
function Reply({ kind, title, detail, renderer }: { kind: string; title: string; detail?: string; renderer: string }) {
  return (
    <div data-renderer={renderer}>
      <div className="mb-1 rounded border-l-4 border-wa-light bg-black/5 px-2 py-1 text-xs text-slate-700">{kind}</div>
      <p className="text-sm font-medium">{title}</p>
      {detail && <p className="text-xs text-slate-600">{detail}</p>}
    </div>
  );
}

export function ListReplyMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return <Reply renderer="list_reply" kind={t("msg.listReply")} title={str(p.title)} detail={str(p.description)} />;
}

export function ButtonReplyMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return <Reply renderer="button_reply" kind={t("msg.buttonReply")} title={str(p.title)} />;
}

export function ButtonMessage({ payload }: P) {
  const t = useT();
  const p = obj(payload);
  return <Reply renderer="button" kind={t("msg.templateButton")} title={str(p.text)} />;
}
