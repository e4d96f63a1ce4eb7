/* Renders an OpenAPI (JSON Schema) object as a compact field list; `$ref`s resolve against components. */
import type { ReactNode } from "react";
import { inline } from "./markdown";
import { DocsText } from "./docs-text";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string;
  maximum?: number;
  minimum?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  default?: unknown;
  additionalProperties?: Schema | boolean;
};

export type Components = Record<string, Schema>;

function resolve(schema: Schema, components: Components): { schema: Schema; name?: string } {
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop()!;
    return { schema: components[name] ?? {}, name };
  }
  return { schema };
}

/** `X | null` (how zod writes nullable fields) shows the fields of X. */
function unwrapNullable(schema: Schema, components: Components): Schema {
  const s = resolve(schema, components).schema;
  const alts = s.anyOf ?? s.oneOf;
  if (!alts) return s;
  const rest = alts.filter((a) => resolve(a, components).schema.type !== "null");
  return rest.length === 1 ? resolve(rest[0], components).schema : s;
}

function typeLabel(schema: Schema, components: Components): string {
  const { schema: s, name } = resolve(schema, components);
  if (name) return name;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map((a) => typeLabel(a, components)).join(" | ");
  if (s.type === "array" && s.items) return `${typeLabel(s.items, components)}[]`;
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
}

/** A field's limits, in the UI's language; null without any. */
function constraints(s: Schema): ReactNode {
  const parts: ReactNode[] = [];
  if (s.minimum !== undefined) parts.push(<DocsText key="min" k="docs.min" vars={{ n: s.minimum }} />);
  if (s.maximum !== undefined) parts.push(<DocsText key="max" k="docs.max" vars={{ n: s.maximum }} />);
  if (s.minLength !== undefined) parts.push(<DocsText key="minl" k="docs.minLength" vars={{ n: s.minLength }} />);
  if (s.maxLength !== undefined) parts.push(<DocsText key="maxl" k="docs.maxLength" vars={{ n: s.maxLength }} />);
  if (s.pattern) parts.push(<span key="pattern">{`/${s.pattern}/`}</span>);
  if (s.default !== undefined) parts.push(<DocsText key="default" k="docs.default" vars={{ value: JSON.stringify(s.default) }} />);
  return parts.length ? parts.flatMap((p, i) => (i ? [", ", p] : [p])) : null;
}

export function SchemaView({ schema, components, depth = 0 }: { schema: Schema; components: Components; depth?: number }) {
  const { schema: s } = resolve(schema, components);
  const target = s.type === "array" && s.items ? resolve(s.items, components).schema : s;
  const alts = target.anyOf ?? target.oneOf;
  if (alts && depth < 4) {
    const objects = alts.filter((a) => resolve(a, components).schema.properties);
    if (objects.length) {
      return (
        <div className="space-y-2">
          {objects.map((a, i) => (
            <div key={i} className="rounded border border-slate-200 p-2">
              <DocsText k="docs.variant" vars={{ n: i + 1 }} as="p" className="text-xs text-slate-600" />
              <SchemaView schema={a} components={components} depth={depth + 1} />
            </div>
          ))}
        </div>
      );
    }
  }
  if (!target.properties || depth > 4) {
    return <code className="text-sm">{typeLabel(schema, components)}</code>;
  }
  const required = new Set(target.required ?? []);
  return (
    <ul className="space-y-1">
      {Object.entries(target.properties).map(([key, prop]) => {
        const inner = unwrapNullable(prop, components);
        const nested = inner.properties || (inner.type === "array" && inner.items && unwrapNullable(inner.items, components).properties);
        return (
          <li key={key} className="text-sm">
            <code className="font-semibold">{key}</code>
            {required.has(key) ? <DocsText k="docs.required" className="ml-1 text-xs text-rose-700" /> : null}
            <span className="ml-2 text-slate-600">{typeLabel(prop, components)}</span>
            {constraints(inner) ? <span className="ml-2 text-xs text-slate-600">{constraints(inner)}</span> : null}
            {inner.description ? <div className="text-xs text-slate-600">{inline(inner.description)}</div> : null}
            {nested && depth < 3 ? (
              <div className="ml-4 mt-1 border-l border-slate-200 pl-3">
                <SchemaView schema={inner} components={components} depth={depth + 1} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
