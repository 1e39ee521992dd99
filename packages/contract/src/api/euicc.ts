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
};

export const getProfilePage = endpoint({
  name: 'core/esim/euicc/downloadProfileList', method: 'POST', auth: 'session', perm: [Perm.CardEuicc], kind: 'query', tag,
  summary: { zh: 'Profile 列表（可下载的 Profile 与激活码）', en: 'Profiles (the downloadable profiles and their activation codes)' },
  body: Obj({ ...PageParams, ...ProfileFilters }),
  response: Page(EuiccProfile),
});

export const CheckRow = Type.Object({ iccid: Type.String(), ok: Type.Boolean(), reasonZh: Nullable(Type.String()), reasonEn: Nullable(Type.String()) });

/** Validation first: what a state change would do to each profile, changing nothing. */
export const checkProfiles = endpoint({
  name: 'core/esim/euicc/check', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'query', tag,
  summary: { zh: '校验 Profile 状态变更', en: 'Check a profile state change' },
  body: Obj({
    iccids: Type.Array(Iccid, { maxItems: EUICC_REQUEST_MAX }),
    /** EuiccAction */
    action: Type.Integer({ minimum: 1, maximum: 13 }),
  }),
  response: Type.Object({
    total: Type.Integer(),
    valid: Type.Integer(),
    invalid: Type.Integer(),
    /** the ICCIDs that would change */
    validIccids: Type.Array(Type.String()),
    /** the refused ones with the reason (at most 500 shown) */
    refused: Type.Array(CheckRow),
  }),
});

/** Sends the operation for every given profile; all or nothing (any refusal refuses the whole request). */
export const changeProfileState = endpoint({
  name: 'core/esim/euicc/changeState', method: 'POST', auth: 'session', perm: [Perm.CardEuiccNumber], kind: 'mutation', tag,
  summary: { zh: '变更 Profile 状态（下载 / 启用 / 停用 / 删除）', en: 'Change profile state (download / enable / disable / delete)' },
  body: Obj({
    iccids: Type.Array(Iccid, { minItems: 1, maxItems: EUICC_REQUEST_MAX }),
    action: Type.Integer({ minimum: 1, maximum: 13 }),
  }),
  response: Type.Object({ accepted: Type.Integer() }),
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
