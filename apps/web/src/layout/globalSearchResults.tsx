import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { CardState, Operator, batch, formatDateTime, type Lang, type ResponseOf, type search } from '@lynx/contract';
import { detailPath, scopeFor } from '../pages/card/batchoperate/scope.ts';

/*
 * The header search's results as grouped dropdown options (layout/GlobalSearch.tsx): one group per kind, in a fixed
 * order, each hit with the route it opens. Pure, so the grouping, the routes and the "more" rows are tested alone.
 */

export type SearchResult = ResponseOf<typeof search.globalSearch>;
export interface PageHit {
  path: string;
  /** the page's place in the menu, e.g. "System / Roles" */
  title: string;
}
export interface ResultItem {
  /** unique in the dropdown: the kind and the route */
  value: string;
  path: string;
  label: ReactNode;
  /** the text a screen reader and a test read */
  text: string;
}
export interface ResultGroup {
  kind: GroupKind;
  title: string;
  items: ResultItem[];
  /** a hint row under the items: there are more of this kind */
  more: string | null;
}

export const GROUP_ORDER = ['cards', 'customers', 'basicPlans', 'retailPlans', 'pools', 'batches', 'cardImports', 'pages'] as const;
export type GroupKind = (typeof GROUP_ORDER)[number];

/** The route of a hit. */
export const routeOf = {
  card: (iccid: string) => `/card/card-list/detail/${iccid}`,
  customer: (custId: number) => `/home/customer?custId=${custId}`,
  basicPlan: (p: { goodsReleaseId: number; tariffType: number }) => `/billing/package/basicdetail/${p.goodsReleaseId}/${p.tariffType}`,
  retailPlan: (p: { retailId: number; tariffType: number }) => `/billing/package/retaildetail/${p.retailId}/${p.tariffType}`,
  pool: (poolId: number) => `/card/pool/detail/${poolId}`,
  batch: (b: { batchId: string; type: number }, has: (perm: number) => boolean) => detailPath(scopeFor(b.type, has), b.batchId),
  cardImport: (batchId: string) => `/card/import-info/detail/${batchId}`,
};

/** `text` with the first occurrence of `needle` (any case) marked. */
export function highlight(text: string, needle: string): ReactNode {
  const at = needle ? text.toLowerCase().indexOf(needle.toLowerCase()) : -1;
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark className="lx-gs-mark">{text.slice(at, at + needle.length)}</mark>
      {text.slice(at + needle.length)}
    </>
  );
}

const Line = ({ main, meta }: { main: ReactNode; meta?: ReactNode }) => (
  <div className="lx-gs-item">
    <div className="lx-gs-main">{main}</div>
    {meta ? <div className="lx-gs-meta">{meta}</div> : null}
  </div>
);
const join = (parts: (string | null | undefined | false)[]) => parts.filter(Boolean).join(' · ');

/**
 * The groups to show for `keyword`: the server's result (null while none is there for this keyword) and the pages the
 * console found itself. Empty groups are left out.
 */
export function resultGroups(opts: {
  keyword: string; result: SearchResult | null; pages: PageHit[]; t: TFunction; lang: Lang; has: (perm: number) => boolean;
}): ResultGroup[] {
  const { keyword, result, pages, t, lang, has } = opts;
  const k = keyword.trim();
  const digits = result?.cardDigits ?? '';
  const title = (kind: GroupKind) => t(`search.groups.${kind}`);
  const more = (kind: GroupKind, section: { more: boolean } | null | undefined) =>
    section?.more ? (kind === 'cards' ? t('search.moreCards') : t('search.moreOf', { kind: title(kind) })) : null;
  const groups: ResultGroup[] = [];
  const push = (kind: GroupKind, items: ResultItem[], section?: { more: boolean } | null) => {
    if (items.length) groups.push({ kind, title: title(kind), items, more: more(kind, section) });
  };
  if (result) {
    push('cards', (result.cards?.items ?? []).map((c) => {
      const other = c.field !== 'iccid' ? c[c.field] : null;
      const meta = join([other && `${t(`search.fields.${c.field}`)} ${other}`, CardState.label(c.state, lang), Operator.label(c.operatorId, lang), c.custName ?? t('search.stock')]);
      return {
        value: `card:${c.iccid}`, path: routeOf.card(c.iccid), text: `${c.iccid} ${meta}`,
        label: (
          <Line
            main={<span className="lx-gs-number">{c.field === 'iccid' ? highlight(c.iccid, digits) : c.iccid}</span>}
            meta={<>{other ? <>{t(`search.fields.${c.field}`)} {highlight(other, digits)} · </> : null}{join([CardState.label(c.state, lang), Operator.label(c.operatorId, lang), c.custName ?? t('search.stock')])}</>}
          />
        ),
      };
    }), result.cards);
    push('customers', (result.customers?.items ?? []).map((c) => ({
      value: `customer:${c.custId}`, path: routeOf.customer(c.custId), text: c.custName,
      label: <Line main={highlight(c.custName, k)} meta={join([t(`search.level.${c.level}`), c.parentCustName])} />,
    })), result.customers);
    push('basicPlans', (result.basicPlans?.items ?? []).map((p) => ({
      value: `basicPlan:${p.goodsReleaseId}`, path: routeOf.basicPlan(p), text: p.name,
      label: <Line main={highlight(p.name, k)} meta={join([p.code, p.operatorId ? Operator.label(p.operatorId, lang) : null])} />,
    })), result.basicPlans);
    push('retailPlans', (result.retailPlans?.items ?? []).map((p) => ({
      value: `retailPlan:${p.retailId}`, path: routeOf.retailPlan(p), text: p.retailName,
      label: <Line main={highlight(p.retailName, k)} meta={p.custName} />,
    })), result.retailPlans);
    push('pools', (result.pools?.items ?? []).map((p) => ({
      value: `pool:${p.poolId}`, path: routeOf.pool(p.poolId), text: p.name,
      label: <Line main={highlight(p.name, k)} meta={join([Operator.label(p.operatorId, lang), p.custName])} />,
    })), result.pools);
    push('batches', (result.batches?.items ?? []).map((b) => {
      const kind = batch.BatchType.label(b.type, lang);
      return {
        value: `batch:${b.batchId}`, path: routeOf.batch(b, has), text: `${kind} ${b.batchId}`,
        label: <Line main={<>{kind} <span className="lx-gs-number">{highlight(b.batchId.slice(0, 8), k)}</span></>} meta={join([b.fileName, b.createdBy, formatDateTime(b.createdAt)])} />,
      };
    }), result.batches);
    push('cardImports', (result.cardImports?.items ?? []).map((b) => ({
      value: `cardImport:${b.batchId}`, path: routeOf.cardImport(b.batchId), text: b.fileName,
      label: <Line main={highlight(b.fileName, k)} meta={join([b.remark, t('search.imported', { count: b.successRows }), formatDateTime(b.createdAt)])} />,
    })), result.cardImports);
  }
  push('pages', pages.map((p) => ({ value: `page:${p.path}`, path: p.path, text: p.title, label: <Line main={highlight(p.title, k)} /> })));
  return groups;
}

/** What Enter opens when no option is chosen: the only card found, else the only result; otherwise nothing. */
export function enterTarget(groups: ResultGroup[]): ResultItem | null {
  const cards = groups.find((g) => g.kind === 'cards');
  if (cards && cards.items.length === 1 && !cards.more) return cards.items[0];
  const all = groups.flatMap((g) => g.items);
  return all.length === 1 && !groups.some((g) => g.more) ? all[0] : null;
}
