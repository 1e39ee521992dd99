import { defineEnum } from './define.ts';

/**
 * eUICC profile states (spec §4), in the spec's order. "enable" and "disable" are the operations in flight (the
 * request went to the SM-DP+, no answer yet), like "downloading". Design note: docs/euicc.md.
 */
export const EuiccProfileState = defineEnum({
  Unbound: { value: 1, zh: '未绑定', en: 'Unbound' },
  Bound: { value: 2, zh: '已绑定', en: 'Bound' },
  Occupied: { value: 3, zh: '已占用', en: 'Occupied' },
  Downloading: { value: 4, zh: '下载中', en: 'Downloading' },
  Downloaded: { value: 5, zh: '已下载', en: 'Downloaded' },
  DownloadFailed: { value: 6, zh: '下载失败', en: 'Download failed' },
  Enable: { value: 7, zh: '启用中', en: 'Enable' },
  Enabled: { value: 8, zh: '已启用', en: 'Enabled' },
  EnableFailed: { value: 9, zh: '启用失败', en: 'Enable failed' },
  Disable: { value: 10, zh: '停用中', en: 'Disable' },
  Disabled: { value: 11, zh: '已停用', en: 'Disabled' },
  DisableFailed: { value: 12, zh: '停用失败', en: 'Disable failed' },
});
export type EuiccProfileStateValue = (typeof EuiccProfileState.values)[number];

/** What moves a profile: a person's action, or the SM-DP+'s answer (ok / error / no answer in time). */
export const EuiccEvent = defineEnum({
  Assign: { value: 1, zh: '分配 EID', en: 'Assign EID' },
  Release: { value: 3, zh: '生成激活码', en: 'Issue activation code' },
  Download: { value: 4, zh: '下载', en: 'Download' },
  DownloadOk: { value: 5, zh: '下载成功', en: 'Download succeeded' },
  DownloadFail: { value: 6, zh: '下载失败', en: 'Download failed' },
  Enable: { value: 7, zh: '启用', en: 'Enable' },
  EnableOk: { value: 8, zh: '启用成功', en: 'Enable succeeded' },
  EnableFail: { value: 9, zh: '启用失败', en: 'Enable failed' },
  Disable: { value: 10, zh: '停用', en: 'Disable' },
  DisableOk: { value: 11, zh: '停用成功', en: 'Disable succeeded' },
  DisableFail: { value: 12, zh: '停用失败', en: 'Disable failed' },
  Delete: { value: 13, zh: '删除', en: 'Delete' },
});
export type EuiccEventValue = (typeof EuiccEvent.values)[number];

const S = EuiccProfileState;
const E = EuiccEvent;

/**
 * The transition table: for each event, the states it may start from and the state it leads to. Anything not in
 * it is refused. Delete returns the profile to the SM-DP+'s stock (unbound, no EID): for a profile not downloaded yet it
 * cancels the order, for one on the eUICC it is the delete notification.
 */
export const EUICC_TRANSITIONS: Readonly<Record<EuiccEventValue, { from: readonly EuiccProfileStateValue[]; to: EuiccProfileStateValue }>> = {
  [E.Assign]: { from: [S.Unbound], to: S.Bound },
  [E.Release]: { from: [S.Bound], to: S.Occupied },
  [E.Download]: { from: [S.Bound, S.Occupied, S.DownloadFailed], to: S.Downloading },
  [E.DownloadOk]: { from: [S.Downloading], to: S.Downloaded },
  [E.DownloadFail]: { from: [S.Downloading], to: S.DownloadFailed },
  [E.Enable]: { from: [S.Downloaded, S.Disabled, S.EnableFailed], to: S.Enable },
  [E.EnableOk]: { from: [S.Enable], to: S.Enabled },
  [E.EnableFail]: { from: [S.Enable], to: S.EnableFailed },
  [E.Disable]: { from: [S.Enabled, S.DisableFailed], to: S.Disable },
  [E.DisableOk]: { from: [S.Disable], to: S.Disabled },
  [E.DisableFail]: { from: [S.Disable], to: S.DisableFailed },
  [E.Delete]: { from: [S.Bound, S.Occupied, S.Downloaded, S.Disabled, S.DownloadFailed, S.EnableFailed], to: S.Unbound },
};

/** The state an event leads to from `state`, or null when the event is not allowed there. */
export function euiccNext(state: number, event: EuiccEventValue): EuiccProfileStateValue | null {
  const t = EUICC_TRANSITIONS[event];
  return t && (t.from as readonly number[]).includes(state) ? t.to : null;
}

/** The states waiting for the SM-DP+'s answer, with the events that end them (ok, failed). */
export const EUICC_PENDING: Readonly<Record<number, { ok: EuiccEventValue; fail: EuiccEventValue }>> = {
  [S.Downloading]: { ok: E.DownloadOk, fail: E.DownloadFail },
  [S.Enable]: { ok: E.EnableOk, fail: E.EnableFail },
  [S.Disable]: { ok: E.DisableOk, fail: E.DisableFail },
};
export const isEuiccPending = (state: number) => state in EUICC_PENDING;
/** A state no answer will move any more (what the benchmark waits for). */
export const isEuiccSettled = (state: number) => !isEuiccPending(state);

/** The operations a person asks for on the eUICC list ("change state"). */
export const EuiccAction = defineEnum({
  Download: { value: E.Download, zh: '下载', en: 'Download' },
  Enable: { value: E.Enable, zh: '启用', en: 'Enable' },
  Disable: { value: E.Disable, zh: '停用', en: 'Disable' },
  Delete: { value: E.Delete, zh: '删除', en: 'Delete' },
});
export type EuiccActionValue = (typeof EuiccAction.values)[number];
