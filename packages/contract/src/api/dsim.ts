import { Type } from '@sinclair/typebox';
import { endpoint, Nullable, Obj, Page, PageParams } from './endpoint.ts';

/**
 * Card › Super SIM (超级 SIM: /card/dsimlist/list, /card/dsimlist/detail/:sn/:isSupplierCard, 2090000) and its import
 * records (/card/import-info/dsimdetail/:batchId, 2070000); spec §7 "dsim strategy" and "SIM import (dsim import)";
 * docs/super-sim.md.
 *
 * A super SIM (identified by its SN) holds one profile per operator; each profile is a card of the platform (a
 * `cards` row with its own ICCID and IMSI), so usage, state and tenancy of a profile are the card's. The vendor
 * platform switches the active profile over the air; strategies switch by rule after each usage feed window.
 */
const tag = 'dsim';
const Perm = { SuperSim: 2090000, ImportInfo: 2070000 } as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** An SN: 6-32 letters and digits. */
export const DSIM_SN_PATTERN = '^[0-9A-Za-z]{6,32}$';
const Sn = Type.String({ pattern: DSIM_SN_PATTERN });
/** Strategy names are unique (the spec deletes a strategy by its name). */
export const DSIM_STRATEGY_NAME_MAX = 40;
export const DSIM_STRATEGY_REMARK_MAX = 500;
/** NoSession: 5 minutes to 7 days. */
export const DSIM_NO_SESSION_MINUTES = { min: 5, max: 7 * 24 * 60 };
/** Signal: the threshold in dBm. */
export const DSIM_SIGNAL_DBM = { min: -130, max: -50 };
/** A switch that the vendor platform has not confirmed after this long fails ("no answer in time"). */
export const DSIM_SWITCH_TIMEOUT_MINUTES = 10;
/** Spec §9: at most 10,000 rows (super SIMs) per import. */
export const DSIM_IMPORT_MAX_ROWS = 10_000;
export const DSIM_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const DSIM_IMPORT_FILE_FIELD = 'file';
/** The import file's columns: one row per super SIM, one ICCID column per operator (at least two filled). */
export const DSIM_IMPORT_COLUMNS = [
  { key: 'sn', zh: 'SN', en: 'SN', example: 'SS2026000001' },
  { key: 'iccid1', zh: '中国移动 ICCID', en: 'China Mobile ICCID', example: '89860020260000000001' },
  { key: 'iccid2', zh: '中国联通 ICCID', en: 'China Unicom ICCID', example: '89860120260000000001' },
  { key: 'iccid3', zh: '中国电信 ICCID', en: 'China Telecom ICCID', example: '89860320260000000001' },
  { key: 'current', zh: '初始运营商', en: 'Initial operator', example: '中国移动' },
  { key: 'supplier', zh: '供应商卡', en: 'Supplier card', example: '否' },
] as const;
export const DSIM_IMPORT_REQUIRED = ['sn', 'iccid1', 'iccid2', 'iccid3'] as const;

export const StrategyParams = Type.Object({
  minutes: Type.Optional(Type.Integer({ minimum: DSIM_NO_SESSION_MINUTES.min, maximum: DSIM_NO_SESSION_MINUTES.max })),
  operatorOrder: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 3 }), { minItems: 2, maxItems: 3 })),
  minSignal: Type.Optional(Type.Integer({ minimum: DSIM_SIGNAL_DBM.min, maximum: DSIM_SIGNAL_DBM.max })),
}, { additionalProperties: false });

export const DsimStrategy = Type.Object({
  strategyId: Type.Integer(),
  strategyName: Type.String(),
  /** DsimRuleType */
  ruleType: Type.Integer(),
  params: StrategyParams,
  remark: Nullable(Type.String()),
  /** super SIMs that use it (in the viewer's scope) */
  simCount: Type.Integer(),
  /** a platform strategy (made by staff): customers may use it, not change it */
  platform: Type.Boolean(),
  /** the viewer may edit and delete it */
  editable: Type.Boolean(),
  createdBy: Type.String(),
  updatedAt: Type.String(),
});

export const DsimMember = Type.Object({
  operatorId: Type.Integer(),
  iccid: Type.String(),
  imsi: Nullable(Type.String()),
  msisdn: Nullable(Type.String()),
  /** CardState of the profile's card */
  state: Type.Integer(),
  online: Type.Boolean(),
  lastSessionAt: Nullable(Type.String()),
  current: Type.Boolean(),
});

export const DsimRow = Type.Object({
  sn: Type.String(),
  isSupplierCard: Type.Boolean(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  currentOperatorId: Type.Integer(),
  currentIccid: Type.String(),
  strategyId: Nullable(Type.Integer()),
  strategyName: Nullable(Type.String()),
  members: Type.Array(DsimMember),
  /** DsimSwitchState of the last switch, null when never switched */
  lastSwitchState: Nullable(Type.Integer()),
  switchedAt: Nullable(Type.String()),
  batchId: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const DsimFilters = {
  snNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  /** an ICCID of any member profile */
  iccid: Type.Optional(Type.String({ minLength: 1, maxLength: 22 })),
  operator: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  strategyId: Type.Optional(Type.Integer({ minimum: 0 })),
  isSupplierCard: Type.Optional(Type.Boolean()),
};

export const getDsimPage = endpoint({
  name: 'core/sim/dsimStrategy/getDsimPage', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'query', tag,
  summary: { zh: '超级 SIM 列表（按 SN，含各运营商号码）', en: 'Super SIMs by SN with their profiles per operator' },
  body: Obj({ ...PageParams, ...DsimFilters }),
  response: Page(DsimRow),
});

export const getDsimInfo = endpoint({
  name: 'core/sim/dsimStrategy/info', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'query', tag,
  summary: { zh: '超级 SIM 详情与各运营商号码（卡信息）', en: 'A super SIM with its member profiles (card info)' },
  body: Obj({ snNumber: Sn }),
  response: DsimRow,
});

export const DsimFlowUse = Type.Object({
  operatorId: Type.Integer(),
  iccid: Type.String(),
  bytes: Type.Integer(),
  sms: Type.Integer(),
  sessions: Type.Integer(),
  days: Type.Integer(),
});

export const getDsimFlowUse = endpoint({
  name: 'core/sim/dsimStrategy/flowUse', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'query', tag,
  summary: { zh: '超级 SIM 各运营商用量（成员卡已入库的日用量）', en: 'Usage per operator of a super SIM (stored daily usage of its member cards)' },
  body: Obj({ snNumber: Sn, startDate: Type.Optional(Day), endDate: Type.Optional(Day) }),
  response: Type.Object({ startDate: Day, endDate: Day, list: Type.Array(DsimFlowUse) }),
});

export const DsimSwitchRecord = Type.Object({
  switchId: Type.Integer(),
  sn: Type.String(),
  fromOperatorId: Nullable(Type.Integer()),
  toOperatorId: Type.Integer(),
  /** DsimSwitchReason */
  reason: Type.Integer(),
  strategyName: Nullable(Type.String()),
  /** DsimSwitchState */
  state: Type.Integer(),
  requestId: Nullable(Type.String()),
  failCode: Nullable(Type.String()),
  failReason: Nullable(Type.String()),
  actor: Type.String(),
  requestedAt: Type.String(),
  doneAt: Nullable(Type.String()),
});

export const getDsimChangeRecordPage = endpoint({
  name: 'core/sim/dsimStrategy/changeRecords', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'query', tag,
  summary: { zh: '超级 SIM 的运营商切换记录', en: 'Operator switch records of a super SIM' },
  body: Obj({ ...PageParams, snNumber: Sn }),
  response: Page(DsimSwitchRecord),
});

export const switchOperator = endpoint({
  name: 'core/sim/dsimStrategy/switchOperator', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'mutation', tag,
  summary: {
    zh: '手动切换超级 SIM 的运营商（经超级 SIM 平台空中切换；成功或失败原因记入切换记录）',
    en: 'Switch a super SIM to another operator by hand (over the air through the vendor platform; the outcome is a switch record)',
  },
  body: Obj({ snNumber: Sn, operator: Type.Integer({ minimum: 1, maximum: 3 }) }),
  response: DsimSwitchRecord,
});

export const chooseStrategy = endpoint({
  name: 'core/sim/dsimStrategy/chooseStrategy', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'mutation', tag,
  summary: { zh: '为超级 SIM 选择切换策略（空 = 仅手动切换）', en: 'Choose the switch strategy of super SIMs (null = manual only)' },
  body: Obj({ snNumbers: Type.Array(Sn, { minItems: 1, maxItems: 500 }), strategyId: Nullable(Type.Integer({ minimum: 1 })) }),
  response: Type.Object({ updated: Type.Integer() }),
});

export const getOemStrategyPage = endpoint({
  name: 'core/sim/dsimStrategy/oemStrategyPage', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'query', tag,
  summary: { zh: 'OEM 切换策略列表', en: 'OEM switch strategies' },
  body: Obj({ ...PageParams, strategyName: Type.Optional(Type.String({ minLength: 1, maxLength: DSIM_STRATEGY_NAME_MAX })), ruleType: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })) }),
  response: Page(DsimStrategy),
});

const StrategyInput = {
  strategyName: Type.String({ minLength: 1, maxLength: DSIM_STRATEGY_NAME_MAX }),
  ruleType: Type.Integer({ minimum: 1, maximum: 3 }),
  params: StrategyParams,
  remark: Type.Optional(Nullable(Type.String({ maxLength: DSIM_STRATEGY_REMARK_MAX }))),
};

export const insertOemStrategy = endpoint({
  name: 'core/sim/dsimStrategy/insertOemStrategy', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'mutation', tag,
  summary: { zh: '新增 OEM 切换策略（名称唯一）', en: 'Add an OEM switch strategy (the name is unique)' },
  body: Obj(StrategyInput),
  response: DsimStrategy,
});

export const updateOemStrategy = endpoint({
  name: 'core/sim/dsimStrategy/updateOemStrategy', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'mutation', tag,
  summary: { zh: '编辑 OEM 切换策略', en: 'Edit an OEM switch strategy' },
  body: Obj({ strategyId: Type.Integer({ minimum: 1 }), ...StrategyInput }),
  response: DsimStrategy,
});

export const deleteOemStrategy = endpoint({
  name: 'core/sim/dsimStrategy/deleteOemStrategy', method: 'POST', auth: 'session', perm: [Perm.SuperSim], kind: 'mutation', tag,
  summary: { zh: '按名称删除 OEM 切换策略（使用中的策略不能删除）', en: 'Delete an OEM switch strategy by name (not while super SIMs use it)' },
  body: Obj({ strategyName: Type.String({ minLength: 1, maxLength: DSIM_STRATEGY_NAME_MAX }) }),
  response: Type.Null(),
});

/* ---------- import (2070000) ---------- */

export const DsimImportBatch = Type.Object({
  batchId: Type.String(),
  fileName: Type.String(),
  fileSize: Type.Integer(),
  remark: Nullable(Type.String()),
  simCount: Type.Integer(),
  cardCount: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const DsimImportRowError = Type.Object({
  row: Type.Integer(),
  sn: Nullable(Type.String()),
  column: Type.String(),
  reason: Type.String(),
});

export const importDsims = endpoint({
  name: 'core/sim/dsimImport/insert', method: 'POST', auth: 'session', perm: [Perm.ImportInfo], kind: 'mutation', tag,
  multipart: { file: DSIM_IMPORT_FILE_FIELD, maxBytes: DSIM_IMPORT_MAX_BYTES },
  summary: {
    zh: '导入超级 SIM 文件（字段 file，xlsx 或 csv）：全部行正确才导入，否则逐行列出错误且不导入任何数据',
    en: 'Import a super SIM file (field file, xlsx or csv): all rows or nothing; wrong rows are listed and nothing is stored',
  },
  body: Obj({ remark: Type.Optional(Type.String({ maxLength: 64 })) }),
  /** a file with wrong rows is refused with 21268, its `data` being { errors: DsimImportRowError[] (at most 500), errorCount } */
  response: DsimImportBatch,
});
export const DSIM_IMPORT_ERRORS_LISTED = 500;

export const downloadDsimImportTemplate = endpoint({
  name: 'core/sim/dsimImport/template', method: 'GET', auth: 'session', perm: [Perm.ImportInfo], kind: 'query', tag, raw: true,
  summary: { zh: '下载超级 SIM 导入模板（xlsx 或 csv，中文或英文表头）', en: 'Download the super SIM import template (xlsx or csv, Chinese or English headers)' },
  body: Obj({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])), templateLang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])) }),
  response: Type.Null(),
});

export const getDsimImportPage = endpoint({
  name: 'core/sim/dsimImport/getImportBatchPage', method: 'POST', auth: 'session', perm: [Perm.ImportInfo], kind: 'query', tag,
  summary: { zh: '超级 SIM 导入记录', en: 'Super SIM import records' },
  body: Obj({ ...PageParams }),
  response: Page(DsimImportBatch),
});

export const getDsimImportDetail = endpoint({
  name: 'core/sim/dsimImport/getImportBatchDetail', method: 'POST', auth: 'session', perm: [Perm.ImportInfo], kind: 'query', tag,
  summary: { zh: '超级 SIM 导入记录详情', en: 'A super SIM import record' },
  body: Obj({ batchId: Type.String({ format: 'uuid' }) }),
  response: DsimImportBatch,
});

export const DsimImportItem = Type.Object({
  sn: Type.String(),
  isSupplierCard: Type.Boolean(),
  operatorId: Type.Integer(),
  iccid: Type.String(),
});

export const getDsimImportItemPage = endpoint({
  name: 'core/sim/dsimImport/getImportItemPage', method: 'POST', auth: 'session', perm: [Perm.ImportInfo], kind: 'query', tag,
  summary: { zh: '超级 SIM 导入记录的 SN 与各运营商 ICCID', en: 'The SNs and their ICCIDs per operator of a super SIM import' },
  body: Obj({ ...PageParams, batchId: Type.String({ format: 'uuid' }), snNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })) }),
  response: Page(DsimImportItem),
});
