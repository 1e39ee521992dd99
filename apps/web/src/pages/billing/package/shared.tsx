// Shared pieces of the basic plan screens (Billing → Packages): paths, permission codes, colours, queries.
import { useQueryClient } from '@tanstack/react-query';
import { InputNumber, Tag, type InputNumberProps } from 'antd';
import type { RuleObject } from 'antd/es/form';
import { ErrorCode, PlanStatus, PriceChangeStatus, errorMessage, plan, type ResponseOf } from '@lynx/contract';
import i18n, { currentLang } from '../../../locales/i18n.ts';
import { priceFen, type PriceValue } from './money.ts';

export type PlanRow = ResponseOf<typeof plan.getBasicPlanListPage>['list'][number];
export type PlanDetail = ResponseOf<typeof plan.getBasicPlanDetail>;

export const PLAN_PERM = { page: 4010000, delete: 4010001, publish: 4010002, add: 4010003, price: 4010004, export: 4010006 } as const;

export const LIST_PATH = '/billing/package/list';
export const planPaths = {
  list: (tab: 'basic' | 'supplementary' | 'retail' = 'basic') => `${LIST_PATH}/${tab}`,
  add: () => '/billing/package/addbasic',
  copy: (id: number) => `/billing/package/copybasic/${id}/1`,
  edit: (id: number) => `/billing/package/copybasic/${id}/0`,
  price: (id: number, fromChange = false) => `/billing/package/priceAdjustment/${id}/${fromChange ? 1 : 0}`,
  detail: (r: { goodsReleaseId: number; tariffType: number }) => `/billing/package/basicdetail/${r.goodsReleaseId}/${r.tariffType}`,
  changes: (id: number) => `/billing/package/basicChangeList/${id}`,
};

export const PLAN_STATUS_COLORS: Record<number, string> = {
  [PlanStatus.Draft]: 'default', [PlanStatus.Published]: 'green', [PlanStatus.Unpublished]: 'orange',
};
export const CHANGE_STATUS_COLORS: Record<number, string> = { [PriceChangeStatus.Pending]: 'gold', [PriceChangeStatus.Effective]: 'green' };

/** Invalidates every cached read of basic plans after a change. */
export function useInvalidatePlans() {
  const qc = useQueryClient();
  return () => {
    for (const e of [plan.getBasicPlanListPage, plan.getBasicPlanDetail, plan.getBasicPlanReleases, plan.getPriceChangeListPage, plan.getPriceChangeItemPage]) {
      void qc.invalidateQueries({ queryKey: [e.name] });
    }
  };
}

/** A small tag list (network types, regions). */
export function Tags({ items }: { items: string[] }) {
  if (!items.length) return <>-</>;
  return <>{items.map((x) => <Tag key={x}>{x}</Tag>)}</>;
}

/**
 * A price input in string mode: the form holds the exact text ('123456789012.34'), never a float that could not
 * carry it. Not negative; full width. Never give it a `precision`: that rounds what was typed on blur (19.999 would
 * be saved as 20.00), where more than two decimals must be refused (`priceRule`).
 */
export function PriceInputNumber(props: Omit<InputNumberProps<string>, 'stringMode'>) {
  return <InputNumber<string> min="0" style={{ width: '100%' }} formatter={showCents} {...props} stringMode />;
}

/** Shows a price with at least two decimals ('39.9' as '39.90') once typing ends; adds zeros only, never rounds. */
const showCents: NonNullable<InputNumberProps<string>['formatter']> = (value, info) => {
  if (info.userTyping) return info.input;
  const text = String(value ?? '');
  const m = /^(-?\d+)(?:\.(\d*))?$/.exec(text);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(2, '0')}` : text;
};

/** A plan's money fields, by the name the server's PlanMoneyInvalid message gives them. */
export type PlanMoneyField = 'standardPrice' | 'salePrice' | 'overagePrice' | 'testPrice' | 'downtimeFee' | 'price';

/**
 * A price field's rule, the server's own check (a negative amount or more than two decimals is refused, never
 * rounded) with its message for that field (ErrorCode.PlanMoneyInvalid), shown at the field before anything is sent.
 */
export function priceRule(field: PlanMoneyField): RuleObject {
  return {
    validator: async (_rule, value: PriceValue) => {
      if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return;
      const fen = priceFen(value);
      if (fen === null || fen < 0n) {
        throw new Error(errorMessage(ErrorCode.PlanMoneyInvalid, currentLang(), { label: i18n.t(`plan.moneyLabels.${field}`) }));
      }
    },
  };
}
