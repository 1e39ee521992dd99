/** The parts of JSON Schema (as TypeBox writes it into the OpenAPI document) that the reference shows. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
}

export type ConstraintKey = 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems' | 'pattern' | 'format' | 'enumOf' | 'defaultIs';

export interface Constraint {
  key: ConstraintKey;
  value: string;
}

export interface FieldRow {
  /** dotted path: `list[].custId` */
  name: string;
  depth: number;
  type: string;
  required: boolean;
  constraints: Constraint[];
  description?: string;
}

const variants = (s: JsonSchema): JsonSchema[] | undefined => s.anyOf ?? s.oneOf;
const isNull = (s: JsonSchema) => s.type === 'null';

/** A readable type: `string`, `integer | null`, `object[]`, `"ascend" | "descend"`, `any`. */
export function typeOf(s: JsonSchema): string {
  const vs = variants(s);
  if (vs) return [...new Set(vs.map(typeOf))].join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (s.type === 'array') {
    const inner = s.items ? typeOf(s.items) : 'any';
    return inner.includes(' | ') ? `(${inner})[]` : `${inner}[]`;
  }
  if (s.type === 'object' && !s.properties && s.patternProperties) {
    const value = Object.values(s.patternProperties)[0];
    return `Record<string, ${value ? typeOf(value) : 'any'}>`;
  }
  return s.type ?? 'any';
}

/** The non-null member of `T | null`, else the schema itself. */
export function unwrapNullable(s: JsonSchema): JsonSchema {
  const vs = variants(s);
  if (!vs) return s;
  const rest = vs.filter((v) => !isNull(v));
  return rest.length === 1 ? rest[0] : s;
}

export function constraintsOf(schema: JsonSchema): Constraint[] {
  const s = unwrapNullable(schema);
  const out: Constraint[] = [];
  const num = (key: ConstraintKey, v: number | undefined) => v !== undefined && out.push({ key, value: String(v) });
  // minLength 0 says nothing worth showing
  num('minLength', s.minLength || undefined);
  num('maxLength', s.maxLength);
  num('minimum', s.minimum);
  num('maximum', s.maximum);
  num('minItems', s.minItems);
  num('maxItems', s.maxItems);
  if (s.pattern) out.push({ key: 'pattern', value: s.pattern });
  if (s.format) out.push({ key: 'format', value: s.format });
  if (s.enum) out.push({ key: 'enumOf', value: s.enum.map((v) => JSON.stringify(v)).join(', ') });
  if (s.default !== undefined) out.push({ key: 'defaultIs', value: JSON.stringify(s.default) });
  return out;
}

/** Where the fields of an object-like schema live: the object itself, or the objects of an array. */
function nested(s: JsonSchema): { schema: JsonSchema; suffix: string } | null {
  const u = unwrapNullable(s);
  if (u.type === 'object' && u.properties) return { schema: u, suffix: '.' };
  if (u.type === 'array' && u.items) {
    const item = unwrapNullable(u.items);
    if (item.type === 'object' && item.properties) return { schema: item, suffix: '[].' };
  }
  return null;
}

/** One row per property, nested objects and arrays of objects expanded below their parent. */
export function flattenSchema(schema: JsonSchema, prefix = '', depth = 0): FieldRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, prop]) => {
    const name = `${prefix}${key}`;
    const row: FieldRow = { name, depth, type: typeOf(prop), required: required.has(key), constraints: constraintsOf(prop), description: prop.description };
    const inner = nested(prop);
    return [row, ...(inner ? flattenSchema(inner.schema, `${name}${inner.suffix}`, depth + 1) : [])];
  });
}

export type SchemaView =
  | { kind: 'none' }
  | { kind: 'null' }
  | { kind: 'fields'; rows: FieldRow[]; type: string; strict: boolean }
  | { kind: 'scalar'; type: string };

/** How to show a request body or a response `data`: no fields, null, a field table, or a bare type. */
export function viewOf(schema: JsonSchema | undefined): SchemaView {
  if (!schema) return { kind: 'none' };
  if (isNull(schema)) return { kind: 'null' };
  const inner = nested(schema);
  if (inner) {
    const rows = flattenSchema(inner.schema, inner.suffix === '[].' ? '[].' : '');
    if (!rows.length) return { kind: 'none' };
    return { kind: 'fields', rows, type: typeOf(schema), strict: inner.schema.additionalProperties === false };
  }
  const u = unwrapNullable(schema);
  if (u.type === 'object' && !u.patternProperties) return { kind: 'none' };
  return { kind: 'scalar', type: typeOf(schema) };
}

/** A GET endpoint's query parameters (without the common ts and lang) as an object schema. */
export function queryParamsSchema(params: { name: string; in: string; required?: boolean; schema?: JsonSchema }[] = []): JsonSchema | undefined {
  const own = params.filter((p) => p.in === 'query' && p.name !== 'ts' && p.name !== 'lang');
  if (!own.length) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(own.map((p) => [p.name, p.schema ?? {}])),
    required: own.filter((p) => p.required).map((p) => p.name),
  };
}
