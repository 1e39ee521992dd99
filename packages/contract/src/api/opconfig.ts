// Endpoints of the opconfig area (issue 4): operator access configuration, platform configuration,
// communication plans, card change failure records (spec §2 Operator, §7 network/operators group).
import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, SortParams, Nothing, Nullable } from './endpoint.ts';
import { OPERATOR_API_VERSIONS } from '../enums/opconfig.ts';

export * from './opconfig-schemas.ts';

const tag = 'opconfig';
const ACCESS_PAGE = 7060000;
const ACCESS_ADD = 7060001;
const ACCESS_EDIT = 7060002;
const ACCESS_DELETE = 7060003;
const ACCESS_TEST = 7060004;
const COMM_PAGE = 7070000;
const COMM_SAVE = 7070001;
const COMM_DELETE = 7070002;
const FAILURE_PAGE = 7100000;
const FAILURE_ACT = 7100001;
const PLATFORM_PAGE = 7110000;
const PLATFORM_ADD = 7110001;
const PLATFORM_EDIT = 7110002;
const PLATFORM_DELETE = 7110003;
const PLATFORM_STATE = 7110004;

/** A stored secret as it leaves the server: whether one is stored and a mask such as ••••1234, never the value. */
export const MaskedSecret = Type.Object({ hasSecret: Type.Boolean(), mask: Nullable(Type.String()) });

// ---------------------------------------------------------------- access configuration (operatorsAccount)

/** Names of the credential fields of an access configuration (all encrypted at rest). */
export const CREDENTIAL_FIELDS = ['appKey', 'appSecret', 'password'] as const;
export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

export const OperatorAccount = Type.Object({
  operAccountId: Type.Integer(),
  operatorId: Type.Integer(),
  accountName: Type.String(),
  endpointUrl: Type.String(),
  apiVersion: Type.String(),
  adapter: Type.String(),
  credentials: Type.Object({ appKey: MaskedSecret, appSecret: MaskedSecret, password: MaskedSecret }),
  simFailureRate: Type.Integer(),
  simFailIccidPattern: Nullable(Type.String()),
  remark: Nullable(Type.String()),
  lastTestAt: Nullable(Type.String()),
  lastTestOk: Nullable(Type.Boolean()),
  lastTestMessage: Nullable(Type.String()),
  lastTestLatencyMs: Nullable(Type.Integer()),
  commPlanCount: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

/** ICCID patterns of the simulator: digits and hex letters with * (any run) and ? (one character). */
export const ICCID_PATTERN_RE = '^[0-9A-Fa-f*?]{1,22}$';
const secretInput = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const AccessFields = {
  operatorId: Type.Integer(),
  accountName: Type.String({ minLength: 1, maxLength: 64 }),
  endpointUrl: Type.String({ minLength: 1, maxLength: 255 }),
  apiVersion: Type.Union(OPERATOR_API_VERSIONS.map((v) => Type.Literal(v))),
  adapter: Type.String({ minLength: 1, maxLength: 32 }),
  /** empty or missing on edit keeps the stored value */
  appKey: secretInput(128),
  appSecret: secretInput(256),
  password: secretInput(128),
  /** on edit: forget the stored password (the other two are mandatory) */
  clearPassword: Type.Optional(Type.Boolean()),
  /** simulator only: the simulated carrier issues a fresh app key and secret, stored without being shown */
  issueSimulatorCredentials: Type.Optional(Type.Boolean()),
  /** simulator only: share (0-100 %) of card changes the simulated carrier refuses */
  simFailureRate: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  /** simulator only: card changes for ICCIDs matching this pattern are refused */
  simFailIccidPattern: Type.Optional(Type.String({ maxLength: 22 })),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
};

export const getOperatorAccountPage = endpoint({
  name: 'network/operatorsAccount/getListPage', method: 'POST', auth: 'session', perm: [ACCESS_PAGE], kind: 'query', tag,
  summary: { zh: '接入配置列表（凭据仅显示掩码）', en: 'Access configurations (credentials shown masked only)' },
  body: Obj({
    ...PageParams, ...SortParams,
    accountName: Type.Optional(Type.String({ maxLength: 64 })),
    operatorId: Type.Optional(Type.Integer()),
    adapter: Type.Optional(Type.String({ maxLength: 32 })),
  }),
  response: Page(OperatorAccount),
});

export const getOperatorAccount = endpoint({
  name: 'network/operatorsAccount/getById', method: 'POST', auth: 'session', perm: [ACCESS_PAGE], kind: 'query', tag,
  summary: { zh: '接入配置详情', en: 'Access configuration detail' },
  body: Obj({ operAccountId: Type.Integer({ minimum: 1 }) }), response: OperatorAccount,
});

export const OperatorAccountOption = Type.Object({ operAccountId: Type.Integer(), operatorId: Type.Integer(), accountName: Type.String(), adapter: Type.String() });
export const getOperatorAccountOptions = endpoint({
  name: 'network/operatorsAccount/options', method: 'POST', auth: 'session', perm: [ACCESS_PAGE, COMM_PAGE, FAILURE_PAGE], kind: 'query', tag,
  summary: { zh: '接入账号选项（供通信计划与失败记录筛选）', en: 'Operator account options (for communication plans and failure filters)' },
  body: Obj({ operatorId: Type.Optional(Type.Integer()) }), response: Type.Array(OperatorAccountOption),
});

export const saveOperatorAccount = endpoint({
  name: 'network/operatorsAccount/save', method: 'POST', auth: 'session', perm: [ACCESS_ADD], kind: 'mutation', tag,
  summary: { zh: '新增接入配置（凭据加密存储）', en: 'Add an access configuration (credentials encrypted at rest)' },
  body: Obj(AccessFields), response: Type.Object({ operAccountId: Type.Integer() }),
});

export const updateOperatorAccount = endpoint({
  name: 'network/operatorsAccount/update', method: 'POST', auth: 'session', perm: [ACCESS_EDIT], kind: 'mutation', tag,
  summary: { zh: '修改接入配置（未填写的凭据保持不变）', en: 'Update an access configuration (credentials left empty stay as stored)' },
  body: Obj({ operAccountId: Type.Integer({ minimum: 1 }), ...Type.Partial(Type.Object(AccessFields)).properties }), response: Nothing,
});

export const deleteOperatorAccount = endpoint({
  name: 'network/operatorsAccount/delete', method: 'POST', auth: 'session', perm: [ACCESS_DELETE], kind: 'mutation', tag,
  summary: { zh: '删除接入配置（仍被通信计划或未关闭的失败记录使用时拒绝）', en: 'Delete an access configuration (refused while plans or open failure records use it)' },
  body: Obj({ operAccountId: Type.Integer({ minimum: 1 }) }), response: Nothing,
});

export const ConnectionTest = Type.Object({
  ok: Type.Boolean(),
  latencyMs: Type.Integer(),
  message: Type.String(),
  apiVersion: Nullable(Type.String()),
  platform: Nullable(Type.String()),
  testedAt: Type.String(),
});
export const testOperatorAccount = endpoint({
  name: 'network/operatorsAccount/testConnection', method: 'POST', auth: 'session', perm: [ACCESS_TEST], kind: 'mutation', tag,
  summary: { zh: '连接测试：通过网关适配器认证已保存的凭据，并记录结果', en: 'Test connection: authenticates the stored credentials through the gateway adapter and records the result' },
  body: Obj({ operAccountId: Type.Integer({ minimum: 1 }) }), response: ConnectionTest,
});

// ---------------------------------------------------------------- platform configuration (platform)

export const PlatformTypeSummary = Type.Object({ platformType: Type.Integer(), total: Type.Integer(), on: Type.Integer() });
export const getPlatformTypes = endpoint({
  name: 'network/platform/types', method: 'POST', auth: 'session', perm: [PLATFORM_PAGE], kind: 'query', tag,
  summary: { zh: '平台类型列表（含配置数与启用数）', en: 'Platform types (with entry and enabled counts)' },
  body: Obj({}), response: Type.Array(PlatformTypeSummary),
});

const SchemaField = Type.Object({
  key: Type.String(),
  label: Type.Object({ zh: Type.String(), en: Type.String() }),
  type: Type.String(),
  required: Type.Optional(Type.Boolean()),
  maxLength: Type.Optional(Type.Integer()),
  min: Type.Optional(Type.Integer()),
  max: Type.Optional(Type.Integer()),
  pattern: Type.Optional(Type.String()),
  patternHint: Type.Optional(Type.Object({ zh: Type.String(), en: Type.String() })),
  options: Type.Optional(Type.Array(Type.Object({ value: Type.Union([Type.String(), Type.Integer()]), label: Type.Object({ zh: Type.String(), en: Type.String() }) }))),
  defaultValue: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  help: Type.Optional(Type.Object({ zh: Type.String(), en: Type.String() })),
});
export const getPlatformSchema = endpoint({
  name: 'network/platform/schema', method: 'POST', auth: 'session', perm: [PLATFORM_PAGE], kind: 'query', tag,
  summary: { zh: '平台类型的字段定义', en: 'Field schema of a platform type' },
  body: Obj({ platformType: Type.Integer() }),
  response: Type.Object({ platformType: Type.Integer(), description: Type.Object({ zh: Type.String(), en: Type.String() }), fields: Type.Array(SchemaField) }),
});

const FieldValue = Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean(), Type.Null()]);
export const PlatformConfig = Type.Object({
  id: Type.Integer(),
  platformType: Type.Integer(),
  name: Type.String(),
  /** values of the non-secret fields */
  fields: Type.Record(Type.String(), FieldValue),
  /** secret fields: masked */
  secrets: Type.Record(Type.String(), MaskedSecret),
  state: Type.Integer(),
  remark: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const getPlatformPage = endpoint({
  name: 'network/platform/selectPage', method: 'POST', auth: 'session', perm: [PLATFORM_PAGE], kind: 'query', tag,
  summary: { zh: '平台配置列表', en: 'Platform configuration entries' },
  body: Obj({
    ...PageParams, ...SortParams,
    platformType: Type.Optional(Type.Integer()),
    name: Type.Optional(Type.String({ maxLength: 64 })),
    state: Type.Optional(Type.Integer()),
  }),
  response: Page(PlatformConfig),
});

export const getPlatformConfig = endpoint({
  name: 'network/platform/getById', method: 'POST', auth: 'session', perm: [PLATFORM_PAGE], kind: 'query', tag,
  summary: { zh: '平台配置详情', en: 'Platform configuration entry' },
  body: Obj({ id: Type.Integer({ minimum: 1 }) }), response: PlatformConfig,
});

const PlatformFields = {
  name: Type.String({ minLength: 1, maxLength: 64 }),
  /** every field of the type's schema; secret fields left empty on edit keep the stored value */
  fields: Type.Record(Type.String({ maxLength: 64 }), FieldValue),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
};
export const savePlatformConfig = endpoint({
  name: 'network/platform/save', method: 'POST', auth: 'session', perm: [PLATFORM_ADD], kind: 'mutation', tag,
  summary: { zh: '新增平台配置（按类型字段定义校验）', en: 'Add a platform configuration entry (validated against its type schema)' },
  body: Obj({ platformType: Type.Integer(), ...PlatformFields, state: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })) }),
  response: Type.Object({ id: Type.Integer() }),
});

export const updatePlatformConfig = endpoint({
  name: 'network/platform/updateById', method: 'POST', auth: 'session', perm: [PLATFORM_EDIT], kind: 'mutation', tag,
  summary: { zh: '修改平台配置', en: 'Update a platform configuration entry' },
  body: Obj({ id: Type.Integer({ minimum: 1 }), ...PlatformFields }), response: Nothing,
});

export const deletePlatformConfig = endpoint({
  name: 'network/platform/deleteById', method: 'POST', auth: 'session', perm: [PLATFORM_DELETE], kind: 'mutation', tag,
  summary: { zh: '删除平台配置', en: 'Delete a platform configuration entry' },
  body: Obj({ id: Type.Integer({ minimum: 1 }) }), response: Nothing,
});

export const updatePlatformState = endpoint({
  name: 'network/platform/updateState', method: 'POST', auth: 'session', perm: [PLATFORM_STATE], kind: 'mutation', tag,
  summary: { zh: '启用或停用平台配置', en: 'Switch a platform configuration entry on or off' },
  body: Obj({ id: Type.Integer({ minimum: 1 }), state: Type.Integer({ minimum: 1, maximum: 2 }) }), response: Nothing,
});

// ---------------------------------------------------------------- communication plans (commPlan)

export const CommPlan = Type.Object({
  commPlanId: Type.Integer(),
  planName: Type.String(),
  operatorId: Type.Integer(),
  operAccountId: Type.Integer(),
  operAccountName: Type.String(),
  apnIds: Type.Array(Type.Integer()),
  apnNames: Type.Array(Type.String()),
  serviceKinds: Type.Array(Type.Integer()),
  roaming: Type.Boolean(),
  description: Nullable(Type.String()),
  status: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const COMM_PLAN_APN_MAX = 4;
const CommPlanFields = {
  planName: Type.String({ minLength: 1, maxLength: 64 }),
  operatorId: Type.Integer(),
  operAccountId: Type.Integer({ minimum: 1 }),
  apnIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: COMM_PLAN_APN_MAX }),
  serviceKinds: Type.Array(Type.Integer({ minimum: 1, maximum: 3 }), { minItems: 1, maxItems: 3 }),
  roaming: Type.Boolean(),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
};

export const getCommPlanPage = endpoint({
  name: 'network/commPlan/getListPage', method: 'POST', auth: 'session', perm: [COMM_PAGE], kind: 'query', tag,
  summary: { zh: '通信计划列表', en: 'Communication plans' },
  body: Obj({
    ...PageParams, ...SortParams,
    planName: Type.Optional(Type.String({ maxLength: 64 })),
    operatorId: Type.Optional(Type.Integer()),
    operAccountId: Type.Optional(Type.Integer()),
    status: Type.Optional(Type.Integer()),
  }),
  response: Page(CommPlan),
});

export const saveCommPlan = endpoint({
  name: 'network/commPlan/save', method: 'POST', auth: 'session', perm: [COMM_SAVE], kind: 'mutation', tag,
  summary: { zh: '新增通信计划', en: 'Add a communication plan' },
  body: Obj(CommPlanFields), response: Type.Object({ commPlanId: Type.Integer() }),
});

export const updateCommPlan = endpoint({
  name: 'network/commPlan/update', method: 'POST', auth: 'session', perm: [COMM_SAVE], kind: 'mutation', tag,
  summary: { zh: '修改通信计划', en: 'Update a communication plan' },
  body: Obj({ commPlanId: Type.Integer({ minimum: 1 }), ...Type.Partial(Type.Object(CommPlanFields)).properties }), response: Nothing,
});

export const deleteCommPlan = endpoint({
  name: 'network/commPlan/delete', method: 'POST', auth: 'session', perm: [COMM_DELETE], kind: 'mutation', tag,
  summary: { zh: '删除通信计划', en: 'Delete a communication plan' },
  body: Obj({ commPlanId: Type.Integer({ minimum: 1 }) }), response: Nothing,
});

// ---------------------------------------------------------------- card change failures (cardChangeFailure)

export const CardChangeAttempt = Type.Object({
  attemptNo: Type.Integer(),
  ok: Type.Boolean(),
  message: Type.String(),
  latencyMs: Nullable(Type.Integer()),
  triggeredBy: Nullable(Type.String()),
  attemptedAt: Type.String(),
});

export const CardChangeFailure = Type.Object({
  failureId: Type.Integer(),
  msisdn: Type.String(),
  iccid: Type.String(),
  operatorId: Type.Integer(),
  operAccountId: Nullable(Type.Integer()),
  operAccountName: Nullable(Type.String()),
  changeType: Type.Integer(),
  /** what was asked of the operator, e.g. { targetState: 65 } or { planCode: 'P-1G' } */
  request: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
  failureCode: Type.String(),
  failureReason: Type.String(),
  attempts: Type.Integer(),
  state: Type.Integer(),
  remark: Nullable(Type.String()),
  handledBy: Nullable(Type.String()),
  handledAt: Nullable(Type.String()),
  lastAttemptAt: Type.String(),
  createdAt: Type.String(),
});

export const getCardChangeFailurePage = endpoint({
  name: 'network/cardChangeFailure/getListPage', method: 'POST', auth: 'session', perm: [FAILURE_PAGE], kind: 'query', tag,
  summary: { zh: '换卡失败记录（运营商网关拒绝的卡变更）', en: 'Card change failures (card changes the operator gateway refused)' },
  body: Obj({
    ...PageParams, ...SortParams,
    msisdn: Type.Optional(Type.String({ maxLength: 20 })),
    iccid: Type.Optional(Type.String({ maxLength: 22 })),
    operatorId: Type.Optional(Type.Integer()),
    changeType: Type.Optional(Type.Integer()),
    state: Type.Optional(Type.Integer()),
    startDate: Type.Optional(Type.String({ format: 'date-time' })),
    endDate: Type.Optional(Type.String({ format: 'date-time' })),
  }),
  response: Page(CardChangeFailure),
});

export const getCardChangeFailuresByMsisdn = endpoint({
  name: 'network/cardChangeFailure/record', method: 'POST', auth: 'session', perm: [FAILURE_PAGE], kind: 'query', tag,
  summary: { zh: '某号码的换卡失败记录及每次尝试', en: 'Card change failures of one MSISDN with every attempt' },
  body: Obj({ msisdn: Type.String({ minLength: 1, maxLength: 20 }) }),
  response: Type.Array(Type.Object({ ...CardChangeFailure.properties, attemptList: Type.Array(CardChangeAttempt) })),
});

export const handleCardChangeFailure = endpoint({
  name: 'network/cardChangeFailure/handled', method: 'POST', auth: 'session', perm: [FAILURE_ACT], kind: 'mutation', tag,
  summary: { zh: '标记为已处理（需填写处理说明）', en: 'Mark handled (with a remark)' },
  body: Obj({ failureId: Type.Integer({ minimum: 1 }), remark: Type.String({ minLength: 1, maxLength: 500 }) }), response: Nothing,
});

export const retryCardChangeFailure = endpoint({
  name: 'network/cardChangeFailure/retry', method: 'POST', auth: 'session', perm: [FAILURE_ACT], kind: 'mutation', tag,
  summary: { zh: '通过所属接入配置重新向运营商发起变更', en: 'Send the change to the operator again through its access configuration' },
  body: Obj({ failureId: Type.Integer({ minimum: 1 }) }),
  response: Type.Object({ ok: Type.Boolean(), state: Type.Integer(), message: Type.String() }),
});
