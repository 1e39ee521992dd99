import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, SortParams, Nullable, ExportTaskCreated } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { FILE_RULES } from '../validate/upload.ts';

const tag = 'system';
const DateRange = {
  startDate: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.Optional(Type.String({ format: 'date-time' })),
};

export const BehaviorLog = Type.Object({
  id: Type.Integer(),
  loginName: Type.String(),
  action: Type.Integer(),
  target: Nullable(Type.String()),
  detail: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  createdAt: Type.String(),
});

export const getBehaviorLogListPage = endpoint({
  name: 'core/account/operationLog/getListPage', method: 'POST', auth: 'session', perm: [Perm.SystemUserBehavior],
  kind: 'query', tag, summary: { zh: '用户行为日志', en: 'User behaviour log' },
  body: Obj({ ...PageParams, ...SortParams, ...DateRange, loginName: Type.Optional(Type.String({ maxLength: 64 })), action: Type.Optional(Type.Integer()) }),
  response: Page(BehaviorLog),
});

export const ApiLog = Type.Object({
  id: Type.String(),
  loginName: Nullable(Type.String()),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  errorCode: Nullable(Type.Integer()),
  durationMs: Type.Number(),
  ip: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  createdAt: Type.String(),
});

export const getApiLogListPage = endpoint({
  name: 'system/apiLog/getListPage', method: 'POST', auth: 'session', perm: [Perm.SystemApiLog],
  kind: 'query', tag, summary: { zh: 'API 请求日志', en: 'API request log' },
  body: Obj({
    ...PageParams, ...SortParams, ...DateRange,
    loginName: Type.Optional(Type.String({ maxLength: 64 })),
    path: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(Type.Integer()),
  }),
  response: Page(ApiLog),
});

export const AuditRecord = Type.Object({
  id: Type.String(),
  loginName: Nullable(Type.String()),
  endpoint: Type.String(),
  entity: Type.String(),
  entityId: Nullable(Type.String()),
  before: Type.Unknown(),
  after: Type.Unknown(),
  custId: Nullable(Type.Integer()),
  createdAt: Type.String(),
});

export const getAuditListPage = endpoint({
  name: 'system/audit/getListPage', method: 'POST', auth: 'session', perm: [Perm.SystemUserBehavior],
  kind: 'query', tag, summary: { zh: '操作审计记录（修改前后）', en: 'Audit trail (before and after)' },
  body: Obj({
    ...PageParams, ...DateRange,
    entity: Type.Optional(Type.String({ maxLength: 64 })),
    entityId: Type.Optional(Type.String({ maxLength: 64 })),
    loginName: Type.Optional(Type.String({ maxLength: 64 })),
  }),
  response: Page(AuditRecord),
});

export const DownloadTask = Type.Object({
  taskId: Type.String(),
  /** the title in the caller's language (both are stored when the task is created) */
  taskName: Type.String(),
  /** the filters the list was exported with, in words, in the caller's language ('' = none) */
  filtersText: Type.String(),
  source: Type.String(),
  format: Type.Integer(),
  state: Type.Integer(),
  rowCount: Nullable(Type.Integer()),
  fileSize: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  loginName: Type.String(),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  /** the first time the owner downloaded the file (null: ready but not downloaded yet) */
  downloadedAt: Nullable(Type.String()),
  /** written during the export call and downloaded at once (EXPORT_DIRECT_MAX_ROWS) */
  direct: Type.Boolean(),
});

export const getDownloadTaskListPage = endpoint({
  name: 'core/downloadTask/getListPage', method: 'POST', auth: 'session', perm: null,
  kind: 'query', tag, summary: { zh: '我的下载任务', en: 'My download tasks' },
  body: Obj({ ...PageParams, state: Type.Optional(Type.Integer()) }),
  response: Page(DownloadTask),
});

export const createExportTask = endpoint({
  name: 'core/downloadTask/createExport', method: 'POST', auth: 'session', perm: null, kind: 'mutation', tag,
  summary: {
    zh: '把任一列表按当前筛选条件导出为 xlsx 或 csv：不超过 10,000 行时当即生成（direct，随后下载），更多时作为下载任务在后台生成',
    en: 'Export any list with its current filters to xlsx or csv: up to 10,000 rows it is written at once (direct, download it next), more become a download task written in the background',
  },
  body: Obj({
    source: Type.String({ minLength: 1, maxLength: 200, description: 'the list endpoint name, e.g. core/account/account/getAccountListPage' }),
    filters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    format: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  }),
  response: ExportTaskCreated,
});

export const getDownloadBadge = endpoint({
  name: 'core/downloadTask/getBadge', method: 'POST', auth: 'session', perm: null, kind: 'query', tag,
  summary: {
    zh: '下载任务角标：已完成但未下载的任务数、处理中的任务数，以及最近完成的任务（用于提醒）',
    en: 'Download badge: tasks ready but not downloaded, tasks in process, and the tasks that became ready lately (for the notice)',
  },
  body: Obj({}),
  response: Type.Object({
    ready: Type.Integer({ minimum: 0 }),
    inProcess: Type.Integer({ minimum: 0 }),
    /** tasks of the caller that finished in the last 10 minutes and are not downloaded, newest first (at most 5) */
    recent: Type.Array(Type.Object({ taskId: Type.String(), taskName: Type.String(), state: Type.Integer(), finishedAt: Type.String() })),
  }),
});

/** Tasks the badge's notice looks back at: finished within this many minutes. */
export const DOWNLOAD_NOTICE_MINUTES = 10;

export const downloadExportFile = endpoint({
  name: 'core/downloadTask/download', method: 'GET', auth: 'session', perm: null, kind: 'query', tag, raw: true,
  summary: { zh: '下载导出文件（仅限同一租户；记录首次下载时间）', en: 'Download an export file (same tenant only; records the first download)' },
  body: Obj({ taskId: Type.String({ format: 'uuid' }) }),
  response: Type.Unknown(),
});

export const uploadFile = endpoint({
  name: 'base/file/upload', method: 'POST', auth: 'session', perm: null, kind: 'mutation', tag,
  multipart: { file: 'file', maxBytes: Math.max(FILE_RULES.paymentProof.maxBytes, FILE_RULES.contentImage.maxBytes) },
  summary: {
    zh: '上传文件（字段 file；use=paymentProof 支付凭证 JPG/PNG/GIF 小于 2MB，use=contentImage 内容图片小于 1MB）',
    en: 'Upload a file (field file; use=paymentProof JPG/PNG/GIF under 2 MB, use=contentImage under 1 MB)',
  },
  body: Obj({ use: Type.Union([Type.Literal('paymentProof'), Type.Literal('contentImage')]) }),
  response: Type.Object({ fileId: Type.String(), url: Type.String(), size: Type.Integer(), mimeType: Type.String() }),
});

export const getPublicFile = endpoint({
  name: 'base/file/public', method: 'GET', auth: 'public', perm: null, kind: 'query', tag, raw: true,
  summary: { zh: '公开文件（仅 Logo）', en: 'Public file (logos only)' },
  body: Obj({ fileId: Type.String({ format: 'uuid' }) }),
  response: Type.Unknown(),
});

export const getFile = endpoint({
  name: 'base/file/get', method: 'GET', auth: 'session', perm: null, kind: 'query', tag, raw: true,
  summary: { zh: '下载已上传的文件（仅限同一租户）', en: 'Download an uploaded file (same tenant only)' },
  body: Obj({ fileId: Type.String({ format: 'uuid' }) }),
  response: Type.Unknown(),
});
