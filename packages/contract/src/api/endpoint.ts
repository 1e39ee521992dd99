import { Type, type Static, type TSchema, type TObject } from '@sinclair/typebox';
import type { Bilingual } from '../i18n.ts';

export const API_PREFIX = '/api/cmp';

/**
 * One endpoint, declared once. `perm` lists permission codes of which the caller needs any one; `null`
 * means any signed-in user; `auth: 'public'` means no session at all (login, captcha, register).
 */
export interface Endpoint<B extends TSchema = TSchema, R extends TSchema = TSchema> {
  /** path after /api/cmp, e.g. core/account/account/getAccountListPage */
  name: string;
  method: 'POST' | 'GET';
  auth: 'public' | 'session';
  perm: readonly number[] | null;
  /** mutations must write an audit record; queries must not change data */
  kind: 'query' | 'mutation';
  body: B;
  response: R;
  summary: Bilingual;
  tag: string;
  /**
   * A multipart endpoint takes one file under `file` (at most `maxBytes`); the body schema then declares its text
   * fields, which the server checks as it checks a JSON body (unknown fields refused, bounds, types).
   */
  multipart?: { file: string; maxBytes: number };
  /** response is a file stream, not the JSON envelope */
  raw?: boolean;
  /**
   * Callable by a session whose password must be changed first (change password, sign out, what the forced
   * change-password screen needs). Every other session endpoint answers such a session 20048.
   */
  allowWhenPasswordExpired?: true;
}

export function endpoint<B extends TSchema, R extends TSchema>(e: Endpoint<B, R>): Endpoint<B, R> {
  boundToColumns(e.body);
  return e;
}

/** PostgreSQL `integer`: the column type of every id, count and enum value a request carries. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
/** The largest magnitude of PostgreSQL `numeric(14, 2)`, the money and quantity columns a request writes. */
export const NUMERIC_MAX = 999_999_999_999.99;
/** Deepest nesting of arrays and objects a JSON request body may have (the deepest real body has 4). */
export const JSON_MAX_DEPTH = 32;

/**
 * Gives every integer and number of a request schema the range of the column it ends in, unless the field
 * declares its own: an integer is a PostgreSQL `integer` (wider columns say so with `maximum`), a number a
 * `numeric(14, 2)`. Out-of-range input is then a validation error naming the field, never a database error.
 * Applied once to every endpoint's body as it is declared, so new endpoints inherit it.
 */
export function boundToColumns(schema: TSchema): void {
  const s = schema as Record<string, unknown>;
  if (s.type === 'integer') {
    s.minimum ??= INT32_MIN;
    s.maximum ??= INT32_MAX;
  } else if (s.type === 'number') {
    s.minimum ??= -NUMERIC_MAX;
    s.maximum ??= NUMERIC_MAX;
  }
  for (const key of ['properties', 'patternProperties'] as const) {
    const props = s[key] as Record<string, TSchema> | undefined;
    if (props) for (const p of Object.values(props)) boundToColumns(p);
  }
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const) {
    const list = s[key] as TSchema[] | undefined;
    if (list) for (const p of list) boundToColumns(p);
  }
  if (s.items) for (const p of Array.isArray(s.items) ? s.items : [s.items]) boundToColumns(p as TSchema);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') boundToColumns(s.additionalProperties as TSchema);
}

/**
 * The answer of every export call (issue 12): an export of up to EXPORT_DIRECT_MAX_ROWS rows is written at once and
 * `direct` is true (the console downloads the task's file right away); a bigger one is queued as a download task.
 */
export const ExportTaskCreated = Type.Object({ taskId: Type.String(), direct: Type.Boolean() });
/** Rows an export may have to be written during the call instead of as a download task. */
export const EXPORT_DIRECT_MAX_ROWS = 10_000;

export const pathOf = (e: Pick<Endpoint, 'name'>): string => `${API_PREFIX}/${e.name}`;

export type BodyOf<E> = E extends Endpoint<infer B, TSchema> ? Static<B> : never;
export type ResponseOf<E> = E extends Endpoint<TSchema, infer R> ? Static<R> : never;

/**
 * Money in an answer: an exact decimal string with two decimals ('1234.50', '-20.00'), from a PostgreSQL `numeric`;
 * never a JSON number (a float cannot hold every amount exactly).
 */
export const MoneyText = Type.String({ pattern: '^-?\\d{1,14}\\.\\d{2}$' });
/**
 * Money a user enters: a positive decimal string with at most two decimals and at most 12 integer digits
 * ('100', '99.5', '0.01'). Zero and the range a rule allows are checked by the service with the rule's message.
 */
export const MoneyInput = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,2})?$', maxLength: 15 });
/**
 * A price a user enters on a form with the spec's own decimals message: a non-negative decimal string of at most
 * 12 integer digits ('0', '12.5'). More than two decimals passes here so that the service can refuse it with the
 * field's message (never rounded).
 */
export const PriceInput = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,6})?$', maxLength: 19 });

/** Request objects never accept fields they do not declare (unknown fields are refused, not dropped). */
export const Obj = <P extends Record<string, TSchema>>(props: P) => Type.Object(props, { additionalProperties: false });

export const PAGE_SIZE_MAX = 500;
export const PageParams = {
  current: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: 20 })),
};
export const SortParams = {
  sortField: Type.Optional(Type.String({ maxLength: 64 })),
  sortOrder: Type.Optional(Type.Union([Type.Literal('ascend'), Type.Literal('descend')])),
};

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    total: Type.Integer(),
    current: Type.Integer(),
    pageSize: Type.Integer(),
  });

export const Empty = Obj({});
export const Nothing = Type.Null();
export const DateTime = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const IdParam = Obj({ id: Type.Integer({ minimum: 1 }) });

export type { TObject };
