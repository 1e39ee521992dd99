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
  /** multipart endpoints take files; the body schema then describes the text fields */
  multipart?: boolean;
  /** response is a file stream, not the JSON envelope */
  raw?: boolean;
}

export function endpoint<B extends TSchema, R extends TSchema>(e: Endpoint<B, R>): Endpoint<B, R> {
  return e;
}

export const pathOf = (e: Pick<Endpoint, 'name'>): string => `${API_PREFIX}/${e.name}`;

export type BodyOf<E> = E extends Endpoint<infer B, TSchema> ? Static<B> : never;
export type ResponseOf<E> = E extends Endpoint<TSchema, infer R> ? Static<R> : never;

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
