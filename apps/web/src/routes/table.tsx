import { AlertOutlined, AccountBookOutlined, BankOutlined, BarChartOutlined, FundOutlined, HomeOutlined, CreditCardOutlined, ThunderboltOutlined, SettingOutlined, ApiOutlined, InboxOutlined, ToolOutlined, ShopOutlined } from '@ant-design/icons';
import { Perm, RoleType } from '@lynx/contract';
import type { RouteDef } from './types.ts';
import { hotPages } from './hot.ts';

/**
 * THE route table (ARCHITECTURE §5). Adding a screen = one entry here + its page folder + its i18n keys.
 * Only screens that work end to end are listed; the other areas of the spec arrive with their issues.
 */
export const routes: RouteDef[] = [
  {
    path: 'home', titleKey: 'home', perm: Perm.Home, icon: <HomeOutlined />, redirectToFirstChild: true,
    children: [
      { path: 'index', titleKey: 'homeIndex', page: hotPages.home },
      {
        path: 'customer', titleKey: 'homeCustomer', perm: Perm.HomeCustomer, hideForRoles: [RoleType.SubCustomer],
        page: () => import('../pages/home/customer/index.tsx'),
      },
      {
        path: 'account', titleKey: 'homeAccount', perm: Perm.HomeAccount, hideForRoles: [RoleType.SubCustomer],
        redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:channelCustId?', titleKey: 'homeAccount', page: () => import('../pages/home/account/list/index.tsx') },
          { path: 'freeze/:loginName', titleKey: 'homeAccountFreeze', page: () => import('../pages/home/account/freeze/index.tsx') },
        ],
      },
      {
        path: 'doc', titleKey: 'help', hideInMenu: true,
        children: [
          { path: 'api-manager', titleKey: 'homeApiManager', perm: Perm.HomeApiManage, page: () => import('../pages/home/doc/api-manager/index.tsx') },
          { path: 'faq', titleKey: 'homeFaq', page: () => import('../pages/home/doc/faq/index.tsx') },
          { path: 'guide', titleKey: 'homeGuide', page: () => import('../pages/home/doc/guide/index.tsx') },
          {
            path: 'manager-guide', titleKey: 'homeManagerGuide', onlyRoles: [RoleType.Admin, RoleType.Manager],
            page: () => import('../pages/home/doc/manager-guide/index.tsx'),
          },
        ],
      },
    ],
  },
  {
    path: 'billing', titleKey: 'billing', perm: Perm.Billing, icon: <AccountBookOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'package', titleKey: 'billingPackage', perm: Perm.PackageManage, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          // plan routes (basic plans, supplementary packs, price adjustment, change list)
          { path: 'list/:tab?', titleKey: 'billingPackageList', noTab: true, page: () => import('../pages/billing/package/list/index.tsx') },
          { path: 'addbasic', titleKey: 'billingBasicAdd', perm: 4010003, page: () => import('../pages/billing/package/form/index.tsx') },
          { path: 'copybasic/:goodsReleaseId/:isCopy', titleKey: 'billingBasicCopy', perm: 4010003, page: () => import('../pages/billing/package/form/index.tsx') },
          { path: 'priceAdjustment/:goodsReleaseId/:isCopy', titleKey: 'billingPriceAdjustment', perm: 4010004, page: () => import('../pages/billing/package/price/index.tsx') },
          { path: 'basicdetail/:goodsReleaseId/:tariffType', titleKey: 'billingBasicDetail', page: () => import('../pages/billing/package/detail/index.tsx') },
          { path: 'basicChangeList/:goodsReleaseId', titleKey: 'billingBasicChangeList', perm: 4010004, page: () => import('../pages/billing/package/changes/index.tsx') },
          // retail routes (addretail, editretail, copyretail, retaildetail, retailrecord)
          { path: 'addretail', titleKey: 'billingRetailAdd', perm: 4010005, page: () => import('../pages/billing/package/retail/form/index.tsx') },
          { path: 'editretail/:retailId', titleKey: 'billingRetailEdit', perm: 4010005, page: () => import('../pages/billing/package/retail/form/index.tsx') },
          { path: 'copyretail/:retailId/:isCopy', titleKey: 'billingRetailCopy', perm: 4010005, page: () => import('../pages/billing/package/retail/form/index.tsx') },
          { path: 'retaildetail/:retailId/:tariffType', titleKey: 'billingRetailDetail', page: () => import('../pages/billing/package/retail/detail/index.tsx') },
          { path: 'retailrecord/:retailId', titleKey: 'billingRetailRecord', page: () => import('../pages/billing/package/retail/record/index.tsx') },
        ],
      },
      {
        // Billing › Bills (issue 14): the list's spending / fenrun sub-paths are no tabs of their own (spec §2)
        path: 'bill', titleKey: 'billingBill', perm: Perm.BillingBill, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:tab?', titleKey: 'billingBill', page: () => import('../pages/billing/bill/list/index.tsx') },
          { path: 'spending/detail/:billId', titleKey: 'billingBillDetail', page: () => import('../pages/billing/bill/detail/index.tsx') },
        ],
      },
      {
        // Billing › Channel bills (issue 14): operators' and upstream channels' bills reconciled against the platform's usage
        path: 'channelbill', titleKey: 'billingChannelBill', perm: Perm.BillingChannelBill, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'billingChannelBill', page: () => import('../pages/billing/channelbill/list/index.tsx') },
          { path: 'detail/:billId?', titleKey: 'billingChannelBillDetail', page: () => import('../pages/billing/channelbill/detail/index.tsx') },
        ],
      },
      {
        // Billing › Automated ledger (issue 14): per-customer rules; the detail without an id lists every execution
        path: 'billAutomateLedger', titleKey: 'billingAutoLedger', perm: Perm.BillingAutoLedger, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'billingAutoLedger', page: () => import('../pages/billing/billAutomateLedger/list/index.tsx') },
          { path: 'detail/:automateLeId?', titleKey: 'billingAutoLedgerDetail', page: () => import('../pages/billing/billAutomateLedger/detail/index.tsx') },
        ],
      },
    ],
  },
  {
    // Auto rule (issue 15, docs/automation.md): rules with their dry run, and the trigger records with what each action did
    path: 'autorule', titleKey: 'autorule', perm: Perm.AutoRule, icon: <AlertOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'autorule-list', titleKey: 'autoruleList', perm: 5010000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'autoruleList', page: () => import('../pages/autorule/autorule-list/list/index.tsx') },
          { path: 'detail/:ruleId', titleKey: 'autoruleDetail', page: () => import('../pages/autorule/autorule-list/detail/index.tsx') },
        ],
      },
      {
        path: 'alarm-list', titleKey: 'autoruleAlarm', perm: 5020000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'autoruleAlarm', page: () => import('../pages/autorule/alarm-list/list/index.tsx') },
          { path: 'detail/:alarmId', titleKey: 'autoruleAlarmDetail', page: () => import('../pages/autorule/alarm-list/detail/index.tsx') },
          { path: 'execute-detail/:ruleId/:actionId', titleKey: 'autoruleExecute', page: () => import('../pages/autorule/alarm-list/execute-detail/index.tsx') },
        ],
      },
    ],
  },
  {
    // Business (issue 13): the customers and their money; the customer and account screens are the Home ones
    path: 'business', titleKey: 'business', perm: Perm.Business, icon: <BankOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'customer', titleKey: 'businessCustomer', perm: Perm.BusinessCustomer, hideForRoles: [RoleType.SubCustomer], redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'businessCustomer', page: () => import('../pages/business/customer/list/index.tsx') },
          { path: 'detail/:channelCustId', titleKey: 'businessCustomerDetail', page: () => import('../pages/business/customer/detail/index.tsx') },
        ],
      },
      {
        path: 'account', titleKey: 'businessAccount', perm: Perm.BusinessAccount, hideForRoles: [RoleType.SubCustomer], redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'businessAccount', page: () => import('../pages/home/account/list/index.tsx') },
          { path: 'detail/:channelCustId', titleKey: 'businessAccount', page: () => import('../pages/home/account/list/index.tsx') },
        ],
      },
      {
        // Business › Capital: balances per customer and one customer's ledger (a customer without :custId: its own)
        path: 'capital', titleKey: 'businessCapital', perm: Perm.BusinessCapital, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'businessCapital', page: () => import('../pages/business/capital/list/index.tsx') },
          { path: 'detail/info/:custId?', titleKey: 'businessCapitalDetail', page: () => import('../pages/business/capital/detail/index.tsx') },
          // a customer's prepaid charges of one plan or pack (elementId: the charge category), period (cycle) and event (contractType)
          {
            path: 'detail/prepay-card/:goodsReleaseId/:elementId/:cycle/:contractType', titleKey: 'businessCapitalPrepayCard',
            page: () => import('../pages/business/capital/prepay-card/index.tsx'),
          },
        ],
      },
      {
        // Business › Recharge: top-ups, public transfers and finance's review, refunds; :id opens one top-up's drawer
        path: 'recharge', titleKey: 'businessRecharge', perm: Perm.BusinessRecharge, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:id?', titleKey: 'businessRecharge', page: () => import('../pages/business/recharge/list/index.tsx') },
        ],
      },
      {
        // Business › Withdrawals: apply (held), finance's review, the payout runs; the working-day calendar beside it
        path: 'withdraw', titleKey: 'businessWithdraw', perm: Perm.BusinessWithdraw, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'businessWithdraw', page: () => import('../pages/business/withdraw/list/index.tsx') },
          { path: 'holidays', titleKey: 'businessWithdrawHolidays', page: () => import('../pages/business/withdraw/holidays/index.tsx') },
        ],
      },
    ],
  },
  {
    // Financial (issue 13): credit orders; staff grant, change and reset, customers read their own
    path: 'financial', titleKey: 'financial', perm: Perm.Financial, icon: <FundOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'credit', titleKey: 'financialCredit', perm: Perm.FinancialCredit, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'financialCredit', page: () => import('../pages/financial/credit/list/index.tsx') },
          { path: 'change-log/:creditId', titleKey: 'financialCreditChangeLog', page: () => import('../pages/financial/credit/change-log/index.tsx') },
        ],
      },
      {
        // Financial › Write-off (issue 14): bills to write off, written off, overdue (:tab pending | done | overdue)
        path: 'cancel-bill', titleKey: 'financialCancelBill', perm: Perm.FinancialWriteOff, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:tab?', titleKey: 'financialCancelBill', page: () => import('../pages/financial/cancel-bill/list/index.tsx') },
        ],
      },
      {
        // Financial › Operating bills (issue 14): the carriers' bills per operator account and period against revenue (staff only)
        path: 'operate-bill', titleKey: 'financialOperateBill', perm: Perm.FinancialOperateBill, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'financialOperateBill', page: () => import('../pages/financial/operate-bill/list/index.tsx') },
        ],
      },
      {
        // Financial › Accounting reports (issue 14): daily and monthly statements of the customers' money (:type ReportPeriod)
        path: 'report', titleKey: 'financialReport', perm: Perm.FinancialReport, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'financialReport', page: () => import('../pages/financial/report/list/index.tsx') },
          { path: 'detail/:id/:type', titleKey: 'financialReportDetail', page: () => import('../pages/financial/report/detail/index.tsx') },
        ],
      },
    ],
  },
  {
    // Report (issue 14): the monthly SIM report per customer and data usage by day and month
    path: 'report', titleKey: 'report', perm: Perm.Report, icon: <BarChartOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'cardreport', titleKey: 'reportCard', perm: Perm.ReportCard, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'reportCard', page: () => import('../pages/report/cardreport/list/index.tsx') }],
      },
      {
        // the charges at the event (prepaid terms, packs): withheld from prepaid customers, on the bill for the others
        path: 'prepaidCost', titleKey: 'reportPrepaidCost', perm: Perm.ReportPrepaidCost, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'reportPrepaidCost', page: () => import('../pages/report/prepaidCost/list/index.tsx') },
          { path: 'detail/:recordId/:channelCustId?', titleKey: 'reportPrepaidCostDetail', page: () => import('../pages/report/prepaidCost/detail/index.tsx') },
        ],
      },
      {
        path: 'communicationUsage', titleKey: 'reportUsage', perm: Perm.ReportUsage, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'reportUsage', page: () => import('../pages/report/communicationUsage/list/index.tsx') }],
      },
    ],
  },
  {
    path: 'card', titleKey: 'card', perm: Perm.Card, icon: <CreditCardOutlined />, redirectToFirstChild: true,
    children: [
      // card data routes
      {
        path: 'card-list', titleKey: 'cardList', perm: Perm.CardList, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:salesorder?', titleKey: 'cardList', page: hotPages.cardList, data: () => import('../pages/card/card-list/list/query.ts') },
          // card detail routes (detail, numcard allocation: not a tab, spec §2)
          { path: 'detail/:iccid/:channelCustId?', titleKey: 'cardDetail', page: () => import('../pages/card/card-list/detail/index.tsx') },
          { path: 'numcard/:salesorder?/:operatorsId?', titleKey: 'cardNumcard', perm: 2010007, noTab: true, page: () => import('../pages/card/card-list/numcard/index.tsx') },
        ],
      },
      // SMS centre (issue 15, docs/sms.md): messages to and from the cards; send (2010006) and batch SMS (2030003)
      {
        path: 'sms', titleKey: 'cardSms', perm: 2020000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'cardSms', page: () => import('../pages/card/sms/list/index.tsx') }],
      },
      // batch routes (Card › Batch operations: every batch type)
      {
        path: 'batchoperate', titleKey: 'cardBatchOperate', perm: 2030000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:type?', titleKey: 'cardBatchOperate', page: () => import('../pages/card/batchoperate/list/index.tsx') },
          { path: 'detail/:batchId/:state', titleKey: 'cardBatchDetail', page: () => import('../pages/card/batchoperate/detail/index.tsx') },
        ],
      },
      // eUICC routes (issue 16, docs/euicc.md): eUICCs and profiles, activation codes (2040000; changes 2040001)
      {
        path: 'euicc', titleKey: 'cardEuicc', perm: Perm.CardEuicc, redirectToFirstChild: true,
        children: [
          { path: 'list', titleKey: 'cardEuiccList', page: () => import('../pages/card/euicc/list/index.tsx') },
          { path: 'activation-code', titleKey: 'cardEuiccCode', page: () => import('../pages/card/euicc/activation-code/index.tsx') },
        ],
      },
      // card catalogue routes: card types
      {
        path: 'cardtype', titleKey: 'cardType', perm: 2050000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'cardType', page: () => import('../pages/card/cardtype/list/index.tsx') }],
      },
      // pool routes (Card › Pools: pools, their block history and the pool change batches)
      {
        path: 'pool', titleKey: 'cardPool', perm: Perm.Pool, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:salesOrder?', titleKey: 'cardPool', page: () => import('../pages/card/pool/list/index.tsx') },
          { path: 'detail/:poolId/:salesOrder?', titleKey: 'cardPoolDetail', page: () => import('../pages/card/pool/detail/index.tsx') },
          { path: 'blockhistory/:poolId', titleKey: 'cardPoolBlockHistory', page: () => import('../pages/card/pool/blockhistory/index.tsx') },
          { path: 'change/list/:salesOrder?', titleKey: 'cardPoolChange', page: () => import('../pages/card/pool/change/list/index.tsx') },
          { path: 'change/fail-log/:batchId', titleKey: 'cardPoolFailLog', page: () => import('../pages/card/pool/change/fail-log/index.tsx') },
        ],
      },
      {
        path: 'import-info', titleKey: 'cardImportInfo', perm: 2070000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'cardImportInfo', page: () => import('../pages/card/import-info/list/index.tsx') },
          { path: 'detail/:batchId', titleKey: 'cardImportDetail', page: () => import('../pages/card/import-info/detail/index.tsx') },
          { path: 'dsimdetail/:batchId', titleKey: 'cardDsimImportDetail', page: () => import('../pages/card/import-info/dsimdetail/index.tsx') },
        ],
      },
      {
        path: 'downloadtask', titleKey: 'cardDownloadTask', redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'cardDownloadTask', page: () => import('../pages/card/downloadtask/list/index.tsx') }],
      },
      // super SIMs (issue 16, docs/super-sim.md)
      {
        path: 'dsimlist', titleKey: 'cardDsim', perm: 2090000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'cardDsim', page: () => import('../pages/card/dsimlist/list/index.tsx') },
          { path: 'detail/:sn/:isSupplierCard', titleKey: 'cardDsimDetail', page: () => import('../pages/card/dsimlist/detail/index.tsx') },
        ],
      },
      // card catalogue routes: test cards and labels
      {
        path: 'testcard', titleKey: 'cardTestCard', perm: 2100000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'cardTestCard', page: () => import('../pages/card/testcard/list/index.tsx') },
          { path: 'detail/:iccid', titleKey: 'cardTestCardDetail', page: () => import('../pages/card/testcard/detail/index.tsx') },
        ],
      },
      {
        path: 'label', titleKey: 'cardLabel', perm: 2110000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'cardLabel', page: () => import('../pages/card/label/list/index.tsx') },
          { path: 'detail/:labelId', titleKey: 'cardLabelDetail', page: () => import('../pages/card/label/detail/index.tsx') },
          { path: 'edit/:labelId', titleKey: 'cardLabelEdit', perm: 2110001, page: () => import('../pages/card/label/edit/index.tsx') },
          { path: 'add', titleKey: 'cardLabelAdd', perm: 2110001, page: () => import('../pages/card/label/edit/index.tsx') },
        ],
      },
    ],
  },
  {
    // channel cards: imports, the cards and the channels' bills for them (issue 16, docs/channel-cards.md)
    path: 'channelCard', titleKey: 'channelCard', perm: Perm.ChannelCard, icon: <ShopOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'channelCardImport', titleKey: 'channelCardImport', perm: Perm.ChannelCardImport, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list/:salesorder?', titleKey: 'channelCardImport', page: () => import('../pages/channelCard/channelCardImport/list/index.tsx') }],
      },
      {
        path: 'channel-card', titleKey: 'channelCardList', perm: Perm.ChannelCardList, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'channelCardList', page: () => import('../pages/channelCard/channel-card/list/index.tsx') },
          { path: 'detail/:id', titleKey: 'channelCardDetail', page: () => import('../pages/channelCard/channel-card/detail/index.tsx') },
        ],
      },
      {
        path: 'channelCardBill', titleKey: 'channelCardBill', perm: Perm.ChannelCardBill, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'channelCardBill', page: () => import('../pages/channelCard/channelCardBill/list/index.tsx') },
          { path: 'detail/:id', titleKey: 'channelCardBillDetail', page: () => import('../pages/channelCard/channelCardBill/detail/index.tsx') },
        ],
      },
    ],
  },
  {
    path: 'shortcuts', titleKey: 'shortcuts', perm: Perm.Shortcuts, icon: <ThunderboltOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'notification', titleKey: 'shortcutsNotification', perm: Perm.Notification, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'shortcutsNotification', page: () => import('../pages/shortcuts/notification/list/index.tsx') }],
      },
      // diagnosis routes
      {
        path: 'diagnose', titleKey: 'shortcutsDiagnose', perm: 6050000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'detail/:iccId?', titleKey: 'shortcutsDiagnose', page: () => import('../pages/shortcuts/diagnose/detail/index.tsx') }],
      },
      // batch routes (Shortcuts: data recovery, standard cards operation, batch change status)
      {
        path: 'data-recovery', titleKey: 'shortcutsDataRecovery', perm: 6060000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'shortcutsDataRecovery', page: () => import('../pages/shortcuts/data-recovery/list/index.tsx') },
          { path: 'detail/:batchId/:state?', titleKey: 'shortcutsDataRecoveryDetail', page: () => import('../pages/shortcuts/data-recovery/detail/index.tsx') },
        ],
      },
      {
        path: 'standardsim', titleKey: 'shortcutsStandardSim', perm: 6070000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'shortcutsStandardSim', page: () => import('../pages/shortcuts/standardsim/list/index.tsx') },
          { path: 'detail/:batchId/:state?', titleKey: 'shortcutsStandardSimDetail', page: () => import('../pages/shortcuts/standardsim/detail/index.tsx') },
        ],
      },
      {
        path: 'batchoperate', titleKey: 'shortcutsBatchOperate', perm: 6080000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:type?', titleKey: 'shortcutsBatchOperate', page: () => import('../pages/shortcuts/batchoperate/list/index.tsx') },
          { path: 'detail/:batchId/:state', titleKey: 'shortcutsBatchDetail', page: () => import('../pages/shortcuts/batchoperate/detail/index.tsx') },
        ],
      },
      // aliases of the business screens (§2 Shortcuts): the customer list with balances, and capital
      {
        path: 'customer', titleKey: 'shortcutsCustomer', perm: Perm.BusinessCustomer, hideForRoles: [RoleType.SubCustomer], hideInMenu: true,
        page: () => import('../pages/business/customer/list/index.tsx'),
      },
      { path: 'capital', titleKey: 'shortcutsCapital', perm: Perm.HomeTileCapital, hideInMenu: true, page: () => import('../pages/business/capital/list/index.tsx') },
      { path: 'recharge/list/:id?', titleKey: 'shortcutsRecharge', perm: Perm.HomeTileRecharge, hideInMenu: true, page: () => import('../pages/business/recharge/list/index.tsx') },
      { path: 'withdraw/list', titleKey: 'shortcutsWithdraw', perm: Perm.HomeTileWithdraw, hideInMenu: true, page: () => import('../pages/business/withdraw/list/index.tsx') },
      {
        path: 'capital/detail/info/:custId?', titleKey: 'businessCapitalDetail', perm: Perm.HomeTileCapital, hideInMenu: true,
        page: () => import('../pages/business/capital/detail/index.tsx'),
      },
      // usage routes (traffic detail query)
      {
        path: 'queryflow', titleKey: 'shortcutsQueryflow', perm: 6100000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'shortcutsQueryflow', page: () => import('../pages/shortcuts/queryflow/list/index.tsx') }],
      },
      {
        // one-off fees on a customer or card, charged on its next bill (issue 14)
        path: 'oncecost', titleKey: 'shortcutsOncecost', perm: Perm.ShortcutsOneOffFee, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'shortcutsOncecost', page: () => import('../pages/shortcuts/oncecost/list/index.tsx') }],
      },
      {
        // China Unicom account operation: usage per Unicom account × rate plan × zone × day and the pool detail (issue 15)
        path: 'cust-operation', titleKey: 'shortcutsCustOperation', perm: Perm.ShortcutsCustOperation, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'shortcutsCustOperation', page: () => import('../pages/shortcuts/cust-operation/list/index.tsx') },
          {
            path: 'detail/:accountName/:ratePlanName/:zoneName/:queryDate', titleKey: 'shortcutsCustOperationDetail',
            page: () => import('../pages/shortcuts/cust-operation/detail/index.tsx'),
          },
        ],
      },
      {
        // resale status sync: cards resold through another platform, synced through the ResalePlatform interface (issue 16)
        path: 'resell', titleKey: 'shortcutsResell', perm: Perm.ShortcutsResell, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'shortcutsResell', page: () => import('../pages/shortcuts/resell/list/index.tsx') }],
      },
    ],
  },
  {
    path: 'operator', titleKey: 'operator', perm: Perm.Operator, icon: <ApiOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'name', titleKey: 'operatorName', perm: 7040000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'operatorName', page: () => import('../pages/operator/name/list/index.tsx') }],
      },
      {
        path: 'operator-apn', titleKey: 'operatorApn', perm: 7050000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'operatorApn', page: () => import('../pages/operator/operator-apn/list/index.tsx') }],
      },
      {
        path: 'apn', titleKey: 'operatorApnManage', perm: 7010000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'operatorApnManage', page: () => import('../pages/operator/apn/list/index.tsx') }],
      },
      // commserv routes
      {
        path: 'commserv-list', titleKey: 'operatorCommserv', perm: 7030000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorCommserv', page: () => import('../pages/operator/commserv-list/list/index.tsx') },
          { path: 'detail/:commservId', titleKey: 'operatorCommservDetail', page: () => import('../pages/operator/commserv-list/detail/index.tsx') },
          { path: 'add', titleKey: 'operatorCommservAdd', perm: 7030001, page: () => import('../pages/operator/commserv-list/add/index.tsx') },
          { path: 'edit/:commservId', titleKey: 'operatorCommservEdit', perm: 7030002, page: () => import('../pages/operator/commserv-list/edit/index.tsx') },
          {
            path: 'config-manager', titleKey: 'operatorCommservConfig', perm: 7030004, redirectToFirstChild: true,
            children: [
              { path: 'speedLimit', titleKey: 'operatorCommservSpeedLimit', page: () => import('../pages/operator/commserv-list/config-manager/speedLimit/index.tsx') },
              { path: 'redirect', titleKey: 'operatorCommservRedirect', page: () => import('../pages/operator/commserv-list/config-manager/redirect/index.tsx') },
            ],
          },
        ],
      },
      // opconfig routes
      {
        path: 'config', titleKey: 'operatorConfig', perm: 7060000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorConfig', page: () => import('../pages/operator/config/list/index.tsx') },
          { path: 'add', titleKey: 'operatorConfigAdd', perm: 7060001, page: () => import('../pages/operator/config/form/index.tsx') },
          { path: 'edit/:operAccountId', titleKey: 'operatorConfigEdit', perm: 7060002, page: () => import('../pages/operator/config/form/index.tsx') },
          { path: 'detail/:operAccountId', titleKey: 'operatorConfigDetail', page: () => import('../pages/operator/config/detail/index.tsx') },
        ],
      },
      {
        path: 'platformConfig', titleKey: 'operatorPlatformConfig', perm: 7110000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorPlatformConfig', page: () => import('../pages/operator/platformConfig/list/index.tsx') },
          { path: 'detail/:platformId', titleKey: 'operatorPlatformConfigDetail', page: () => import('../pages/operator/platformConfig/detail/index.tsx') },
          { path: 'add/:platformId', titleKey: 'operatorPlatformConfigAdd', perm: 7110001, noTab: true, page: () => import('../pages/operator/platformConfig/form/index.tsx') },
          { path: 'edit/:platformId/:id', titleKey: 'operatorPlatformConfigEdit', perm: 7110002, noTab: true, page: () => import('../pages/operator/platformConfig/form/index.tsx') },
        ],
      },
      {
        path: 'comm', titleKey: 'operatorComm', perm: 7070000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'operatorComm', page: () => import('../pages/operator/comm/list/index.tsx') }],
      },
      {
        path: 'OperatorRetryFailureRecord', titleKey: 'operatorRetryFailure', perm: 7100000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorRetryFailure', page: () => import('../pages/operator/OperatorRetryFailureRecord/list/index.tsx') },
          { path: 'detail/:msisdn', titleKey: 'operatorRetryFailureDetail', page: () => import('../pages/operator/OperatorRetryFailureRecord/detail/index.tsx') },
        ],
      },
      // netconfig routes
      {
        path: 'goods-import', titleKey: 'operatorGoodsImport', perm: 7020000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorGoodsImport', page: () => import('../pages/operator/goods-import/list/index.tsx') },
          { path: 'add', titleKey: 'operatorGoodsImportAdd', perm: 7020003, page: () => import('../pages/operator/goods-import/add/index.tsx') },
        ],
      },
      {
        path: 'firewallConfig', titleKey: 'operatorFirewall', perm: 7080000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorFirewall', page: () => import('../pages/operator/firewallConfig/list/index.tsx') },
          { path: 'detail/:policyId', titleKey: 'operatorFirewallDetail', page: () => import('../pages/operator/firewallConfig/detail/index.tsx') },
          { path: 'add', titleKey: 'operatorFirewallAdd', perm: 7080001, page: () => import('../pages/operator/firewallConfig/form/index.tsx') },
          { path: 'edit/:policyId', titleKey: 'operatorFirewallEdit', perm: 7080002, page: () => import('../pages/operator/firewallConfig/form/index.tsx') },
          { path: 'sourceAddress', titleKey: 'operatorFirewallSource', page: () => import('../pages/operator/firewallConfig/sourceAddress/index.tsx') },
          { path: 'targetAddress', titleKey: 'operatorFirewallTarget', page: () => import('../pages/operator/firewallConfig/targetAddress/index.tsx') },
        ],
      },
      {
        path: 'ltcomm', titleKey: 'operatorLtcomm', perm: 7090000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorLtcomm', page: () => import('../pages/operator/ltcomm/list/index.tsx') },
          { path: 'config/add', titleKey: 'operatorLtcommAdd', perm: 7090001, page: () => import('../pages/operator/ltcomm/config/index.tsx') },
          { path: 'config/edit/:planID', titleKey: 'operatorLtcommEdit', perm: 7090002, page: () => import('../pages/operator/ltcomm/config/index.tsx') },
          { path: 'config/copy/:planID', titleKey: 'operatorLtcommCopy', perm: 7090001, page: () => import('../pages/operator/ltcomm/config/index.tsx') },
          { path: 'config/detail/:planID', titleKey: 'operatorLtcommDetail', page: () => import('../pages/operator/ltcomm/detail/index.tsx') },
        ],
      },
    ],
  },
  // netconfig: stock group
  {
    path: 'stock', titleKey: 'stock', perm: Perm.Stock, icon: <InboxOutlined />, redirectToFirstChild: true,
    children: [
      {
        // physical stock: the three codes, locations, match and out states (issue 16, docs/stock.md)
        path: 'stocklist', titleKey: 'stockList', perm: 11010000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'stockList', page: () => import('../pages/stock/stocklist/list/index.tsx') },
          { path: 'detail/:iccid?', titleKey: 'stockDetail', page: () => import('../pages/stock/stocklist/detail/index.tsx') },
          { path: 'doublecard-detail/:sn?', titleKey: 'stockDoubleCard', page: () => import('../pages/stock/stocklist/doublecard-detail/index.tsx') },
        ],
      },
      {
        path: 'goods-import', titleKey: 'stockGoodsImport', perm: 11020000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:tab?', titleKey: 'stockGoodsImport', page: () => import('../pages/stock/goods-import/list/index.tsx') },
          { path: 'add/:type?', titleKey: 'stockGoodsImportAdd', perm: 11020003, page: () => import('../pages/stock/goods-import/add/index.tsx') },
        ],
      },
      {
        // stock operations (in, match, out, scrap) as durable batches with per-item failures (issue 16)
        path: 'operationList', titleKey: 'stockOperations', perm: 11030000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:param?', titleKey: 'stockOperations', page: () => import('../pages/stock/operationList/list/index.tsx') },
          { path: 'detail/:batchId?', titleKey: 'stockOperationDetail', page: () => import('../pages/stock/operationList/detail/index.tsx') },
        ],
      },
    ],
  },
  // opconfig: operationManagement group
  {
    path: 'operationManagement', titleKey: 'operationManagement', perm: 7100000, icon: <ToolOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'OperatorRetryFailureRecord', titleKey: 'operatorRetryFailure', perm: 7100000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'operatorRetryFailure', page: () => import('../pages/operator/OperatorRetryFailureRecord/list/index.tsx') },
          { path: 'detail/:msisdn', titleKey: 'operatorRetryFailureDetail', page: () => import('../pages/operator/OperatorRetryFailureRecord/detail/index.tsx') },
        ],
      },
    ],
  },
  {
    path: 'system', titleKey: 'system', perm: Perm.System, icon: <SettingOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'api', titleKey: 'systemApi', perm: Perm.SystemApiLog, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'systemApi', page: () => import('../pages/system/api/list/index.tsx') }],
      },
      {
        path: 'role', titleKey: 'systemRole', perm: Perm.SystemRole, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'systemRole', page: () => import('../pages/system/role/list/index.tsx') },
          { path: 'detail/:roleId', titleKey: 'systemRoleDetail', page: () => import('../pages/system/role/detail/index.tsx') },
        ],
      },
      {
        path: 'userBehavior', titleKey: 'systemUserBehavior', perm: Perm.SystemUserBehavior, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'systemUserBehavior', page: () => import('../pages/system/userBehavior/list/index.tsx') }],
      },
      {
        path: 'dataPush', titleKey: 'systemDataPush', perm: Perm.SystemDataPush, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'systemDataPush', page: () => import('../pages/system/dataPush/list/index.tsx') }],
      },
    ],
  },
];
