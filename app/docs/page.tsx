import type { Metadata } from "next";
import { getOpenApiDocument } from "@/lib/openapi/document";
import { SchemaView, type Components } from "./schema-view";
import { inline, Markdown } from "./markdown";

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

/** A readable reference of /api/v1, rendered on the server from the same OpenAPI document integrators download. */
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
    <main className="mx-auto max-w-5xl px-4 py-8 text-slate-900">
      <h1 className="text-2xl font-bold">{doc.info.title}</h1>
      <p className="mt-1 text-sm text-slate-600">
        Versión {doc.info.version} ·{" "}
        <a className="text-emerald-700 underline" href="/api/v1/openapi.json">
          openapi.json
        </a>
      </p>
      {doc.info.description ? <Markdown text={doc.info.description} className="mt-4 text-sm leading-6" /> : null}
      <nav aria-label="Endpoints" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <ul className="grid gap-1 sm:grid-cols-2">
          {ops.map(({ path, method, op }) => (
            <li key={method + path} className="text-sm">
              <a href={`#${method}-${path}`} className="hover:underline">
                <span className={`mr-2 inline-block w-14 rounded px-1 text-center text-xs font-bold uppercase ${methodColor[method]}`}>
                  {method}
                </span>
                <code>{path}</code>
              </a>
              {op.summary ? <span className="ml-2 text-slate-500">{op.summary}</span> : null}
            </li>
          ))}
        </ul>
      </nav>
      {ops.map(({ path, method, op }) => (
        <section key={method + path} id={`${method}-${path}`} className="mt-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
            <span className={`rounded px-2 text-xs font-bold uppercase ${methodColor[method]}`}>{method}</span>
            <code>{path}</code>
          </h2>
          {op.summary ? <p className="mt-1 font-medium">{op.summary}</p> : null}
          {op.description ? <Markdown text={op.description} className="mt-2 text-sm leading-6 text-slate-700" /> : null}
          {op.parameters?.length ? (
            <div className="mt-3">
              <h3 className="text-sm font-semibold">Parámetros</h3>
              <table className="mt-1 w-full text-left text-sm">
                <thead>
                  <tr className="text-xs text-slate-500">
                    <th className="py-1">Nombre</th>
                    <th>En</th>
                    <th>Tipo</th>
                    <th>Descripción</th>
                  </tr>
                </thead>
                <tbody>
                  {op.parameters.map((p) => (
                    <tr key={p.in + p.name} className="border-t border-slate-100 align-top">
                      <td className="py-1 pr-3">
                        <code>{p.name}</code>
                        {p.required ? <span className="ml-1 text-xs text-rose-700">obligatorio</span> : null}
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
          ) : null}
          {op.requestBody?.content ? (
            <div className="mt-3">
              <h3 className="text-sm font-semibold">Cuerpo ({Object.keys(op.requestBody.content).join(", ")})</h3>
              <div className="mt-1">
                <SchemaView schema={Object.values(op.requestBody.content)[0].schema as never} components={components} />
              </div>
            </div>
          ) : null}
          <div className="mt-3">
            <h3 className="text-sm font-semibold">Respuestas</h3>
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
    </main>
  );
}
