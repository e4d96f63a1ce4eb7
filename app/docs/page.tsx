import type { Metadata } from "next";
import { getOpenApiDocument } from "@/lib/openapi/document";
import { SchemaView, type Components } from "./schema-view";
import { inline, Markdown } from "./markdown";
import { DocsText } from "./docs-text";
import { DocsFrame } from "@/components/layout/docs-frame";

export const metadata: Metadata = { title: "Referencia de la API v1" };

type Param = { name: string; in: string; required?: boolean; description?: string; schema?: Record<string, unknown> };
type Op = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema: Record<string, unknown> }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const methodColor: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-emerald-100 text-emerald-900",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-violet-100 text-violet-900",
  delete: "bg-rose-100 text-rose-900",
};

/**
 * A readable reference of /api/v1, rendered on the server from the same OpenAPI document
 * integrators download, inside the app's frame. At phone width nothing is wider than the screen:
 * long paths wrap and the parameter tables and code blocks scroll inside their own box.
 */
export default function DocsPage() {
  const doc = getOpenApiDocument() as unknown as {
    info: { title: string; version: string; description?: string };
    paths: Record<string, Partial<Record<(typeof METHODS)[number], Op>>>;
    components?: { schemas?: Components };
  };
  const components = doc.components?.schemas ?? {};
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m]! })),
  );
  return (
    <DocsFrame>
      <h1 className="text-2xl font-bold break-words">{doc.info.title}</h1>
      <p className="mt-1 text-sm text-slate-600">
        <DocsText k="docs.version" vars={{ version: doc.info.version }} /> ·{" "}
        <a className="text-emerald-700 underline" href="/api/v1/openapi.json">
          openapi.json
        </a>
      </p>
      <DocsText k="docs.contentLanguage" as="p" className="mt-2 rounded bg-amber-50 px-2 py-1 text-sm text-amber-900" />
      {doc.info.description ? <Markdown text={doc.info.description} className="mt-4 text-sm leading-6 [overflow-wrap:anywhere]" /> : null}
      <nav aria-labelledby="docs-endpoints" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <DocsText k="docs.endpoints" as="h2" id="docs-endpoints" className="mb-2 text-sm font-semibold" />
        <ul className="grid gap-1 sm:grid-cols-2 [overflow-wrap:anywhere]">
          {ops.map(({ path, method, op }) => (
            <li key={method + path} className="text-sm">
              <a href={`#${method}-${path}`} className="hover:underline">
                <span
                  className={`mr-2 inline-block min-w-14 rounded px-1 text-center text-xs font-bold whitespace-nowrap uppercase ${methodColor[method]}`}
                >
                  {method}
                </span>
                <code>{path}</code>
              </a>
              {op.summary ? <span className="ml-2 text-slate-600">{op.summary}</span> : null}
            </li>
          ))}
        </ul>
      </nav>
      {ops.map(({ path, method, op }) => (
        <section
          key={method + path}
          id={`${method}-${path}`}
          className="mt-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]"
        >
          <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
            <span className={`rounded px-2 text-xs font-bold uppercase ${methodColor[method]}`}>{method}</span>
            <code className="min-w-0">{path}</code>
          </h2>
          {op.summary ? <p className="mt-1 font-medium">{op.summary}</p> : null}
          {op.description ? <Markdown text={op.description} className="mt-2 text-sm leading-6 text-slate-700" /> : null}
          {op.parameters?.length ? (
            <div className="mt-3">
              <DocsText k="docs.params" as="h3" className="text-sm font-semibold" />
              {/* A table keeps its columns: at phone width it scrolls inside this box, not the page. */}
              <div className="mt-1 overflow-x-auto" tabIndex={0} role="region" aria-label={`${method.toUpperCase()} ${path}`}>
                <table className="w-full min-w-[36rem] text-left text-sm [overflow-wrap:normal]">
                  <thead>
                    <tr className="text-xs text-slate-600">
                      <DocsText k="docs.param.name" as="th" className="py-1" />
                      <DocsText k="docs.param.in" as="th" />
                      <DocsText k="docs.param.type" as="th" />
                      <DocsText k="docs.param.description" as="th" />
                    </tr>
                  </thead>
                  <tbody>
                    {op.parameters.map((p) => (
                      <tr key={p.in + p.name} className="border-t border-slate-100 align-top">
                        <td className="py-1 pr-3">
                          <code>{p.name}</code>
                          {p.required ? <DocsText k="docs.required" className="ml-1 text-xs text-rose-700" /> : null}
                        </td>
                        <td className="pr-3">{p.in}</td>
                        <td className="pr-3">
                          <SchemaView schema={(p.schema ?? {}) as never} components={components} />
                        </td>
                        <td className="text-slate-600">{inline(p.description ?? "")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          ) : null}
          {op.requestBody?.content ? (
            <div className="mt-3">
              <DocsText
                k="docs.body"
                vars={{ types: Object.keys(op.requestBody.content).join(", ") }}
                as="h3"
                className="text-sm font-semibold"
              />
              <div className="mt-1">
                <SchemaView schema={Object.values(op.requestBody.content)[0].schema as never} components={components} />
              </div>
            </div>
          ) : null}
          <div className="mt-3">
            <DocsText k="docs.responses" as="h3" className="text-sm font-semibold" />
            <ul className="mt-1 space-y-2">
              {Object.entries(op.responses ?? {}).map(([code, res]) => (
                <li key={code} className="text-sm">
                  <span className={`mr-2 rounded px-1 font-mono text-xs ${code.startsWith("2") ? "bg-emerald-100" : "bg-rose-50"}`}>
                    {code}
                  </span>
                  {inline(res.description ?? "")}
                  {code.startsWith("2") && res.content ? (
                    <div className="ml-4 mt-1 border-l border-slate-200 pl-3">
                      <SchemaView schema={Object.values(res.content)[0].schema as never} components={components} />
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        </section>
      ))}
    </DocsFrame>
  );
}
