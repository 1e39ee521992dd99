import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, SortParams, Nothing, Nullable } from './endpoint.ts';

const tag = 'network';
const OPERATOR_PAGE = 7040000;
const OPERATOR_APN_PAGE = 7050000;
const APN_PAGE = 7010000;
const APN_ADD = 7010001;
const APN_EDIT = 7010002;

export const OperatorRow = Type.Object({
  operatorId: Type.Integer(),
  code: Type.String(),
  nameZh: Type.String(),
  nameEn: Type.String(),
  billingDay: Type.Integer(),
  apnCount: Type.Integer(),
  createdAt: Type.String(),
});

export const getOperatorList = endpoint({
  name: 'network/operators/list', method: 'POST', auth: 'session', perm: [OPERATOR_PAGE, OPERATOR_APN_PAGE, APN_PAGE], kind: 'query', tag,
  summary: { zh: '运营商列表（含账期起始日与 APN 数）', en: 'Operators (billing period start day, number of APNs)' },
  body: Obj({}), response: Type.Array(OperatorRow),
});

export const Apn = Type.Object({
  apnId: Type.Integer(),
  apnName: Type.String(),
  operatorId: Type.Integer(),
  apnType: Type.Integer(),
  ipAllocation: Type.Integer(),
  status: Type.Integer(),
  remark: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const ApnFields = {
  /** an APN network identifier: dot-separated labels of letters, digits and hyphens (3GPP TS 23.003) */
  apnName: Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$' }),
  operatorId: Type.Integer(),
  apnType: Type.Integer({ minimum: 1, maximum: 2 }),
  ipAllocation: Type.Integer({ minimum: 1, maximum: 2 }),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
};

export const getApnListPage = endpoint({
  name: 'network/apn/getListPage', method: 'POST', auth: 'session', perm: [APN_PAGE, OPERATOR_APN_PAGE], kind: 'query', tag,
  summary: { zh: 'APN 列表', en: 'APN list' },
  body: Obj({
    ...PageParams, ...SortParams,
    apnName: Type.Optional(Type.String({ maxLength: 63 })),
    operatorId: Type.Optional(Type.Integer()),
    apnType: Type.Optional(Type.Integer()),
    status: Type.Optional(Type.Integer()),
  }),
  response: Page(Apn),
});

export const saveApn = endpoint({
  name: 'network/apn/save', method: 'POST', auth: 'session', perm: [APN_ADD], kind: 'mutation', tag,
  summary: { zh: '新增 APN（同一运营商下名称唯一）', en: 'Add an APN (names are unique per operator)' },
  body: Obj(ApnFields), response: Type.Object({ apnId: Type.Integer() }),
});

export const updateApn = endpoint({
  name: 'network/apn/update', method: 'POST', auth: 'session', perm: [APN_EDIT], kind: 'mutation', tag,
  summary: { zh: '修改 APN', en: 'Update an APN' },
  body: Obj({ apnId: Type.Integer(), ...Type.Partial(Type.Object(ApnFields)).properties }), response: Nothing,
});
