import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { AppDeps } from '../../app.ts';
import { isStaff, tenantFilter } from '../../platform/context.ts';
import { idNames } from '../../platform/export-filters.ts';
import { customers, roles } from '../account/tables.ts';
import { basicPlans, planReleases } from '../plan/plan-tables.ts';
import { cardPools } from '../pool/pool-tables.ts';
import { cardLabels, cardTypes } from '../card/catalog/tables.ts';
import { operatorAccounts } from '../network/opconfig/tables.ts';

/**
 * Names for the filter keys many lists share, so a download task reads "Customer: 智行物流" rather than an id. Each
 * lookup answers only what the task's owner may see (another tenant's id stays "#id"): a read-only look at the
 * owning modules' tables, as the card list's joins do.
 */
export function registerExportNames(deps: Pick<AppDeps, 'db' | 'exports'>): void {
  const { db, exports } = deps;
  const customerNames = idNames(async (ids, actor) =>
    db.select({ id: customers.custId, zh: customers.custName }).from(customers)
      .where(and(inArray(customers.custId, ids), tenantFilter(actor, { custId: customers.custId, rootCustId: customers.rootCustId }))));
  exports.describeKey(['custId'], { title: { zh: '客户', en: 'Customer' }, names: customerNames });
  exports.describeKey(['parentCustId'], { title: { zh: '上级客户', en: 'Parent customer' }, names: customerNames });
  exports.describeKey(['roleId'], {
    title: { zh: '角色', en: 'Role' },
    names: idNames(async (ids) => db.select({ id: roles.roleId, zh: roles.roleName, en: roles.roleNameEn }).from(roles).where(inArray(roles.roleId, ids))),
  });
  exports.describeKey(['goodsReleaseId'], {
    title: { zh: '套餐', en: 'Plan' },
    // a customer sees the plans released to its tenant
    names: idNames(async (ids, actor) => isStaff(actor)
      ? db.select({ id: basicPlans.goodsReleaseId, zh: basicPlans.name }).from(basicPlans).where(inArray(basicPlans.goodsReleaseId, ids))
      : db.selectDistinct({ id: basicPlans.goodsReleaseId, zh: basicPlans.name }).from(basicPlans)
        .innerJoin(planReleases, eq(planReleases.goodsReleaseId, basicPlans.goodsReleaseId))
        .where(and(inArray(basicPlans.goodsReleaseId, ids), tenantFilter(actor, planReleases)))),
  });
  exports.describeKey(['poolId'], {
    title: { zh: '流量池', en: 'Pool' },
    names: idNames(async (ids, actor) => db.select({ id: cardPools.poolId, zh: cardPools.name }).from(cardPools)
      .where(and(inArray(cardPools.poolId, ids), tenantFilter(actor, { custId: cardPools.custId, rootCustId: cardPools.rootCustId })))),
  });
  exports.describeKey(['labelIds'], {
    title: { zh: '标签', en: 'Labels' }, mode: 'labelMatch',
    names: idNames(async (ids, actor) => db.select({ id: cardLabels.labelId, zh: cardLabels.name }).from(cardLabels)
      .where(and(inArray(cardLabels.labelId, ids), or(isNull(cardLabels.custId), tenantFilter(actor, { custId: cardLabels.custId, rootCustId: cardLabels.rootCustId }))))),
  });
  exports.describeKey(['cardTypeId'], {
    title: { zh: '卡类型', en: 'Card type' },
    names: idNames(async (ids) => db.select({ id: cardTypes.cardTypeId, zh: cardTypes.nameZh, en: cardTypes.nameEn }).from(cardTypes).where(inArray(cardTypes.cardTypeId, ids))),
  });
  exports.describeKey(['operAccountId'], {
    title: { zh: '接入配置', en: 'Access configuration' },
    names: idNames(async (ids, actor) => (isStaff(actor)
      ? db.select({ id: operatorAccounts.operAccountId, zh: operatorAccounts.accountName }).from(operatorAccounts).where(inArray(operatorAccounts.operAccountId, ids))
      : [])),
  });
}
