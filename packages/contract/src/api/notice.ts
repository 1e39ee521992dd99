import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, Nothing, Nullable } from './endpoint.ts';
import { Perm } from '../permissions.ts';

const tag = 'notice';

export const Notification = Type.Object({
  id: Type.Integer(),
  content: Type.String(),
  englishContent: Type.String(),
  sendMode: Type.Integer(),
  sendTime: Type.String(),
  endDate: Type.String(),
  state: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const Fields = {
  content: Type.String({ minLength: 1, maxLength: 500 }),
  englishContent: Type.String({ minLength: 1, maxLength: 1000 }),
  sendMode: Type.Integer({ minimum: 1, maximum: 2 }),
  sendTime: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.String({ format: 'date-time' }),
};

export const getNotificationListPage = endpoint({
  name: 'shortcuts/notification/getListPage', method: 'POST', auth: 'session', perm: [Perm.Notification], kind: 'query', tag,
  summary: { zh: '公告列表', en: 'Announcements' },
  body: Obj({ ...PageParams, keyword: Type.Optional(Type.String({ maxLength: 100 })), state: Type.Optional(Type.Integer()) }),
  response: Page(Notification),
});

export const saveNotification = endpoint({
  name: 'shortcuts/notification/save', method: 'POST', auth: 'session', perm: [Perm.Notification], kind: 'mutation', tag,
  summary: { zh: '新增公告（立即或定时发送）', en: 'Add an announcement (immediate or timed)' },
  body: Obj(Fields), response: Type.Object({ id: Type.Integer() }),
});

export const updateNotification = endpoint({
  name: 'shortcuts/notification/update', method: 'POST', auth: 'session', perm: [Perm.Notification], kind: 'mutation', tag,
  summary: { zh: '修改公告', en: 'Update an announcement' },
  body: Obj({ id: Type.Integer(), ...Fields }), response: Nothing,
});

export const deleteNotification = endpoint({
  name: 'shortcuts/notification/delete', method: 'POST', auth: 'session', perm: [Perm.Notification], kind: 'mutation', tag,
  summary: { zh: '删除公告', en: 'Delete an announcement' },
  body: Obj({ id: Type.Integer() }), response: Nothing,
});

export const getNewestNotification = endpoint({
  name: 'shortcuts/notification/newest', method: 'POST', auth: 'session', perm: null, kind: 'query', tag,
  summary: { zh: '当前公告（结束日期在未来的最新一条）', en: 'Current announcement (the newest whose end date is in the future)' },
  body: Obj({}),
  response: Nullable(Type.Object({ id: Type.Integer(), content: Type.String(), englishContent: Type.String(), endDate: Type.String() })),
});
