import { Type } from '@sinclair/typebox';
import { endpoint, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';

/**
 * Card › eUICC (/card/euicc/list, /card/euicc/activation-code; 2040000, changes 2040001; spec §7 "eSIM (list, check,
 * assign EID, batch assign, change state, batch insert, download profile list)"; docs/euicc.md).
 *
 * An eUICC is named by its EID (32 digits) and belongs to a customer; a profile is named by its ICCID, sits at an
 * SM-DP+ and is bound to at most one eUICC. Its state is one of the 12 of spec §4 (EuiccProfileState); download,
 * enable, disable and delete go to the SM-DP+ (EsimGateway) and end in a final state when it answers or when it
 * does not answer in time.
 */
const tag = 'euicc';

/** Largest batch (spec §9); a request may carry more so that "too many" is answered with the spec's text. */
export const EUICC_BATCH_MAX = 10_000;
export const EUICC_REQUEST_MAX = 20_000;
export const EID_PATTERN = '^[0-9]{32}$';
export const PROFILE_ICCID_PATTERN = '^[0-9A-Za-z]{19,20}$';
/** Activation code of SGP.22 §4.1: "LPA:1$<SM-DP+ address>$<matching id>". */
export const activationCodeOf = (smdpAddress: string, matchingId: string) => `LPA:1$${smdpAddress}$${matchingId}`;

const Iccid = Type.String({ minLength: 1, maxLength: 32 });
const Eid = Type.String({ minLength: 1, maxLength: 40 });

export const EuiccProfile = Type.Object({
  iccid: Type.String(),
  eid: Nullable(Type.String()),
  operatorId: Type.Integer(),
  /** EuiccProfileState */
  state: Type.Integer(),
  /** an operation sent to the SM-DP+ and not answered yet (download, enable, disable or delete: EuiccAction) */
  pendingAction: Nullable(Type.Integer()),
  /** why the last operation failed (no answer in time, the SM-DP+'s error), in both languages */
  reasonZh: Nullable(Type.String()),
  reasonEn: Nullable(Type.String()),
  smdpAddress: Type.String(),
  matchingId: Nullable(Type.String()),
  /** the activation code once the profile has a matching id */
  activationCode: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  stateAt: Type.String(),
});

export const Euicc = Type.Object({
  eid: Type.String(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  remark: Nullable(Type.String()),
  createdAt: Type.String(),
  profiles: Type.Array(EuiccProfile),
});

export const getEuiccPage = endpoint({
  name: 'core/esim/euicc/list', method: 'POST', auth: 'session', perm: [Perm.CardEuicc], kind: 'query', tag,
  summary: { zh: 'eUICC 列表（按 EID，含其 Profile）', en: 'eUICCs by EID with their profiles' },
  body: Obj({
    ...PageParams,
    /** an EID or the start of one */
    eid: Type.Optional(Type.String({ maxLength: 40 })),
    /** eUICCs holding a profile of this ICCID (or its start) */
    iccid: Type.Optional(Type.String({ maxLength: 32 })),
    /** eUICCs holding a profile in this state */
    state: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
  }),
  response: Page(Euicc),
});

export const ProfileFilters = {
  iccid: Type.Optional(Type.String({ maxLength: 32 })),
  eid: Type.Optional(Type.String({ maxLength: 40 })),
  state: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
  operatorId: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  /** only profiles a device can still download (bound, occupied, download failed): the activation-code screen */
  downloadable: Type.Optional(Type.Boolean()),
  /** the profiles of one state-change batch (its valid items): where the batch left them */
  batchId: Type.Optional(Type.String({ maxLength: 36 })),
};

export const getProfilePage = endpoint({
  name: 'core/esim/euicc/downloadProfileList', method: 'POST', auth: 'session', perm: [Perm.CardEuicc], kind: 'query', tag,
  summary: { zh: 'Profile 列表（可下载的 Profile 与激活码）', en: 'Profiles (the downloadable profiles and their activation codes)' },
  body: Obj({ ...PageParams, ...ProfileFilters }),
  response: Page(EuiccProfile),
});

export const CheckRow = Type.Object({ iccid: Type.String(), ok: Type.Boolean(), reasonZh: Nullable(Type.String()), reasonEn: Nullable(Type.String()) });

/**
 * Validation first: what a state change would do to each profile. Nothing changes on the profiles; the verdicts are
 * stored as a validated batch of the card batch engine (types 30-33, docs/euicc.md), which `changeState` confirms.
 */
export const checkProfiles = endpoint({
  name: 'core/esim/euicc/check', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  summary: { zh: '校验 Profile 状态变更（生成待确认的批量操作）', en: 'Check a profile state change (a batch awaiting confirmation)' },
  body: Obj({
    iccids: Type.Array(Iccid, { maxItems: EUICC_REQUEST_MAX }),
    /** EuiccAction */
    action: Type.Integer({ minimum: 1, maximum: 13 }),
  }),
  response: Type.Object({
    /** the validated batch; confirm it with changeState { batchId } */
    batchId: Type.String(),
    total: Type.Integer(),
    valid: Type.Integer(),
    invalid: Type.Integer(),
    /** already in the state the action leads to (nothing to do) */
    already: Type.Integer(),
    /** the ICCIDs that would change */
    validIccids: Type.Array(Type.String()),
    /** the refused ones with the reason (at most 500 shown) */
    refused: Type.Array(CheckRow),
  }),
});

/**
 * Runs a state change through the card batch engine: `batchId` confirms a checked batch (its valid profiles); `iccids`
 * + `action` (one profile's menu, API clients) checks and confirms at once, refused as a whole when any profile cannot
 * change. Each item places the operation with the SM-DP+ (the profile shows the in-flight state); the SM-DP+'s answer
 * or the deadline then moves the profile to its final state.
 */
export const changeProfileState = endpoint({
  name: 'core/esim/euicc/changeState', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  summary: { zh: '变更 Profile 状态（下载 / 启用 / 停用 / 删除）', en: 'Change profile state (download / enable / disable / delete)' },
  body: Obj({
    batchId: Type.Optional(Type.String({ maxLength: 36 })),
    iccids: Type.Optional(Type.Array(Iccid, { minItems: 1, maxItems: EUICC_REQUEST_MAX })),
    action: Type.Optional(Type.Integer({ minimum: 1, maximum: 13 })),
  }),
  response: Type.Object({ accepted: Type.Integer(), batchId: Type.String() }),
});

/** A state-change batch: the engine's progress and where its profiles are now (their states, how many still in flight). */
export const getEuiccBatch = endpoint({
  name: 'core/esim/euicc/batch', method: 'POST', auth: 'session', perm: [Perm.CardEuicc], kind: 'query', tag,
  summary: { zh: 'Profile 批量状态变更的进度与结果', en: 'Progress and outcome of a profile state-change batch' },
  body: Obj({ batchId: Type.String({ maxLength: 36 }) }),
  response: Type.Object({
    batchId: Type.String(),
    /** EuiccAction */
    action: Type.Integer(),
    /** BatchState (validated, running, done, cancelled) */
    state: Type.Integer(),
    total: Type.Integer(),
    valid: Type.Integer(),
    invalid: Type.Integer(),
    already: Type.Integer(),
    /** items whose operation was placed with the SM-DP+ */
    succeeded: Type.Integer(),
    /** items refused when the batch ran (the profile changed since the check), with the reason on the item */
    failed: Type.Integer(),
    processed: Type.Integer(),
    /** placed profiles still waiting for the SM-DP+ */
    inFlight: Type.Integer(),
    /** the placed profiles by their state now */
    states: Type.Array(Type.Object({ state: Type.Integer(), count: Type.Integer() })),
    createdAt: Type.String(),
    finishedAt: Nullable(Type.String()),
  }),
});

export const assignEid = endpoint({
  name: 'core/esim/euicc/assignEid', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  summary: { zh: '为 Profile 分配 EID', en: 'Assign an EID to a profile' },
  body: Obj({ iccid: Iccid, eid: Eid }),
  response: EuiccProfile,
});

export const batchAssignEid = endpoint({
  name: 'core/esim/euicc/batchAssignEid', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  summary: { zh: '批量分配 EID（全部成功或全部不变）', en: 'Batch assign EIDs (all or nothing)' },
  body: Obj({ pairs: Type.Array(Obj({ iccid: Iccid, eid: Eid }), { minItems: 1, maxItems: EUICC_REQUEST_MAX }) }),
  response: Type.Object({ assigned: Type.Integer() }),
});

export const ImportRow = Obj({
  eid: Type.Optional(Eid),
  /** a profile ICCID; with an EID the profile is imported bound to that eUICC */
  iccid: Type.Optional(Iccid),
  operatorId: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  smdpAddress: Type.Optional(Type.String({ maxLength: 128 })),
});

export const batchInsert = endpoint({
  name: 'core/esim/euicc/batchInsert', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  summary: { zh: '批量导入 eUICC 与 Profile（全部成功或全部不变）', en: 'Batch insert eUICCs and profiles (all or nothing)' },
  body: Obj({
    rows: Type.Array(ImportRow, { minItems: 1, maxItems: EUICC_REQUEST_MAX }),
    /** staff import for a customer (required for staff); a customer imports for itself */
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
  response: Type.Object({ euiccs: Type.Integer(), profiles: Type.Integer() }),
});

/** The import file (xlsx, csv or txt): one row per eUICC, profile, or profile bound to an eUICC. */
export const EUICC_IMPORT_COLUMNS = [
  { key: 'eid', zh: 'EID', en: 'EID', example: '89049032000000000000000000000001' },
  { key: 'iccid', zh: 'Profile ICCID', en: 'Profile ICCID', example: '89860000000000000001' },
  { key: 'operator', zh: '运营商', en: 'Operator', example: '中国移动' },
  { key: 'smdpAddress', zh: 'SM-DP+ 地址', en: 'SM-DP+ address', example: '' },
] as const;
export const EUICC_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const EUICC_IMPORT_ERRORS_LISTED = 500;

export const importEuiccFile = endpoint({
  name: 'core/esim/euicc/importFile', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  multipart: { file: 'file', maxBytes: EUICC_IMPORT_MAX_BYTES },
  summary: {
    zh: '导入 eUICC 与 Profile 文件（字段 file，xlsx、csv 或 txt）：全部行正确才导入，否则逐行列出错误且不导入任何数据',
    en: 'Import an eUICC and profile file (field file, xlsx, csv or txt): all rows or nothing; wrong rows are listed and nothing is stored',
  },
  /** staff name the customer (custId); a customer imports for itself */
  body: Obj({ custId: Type.Optional(Type.String({ maxLength: 12 })), remark: Type.Optional(Type.String({ maxLength: 64 })) }),
  /** a file with wrong rows is refused with 21362, its `data` being { errors: { row, iccid, eid, column, reason }[] (at most 500), errorCount } */
  response: Type.Object({ euiccs: Type.Integer(), profiles: Type.Integer() }),
});

export const downloadEuiccTemplate = endpoint({
  name: 'core/esim/euicc/template', method: 'GET', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'query', tag, raw: true,
  summary: { zh: '下载 eUICC 导入模板（xlsx 或 csv，中文或英文表头）', en: 'Download the eUICC import template (xlsx or csv, Chinese or English headers)' },
  body: Obj({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])), templateLang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])) }),
  response: Type.Null(),
});

export const QrCode = Type.Object({
  iccid: Type.String(),
  activationCode: Type.String(),
  /** PNG as a data URL; the QR encodes the activation code (never the ICCID) */
  png: Type.String(),
});

/** Issues activation codes (releases the profiles at the SM-DP+) and answers their QR codes. */
export const activationQrCodes = endpoint({
  name: 'core/esim/euicc/activationCode', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  summary: { zh: '生成激活码二维码', en: 'Activation code QR codes' },
  body: Obj({ iccids: Type.Array(Iccid, { minItems: 1, maxItems: 100 }) }),
  response: Type.Object({
    codes: Type.Array(QrCode),
    /** profiles skipped with the reason (invalidated, retired or frozen card; start-state card; no activation code) */
    skipped: Type.Array(CheckRow),
  }),
});

export const euiccCustomers = endpoint({
  name: 'core/esim/euicc/customers', method: 'POST', auth: 'session', perm: [Perm.CardEuicc], kind: 'query', tag,
  summary: { zh: '可导入 eUICC 的客户', en: 'Customers eUICCs can be imported for' },
  body: Obj({}),
  response: Type.Array(Type.Object({ custId: Type.Integer(), name: Type.String() })),
});
