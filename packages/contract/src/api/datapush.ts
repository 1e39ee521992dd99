import { Type } from '@sinclair/typebox';
import { endpoint, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { defineEnum } from '../enums/define.ts';

/**
 * System › File push (spec §2 /system/dataPush/list, §3 "File push task", §7 "data push config (list, insert, delete by
 * id, open by id with open flag)"; code 14030000; issue 15, docs/data-push.md).
 *
 * A task belongs to one customer and pushes one file a day (at its time, business time zone) to an SFTP server: the
 * customer's cards or their usage of the day before, as CSV. The file is written under a temporary name and renamed
 * when complete. Credentials are write-only: sealed at rest, never answered (only whether one is stored). Every run
 * (scheduled or by hand) is kept with its file name, size in bytes, rows and outcome.
 */
const tag = 'datapush';
const P = Perm.SystemDataPush;

/** What a task pushes. */
export const DataPushFileType = defineEnum({
  /** every card of the customer (with its second-level customers' when it is a first-level customer) */
  CardList: { value: 1, zh: '卡片列表', en: 'Card list' },
  /** each card's usage on the business day before the push */
  DailyUsage: { value: 2, zh: '日用量', en: 'Daily usage' },
});
export type DataPushFileType = (typeof DataPushFileType.values)[number];

export const DataPushAuthType = defineEnum({
  Password: { value: 1, zh: '密码', en: 'Password' },
  PrivateKey: { value: 2, zh: '私钥', en: 'Private key' },
});
export type DataPushAuthType = (typeof DataPushAuthType.values)[number];

/** The task's open flag (spec: "open by id with open flag"). */
export const DataPushOpen = defineEnum({
  Off: { value: 0, zh: '已关闭', en: 'Off' },
  On: { value: 1, zh: '已开启', en: 'On' },
});

export const DataPushTrigger = defineEnum({
  Schedule: { value: 1, zh: '定时', en: 'Scheduled' },
  Manual: { value: 2, zh: '手动', en: 'By hand' },
});

export const DataPushRunState = defineEnum({
  Waiting: { value: 1, zh: '等待中', en: 'Waiting' },
  Running: { value: 2, zh: '推送中', en: 'Pushing' },
  Succeeded: { value: 3, zh: '成功', en: 'Succeeded' },
  Failed: { value: 4, zh: '失败', en: 'Failed' },
});
export type DataPushRunState = (typeof DataPushRunState.values)[number];

export const DATA_PUSH_NAME_MAX = 40;
export const DATA_PUSH_HOST_MAX = 253;
export const DATA_PUSH_PATH_MAX = 255;
export const DATA_PUSH_ACCOUNT_MAX = 64;
export const DATA_PUSH_PASSWORD_MAX = 128;
/** an OpenSSH / PEM private key */
export const DATA_PUSH_KEY_MAX = 16_384;
/** an SSH host key fingerprint as OpenSSH prints it: `SHA256:` and the unpadded base64 of the key's SHA-256 */
export const DATA_PUSH_HOST_KEY_PATTERN = '^SHA256:[A-Za-z0-9+/]{43}$';
/** tries of one run before it is failed (the job retries after 5 s) */
export const DATA_PUSH_MAX_ATTEMPTS = 3;

export const DataPushLastRun = Type.Object({
  runId: Type.Integer(),
  /** DataPushRunState */
  state: Type.Integer(),
  fileName: Nullable(Type.String()),
  at: Type.String(),
});

export const DataPushTaskRow = Type.Object({
  taskId: Type.Integer(),
  custId: Type.Integer(),
  custName: Type.String(),
  taskName: Type.String(),
  /** DataPushFileType */
  fileType: Type.Integer(),
  host: Type.String(),
  port: Type.Integer(),
  account: Type.String(),
  /** DataPushAuthType */
  authType: Type.Integer(),
  /** a password or key is stored (it is never answered) */
  hasSecret: Type.Boolean(),
  remotePath: Type.String(),
  /**
   * the SFTP server's host key the task is pinned to (SHA-256 fingerprint): accepted by the user from "test connection"
   * when saving, or taken by the first push of a task saved without one; a push to a server presenting another key is
   * refused (21052)
   */
  hostKey: Nullable(Type.String()),
  /** HH:mm, business time */
  pushTime: Type.String(),
  /** DataPushOpen */
  open: Type.Integer(),
  lastRun: Nullable(DataPushLastRun),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedBy: Nullable(Type.String()),
  updatedAt: Type.String(),
});

export const getDataPushListPage = endpoint({
  name: 'system/dataPush/getListPage', method: 'POST', auth: 'session', perm: [P], kind: 'query', tag,
  summary: { zh: '文件推送任务列表', en: 'File push tasks' },
  body: Obj({
    ...PageParams,
    taskName: Type.Optional(Type.String({ maxLength: DATA_PUSH_NAME_MAX })),
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    fileType: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
    open: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    host: Type.Optional(Type.String({ maxLength: DATA_PUSH_HOST_MAX })),
  }),
  response: Page(DataPushTaskRow),
});

/** Where to connect and as whom: the fields "test connection" needs too. */
const ConnectionFields = {
  host: Type.String({ minLength: 1, maxLength: DATA_PUSH_HOST_MAX }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  account: Type.String({ minLength: 1, maxLength: DATA_PUSH_ACCOUNT_MAX }),
  /** DataPushAuthType */
  authType: Type.Integer({ minimum: 1, maximum: 2 }),
  /** write-only; on edit, empty keeps the stored one */
  password: Type.Optional(Type.String({ maxLength: DATA_PUSH_PASSWORD_MAX })),
  privateKey: Type.Optional(Type.String({ maxLength: DATA_PUSH_KEY_MAX })),
  passphrase: Type.Optional(Type.String({ maxLength: DATA_PUSH_PASSWORD_MAX })),
  /** an absolute directory on the server, e.g. /upload/cards */
  remotePath: Type.String({ minLength: 1, maxLength: DATA_PUSH_PATH_MAX }),
};

const TaskFields = {
  taskName: Type.String({ minLength: 1, maxLength: DATA_PUSH_NAME_MAX }),
  /** DataPushFileType */
  fileType: Type.Integer({ minimum: 1, maximum: 2 }),
  ...ConnectionFields,
  /** HH:mm, business time */
  pushTime: Type.String({ maxLength: 5 }),
  /**
   * the host key fingerprint "test connection" showed and the user accepts; left out: kept while host and port stay
   * (cleared when they change: the next push then pins the new server's key)
   */
  hostKey: Type.Optional(Type.String({ pattern: DATA_PUSH_HOST_KEY_PATTERN })),
};

/** A task for a customer: staff name one; a customer's user adds for itself (or, first-level, one of its second-level customers). */
export const insertDataPush = endpoint({
  name: 'system/dataPush/insert', method: 'POST', auth: 'session', perm: [P], kind: 'mutation', tag,
  summary: { zh: '新增文件推送任务', en: 'Add a file push task' },
  body: Obj({ custId: Type.Optional(Type.Integer({ minimum: 1 })), ...TaskFields, open: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })) }),
  response: DataPushTaskRow,
});

/** Changes a task (its customer stays); an empty password or key keeps the stored one unless the sign-in kind changes. */
export const updateDataPush = endpoint({
  name: 'system/dataPush/update', method: 'POST', auth: 'session', perm: [P], kind: 'mutation', tag,
  summary: { zh: '编辑文件推送任务', en: 'Edit a file push task' },
  body: Obj({ taskId: Type.Integer({ minimum: 1 }), ...TaskFields }),
  response: DataPushTaskRow,
});

/** Deletes a task; its runs stay readable in the audit trail, waiting runs are given up. */
export const deleteDataPushById = endpoint({
  name: 'system/dataPush/deleteById', method: 'POST', auth: 'session', perm: [P], kind: 'mutation', tag,
  summary: { zh: '删除文件推送任务', en: 'Delete a file push task' },
  body: Obj({ taskId: Type.Integer({ minimum: 1 }) }),
  response: Type.Null(),
});

export const openDataPushById = endpoint({
  name: 'system/dataPush/openById', method: 'POST', auth: 'session', perm: [P], kind: 'mutation', tag,
  summary: { zh: '开启/关闭文件推送任务', en: 'Switch a file push task on or off' },
  body: Obj({ taskId: Type.Integer({ minimum: 1 }), open: Type.Integer({ minimum: 0, maximum: 1 }) }),
  response: DataPushTaskRow,
});

export const DataPushTestResult = Type.Object({
  ok: Type.Boolean(),
  /** what happened, in the request's language: "connected, /upload is writable" or why not */
  message: Type.String(),
  /** the error code of the failure (21042–21051), null when ok */
  errorCode: Nullable(Type.Integer()),
  elapsedMs: Type.Integer(),
  /** the server's host key fingerprint (SHA-256) when the SSH handshake got that far, else null */
  hostKey: Nullable(Type.String()),
  /** the saved task (`taskId`) is pinned to another host key than the server presented now */
  hostKeyChanged: Type.Boolean(),
});

/**
 * Connects with the given fields (a saved task's password or key when `taskId` is given and none is typed), checks the
 * path is a directory and writable (writes and removes a small probe file) and answers the outcome in words, with the
 * server's host key fingerprint to accept (saved with the task, it pins the server). Changes nothing; a failure is an
 * answer (ok false), not an error.
 */
export const testDataPushConnection = endpoint({
  name: 'system/dataPush/testConnection', method: 'POST', auth: 'session', perm: [P], kind: 'query', tag,
  summary: { zh: '测试 SFTP 连接', en: 'Test the SFTP connection' },
  body: Obj({ taskId: Type.Optional(Type.Integer({ minimum: 1 })), ...ConnectionFields }),
  response: DataPushTestResult,
});

export const DataPushRunRow = Type.Object({
  runId: Type.Integer(),
  taskId: Type.Integer(),
  /** DataPushTrigger */
  trigger: Type.Integer(),
  /** the business day of a scheduled run */
  runDay: Nullable(Type.String()),
  /** DataPushRunState */
  state: Type.Integer(),
  fileName: Nullable(Type.String()),
  sizeBytes: Nullable(Type.Integer()),
  rowCount: Nullable(Type.Integer()),
  /** why it failed (or why the last try failed while it is retried), in the request's language */
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  requestedBy: Nullable(Type.String()),
  createdAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
});

/** Pushes the task's file now (a run by hand; one waiting or running push per task at a time: 21050). */
export const pushDataPushNow = endpoint({
  name: 'system/dataPush/pushNow', method: 'POST', auth: 'session', perm: [P], kind: 'mutation', tag,
  summary: { zh: '立即推送', en: 'Push now' },
  body: Obj({ taskId: Type.Integer({ minimum: 1 }) }),
  response: DataPushRunRow,
});

/** A task's runs, newest first. */
export const getDataPushRunPage = endpoint({
  name: 'system/dataPush/getRunPage', method: 'POST', auth: 'session', perm: [P], kind: 'query', tag,
  summary: { zh: '文件推送记录', en: 'File push runs' },
  body: Obj({ ...PageParams, taskId: Type.Integer({ minimum: 1 }) }),
  response: Page(DataPushRunRow),
});
