import { count, eq } from 'drizzle-orm';
import { HOME_TILES, Perm, RoleType, allPermissionCodes, expandCodes, Operator, CustomerStatus, PaymentModel, JournalKind, LedgerAccount } from '@lynx/contract';
import type { Db, Executor, Tx } from '../db/client.ts';
import { postJournal } from '../modules/money/ledger.ts';
import { grantFixedCredit } from '../modules/money/credit/credit-service.ts';
import { accounts, customers, operators, roles } from '../modules/account/tables.ts';
import { generatePassword, hashPassword } from '../platform/passwords.ts';
import { seedCommServices } from '../modules/network/commserv/seed.ts';
import { seedPlans } from '../modules/plan/plan-seed.ts';
import { seedRetailPlans } from '../modules/plan/retail-seed.ts';
import { seedNetconfig } from '../modules/network/netconfig/seed.ts';
import { seedCards } from '../modules/card/card-seed.ts';
import { seedDemoDsims } from '../modules/dsim/seed.ts';
import { seedDemoChannelCards } from '../modules/channelcard/seed.ts';
import { seedSimulatorAccess } from '../modules/network/opconfig/seed.ts';
import type { SecretBox } from '../modules/network/opconfig/secrets.ts';
import { seedCardCatalog } from '../modules/card/catalog/seed.ts';
import { seedPools } from '../modules/pool/pool-seed.ts';
import { demoUsageStart, startUsageFeeds } from '../modules/usage/usage-feed.ts';
import { seedDemoStock } from '../modules/stock/seed.ts';
import { seedOperatorPlans } from './demo-plans.ts';
import { writeDemoLogins, type DemoLogin } from './demo-logins.ts';
import { seedDemoEuiccs } from '../modules/euicc/seed.ts';

export interface SeedResult {
  logins: DemoLogin[];
  /** DATA_DIR/demo-logins.txt (mode 0600) when it was written */
  loginsFile: string | null;
  /** why the file could not be written (the data is there; the logins are printed all the same) */
  loginsFileError: string | null;
}

const without = (codes: number[], drop: number[]) => codes.filter((c) => !drop.includes(c));
const uniq = (codes: number[]) => [...new Set(codes)].sort((a, b) => a - b);

/** Permission sets of the built-in roles: what each kind of user needs from day one. */
export function builtInRolePermissions(): Record<number, number[]> {
  const customerBase = uniq([
    ...expandCodes([Perm.Home, Perm.Card, Perm.Billing, Perm.AutoRule, Perm.Report, Perm.Financial]),
    ...expandCodes([Perm.BusinessCustomer, Perm.BusinessAccount, 8030000, 8040000, 8050000]),
    ...expandCodes([6010000, 6050000, 6060000, 6070000, 6080000, 6100000, 6110000, Perm.ShortcutsResell]),
    Perm.Shortcuts, Perm.Business, Perm.System, Perm.SystemUserBehavior,
  ]);
  // package buttons for staff only: delete 4010001, publish 4010002, add/copy basic 4010003, price adjustment 4010004
  // card import (2070000) too: cards enter the platform through operator staff; card types are a platform catalogue
  // kept by staff (add/edit 2050001, delete 2050002): customers see the list read-only
  // bills are run and published by platform finance (4020001 publish, 4020002 run / re-run); one-off fees are put on by
  // staff (6090001); customers read their published bills and write them off (9020001)
  // channel bills (4050000, import 4050001) reconcile an operator's bill over the platform's cards: platform finance only
  const staffOnlyButtons = [Perm.BusinessCustomerAudit, 8040001, 8050001, 8050002, 4010001, 4010002, 4010003, 4010004, 2070000, 2050001, 2050002,
    Perm.BillingBillPublish, Perm.BillingBillRun, Perm.ShortcutsOneOffFeeAdd, Perm.BillingChannelBill, Perm.BillingChannelBillImport,
    // operating bills are the platform's costs at the carriers: staff only (9030000 and its buttons)
    ...expandCodes([Perm.FinancialOperateBill]),
    // automated ledger rules are set by platform finance; a customer's finance may only switch its own (4060004)
    Perm.BillingAutoLedgerAdd, Perm.BillingAutoLedgerEdit, Perm.BillingAutoLedgerDelete];
  return {
    [RoleType.Admin]: uniq(allPermissionCodes),
    [RoleType.Manager]: without(uniq(allPermissionCodes), [Perm.SystemRoleAdd, Perm.SystemRoleDelete]),
    // an enterprise customer's administrator also keeps its own file push tasks (System › File push, scoped to its customer)
    [RoleType.Enterprise]: without(uniq([...customerBase, ...expandCodes([Perm.Risk]), Perm.SystemDataPush]), staffOnlyButtons),
    // channel cards (16000000, docs/channel-cards.md): the channel customer reads its own imports, cards and bills; importing,
    // stopping a card and generating bills are staff's. Resale sync (6020000, sync now 6020001): every first-level customer
    [RoleType.Channel]: without(uniq([...customerBase, ...expandCodes([Perm.ChannelCard])]),
      [...staffOnlyButtons, Perm.ChannelCardImportAdd, Perm.ChannelCardState, Perm.ChannelCardBillGenerate]),
    [RoleType.SubCustomer]: without(
      uniq([
        Perm.Home, Perm.HomeApiManage, Perm.HomeLogo, Perm.Card, Perm.Billing, Perm.Shortcuts,
        // Home shortcut tiles of what it works with: diagnose, tip, auto rule, bill, jobs (a tile shows once its screen exists)
        ...HOME_TILES.filter((t) => ['diagnose', 'tip', 'autoRule', 'bill', 'jobs'].includes(t.key)).map((t) => t.code),
        ...expandCodes([Perm.CardList, 2020000, Perm.CardDownloadTask, 2110000, 4020000, 6050000, 6100000, Perm.Report, Perm.AutoRule]),
        // package management: view the plans released to it
        Perm.PackageManage,
      ]),
      [2010007, Perm.BillingBillPublish, Perm.BillingBillRun],
    ),
  };
}

const ROLES = [
  { roleId: RoleType.Admin, roleCode: 'ADMIN', roleName: '超级管理员', roleNameEn: 'Administrator' },
  { roleId: RoleType.Manager, roleCode: 'MANAGER', roleName: '运营管理员', roleNameEn: 'Operator manager' },
  { roleId: RoleType.Enterprise, roleCode: 'ENTERPRISE', roleName: '企业客户', roleNameEn: 'Enterprise customer' },
  { roleId: RoleType.Channel, roleCode: 'CHANNEL', roleName: '渠道客户', roleNameEn: 'Channel customer' },
  { roleId: RoleType.SubCustomer, roleCode: 'SUBCUSTOMER', roleName: '二级客户', roleNameEn: 'Second-level customer' },
];

type Money = { preDeposit?: number; credit?: number };

async function customer(tx: Tx, name: string, parent: typeof customers.$inferSelect | null, all: Partial<typeof customers.$inferInsert> & Money = {}) {
  const { preDeposit, credit, ...extra } = all;
  const row = await insertCustomer(tx, name, parent, extra);
  // opening money: a top-up journal (the ledger holds every balance) and the credit limit
  if (preDeposit) {
    await postJournal(tx, {
      kind: JournalKind.Opening, custId: row.custId, refType: 'opening', by: { accountId: null, loginName: 'system' },
      // brought in when the demo's history starts (its usage month), so the accounting reports have closed days to show
      at: demoUsageStart(),
      lines: [{ account: LedgerAccount.PreDeposit, fen: BigInt(preDeposit) * 100n }, { account: LedgerAccount.Opening, fen: -BigInt(preDeposit) * 100n }],
    });
  }
  // the credit limit is a real fixed credit order (the projection is its sum)
  if (credit) await grantFixedCredit(tx, row, BigInt(credit) * 100n, 'demo credit');
  return row;
}

async function insertCustomer(ex: Executor, name: string, parent: typeof customers.$inferSelect | null, extra: Partial<typeof customers.$inferInsert> = {}) {
  const [row] = await ex
    .insert(customers)
    .values({
      custName: name, parentCustId: parent?.custId ?? null, rootCustId: parent?.rootCustId ?? 0, level: parent ? 2 : 1,
      status: CustomerStatus.MassProduction, adminName: extra.adminName ?? '张伟', adminEmail: extra.adminEmail ?? 'admin@example.com',
      adminPhone: extra.adminPhone ?? '13800138000', paymentModel: PaymentModel.Prepaid, ...extra,
    })
    .returning();
  if (parent) return row;
  const [fixed] = await ex.update(customers).set({ rootCustId: row.custId }).where(eq(customers.custId, row.custId)).returning();
  return fixed;
}

/**
 * Demo data for an empty database: the five built-in roles, one account per role, three operators and a
 * customer tree. Passwords are random per installation (printed once by the caller) unless given; with
 * `dataDir` they are also written to DATA_DIR/demo-logins.txt (mode 0600) once the data is committed.
 */
export async function seedDemo(db: Db, demoPassword: string | null, opts: { box?: SecretBox; dataDir?: string } = {}): Promise<SeedResult | null> {
  const [{ n }] = await db.select({ n: count() }).from(roles);
  if (Number(n) > 0) return null;
  const perms = builtInRolePermissions();
  const logins: SeedResult['logins'] = [];
  const people = [
    { loginName: 'admin', userName: '系统管理员', roleId: RoleType.Admin },
    { loginName: 'manager', userName: '运营经理', roleId: RoleType.Manager },
    { loginName: 'enterprise', userName: '智行物流管理员', roleId: RoleType.Enterprise },
    { loginName: 'channel', userName: '华电渠道管理员', roleId: RoleType.Channel },
    { loginName: 'subcustomer', userName: '华东分公司管理员', roleId: RoleType.SubCustomer },
  ];
  const hashed = await Promise.all(
    people.map(async (p) => {
      const password = demoPassword ?? generatePassword();
      return { ...p, password, hash: await hashPassword(password) };
    }),
  );
  await db.transaction(async (tx) => {
    await tx.insert(roles).values(ROLES.map((r) => ({ ...r, roleType: r.roleId, permissions: perms[r.roleId], builtIn: true })));
    await tx.insert(operators).values([
      { operatorId: Operator.ChinaMobile, code: 'CMCC', nameZh: '中国移动', nameEn: 'China Mobile', billingDay: 1 },
      // China Unicom's billing period starts on the 26th (spec §9)
      { operatorId: Operator.ChinaUnicom, code: 'CUCC', nameZh: '中国联通', nameEn: 'China Unicom', billingDay: 26 },
      { operatorId: Operator.ChinaTelecom, code: 'CTCC', nameZh: '中国电信', nameEn: 'China Telecom', billingDay: 1 },
    ]);
    await seedCommServices(tx);
    const zhixing = await customer(tx, '智行物流科技有限公司', null, {
      adminName: '王芳', adminEmail: 'it@zhixing-logistics.example.com', adminPhone: '13911112222', preDeposit: 50000, credit: 10000,
      industryLevel1: '交通物流', industryLevel2: '冷链运输', salesName: '李明', salesPhone: '13700001111',
      bankName: '招商银行上海分行', bankAccount: '6225880212345678',
    });
    const huadian = await customer(tx, '华电智能表计有限公司', null, {
      adminName: '陈静', adminEmail: 'ops@huadian-meter.example.com', adminPhone: '13622223333', preDeposit: 120000,
      paymentModel: PaymentModel.Postpaid, industryLevel1: '能源', industryLevel2: '智能电表',
      bankName: '中国工商银行深圳分行', bankAccount: '4000023409200112233',
    });
    const east = await customer(tx, '智行物流华东分公司', zhixing, { adminName: '赵强', adminEmail: 'east@zhixing-logistics.example.com', adminPhone: '13533334444' });
    await customer(tx, '智行冷链配送中心', zhixing, { adminName: '孙丽', adminEmail: 'cold@zhixing-logistics.example.com', adminPhone: '13544445555' });
    await customer(tx, '华电深圳运维中心', huadian, { adminName: '周涛', adminEmail: 'sz@huadian-meter.example.com', adminPhone: '13455556666' });
    await seedPlans(tx, zhixing);
    await seedRetailPlans(tx, zhixing);
    await seedNetconfig(tx);
    // the enterprise's China Mobile and China Unicom plans, so all its cards get a plan below
    await seedOperatorPlans(tx, zhixing);
    if (opts.box) await seedSimulatorAccess(tx, opts.box);
    await seedCards(tx, { zhixing, east, huadian });
    await seedCardCatalog(tx, { zhixing, huadian });
    await seedPools(tx, { zhixing });
    // a few super SIMs of the enterprise's cards (docs/super-sim.md)
    await seedDemoDsims(tx, zhixing);
    // a few eUICCs and profiles of the enterprise (docs/euicc.md)
    await seedDemoEuiccs(tx, zhixing);
    // the warehouse: matched, out and not yet matched stock items (docs/stock.md)
    await seedDemoStock(tx);
    // channel cards, their bill and resold cards (docs/channel-cards.md)
    await seedDemoChannelCards(tx, { huadian, zhixing });
    // the usage feed fills the demo cards' last month from the network simulator on its first runs (docs/usage.md)
    await startUsageFeeds(tx, [Operator.ChinaMobile, Operator.ChinaUnicom, Operator.ChinaTelecom], demoUsageStart());
    const custOf: Record<string, typeof zhixing | null> = { admin: null, manager: null, enterprise: zhixing, channel: huadian, subcustomer: east };
    for (const p of hashed) {
      const c = custOf[p.loginName];
      await tx.insert(accounts).values({
        loginName: p.loginName, userName: p.userName, roleId: p.roleId, custId: c?.custId ?? null, rootCustId: c?.rootCustId ?? null,
        passwordHash: p.hash, email: `${p.loginName}@lynx-cmp.example.com`,
      });
      logins.push({ loginName: p.loginName, roleId: p.roleId, password: p.password });
    }
  });
  let loginsFile: string | null = null;
  let loginsFileError: string | null = null;
  if (opts.dataDir) {
    try {
      loginsFile = writeDemoLogins(opts.dataDir, logins);
    } catch (err) {
      loginsFileError = (err as Error).message;
    }
  }
  return { logins, loginsFile, loginsFileError };
}
