import { create } from 'zustand';
import { encryptCodes, decryptCodes } from './cipher.ts';
import { KEYS } from './keys.ts';

export { KEYS } from './keys.ts';

export interface SessionData {
  accessToken: string;
  roleId: number;
  loginName: string;
  userName: string;
  channelCustId: number | null;
  custId: number | null;
  permissions: number[];
  mustResetPassword: boolean;
}

interface SessionState {
  token: string | null;
  roleId: number | null;
  loginName: string | null;
  userName: string | null;
  channelCustId: number | null;
  custId: number | null;
  permissions: ReadonlySet<number>;
  mustResetPassword: boolean;
  /** why the session ended (e.g. 20003), so the shell sends the user to the login page with it */
  endedBecause: number | null;
  signIn(data: SessionData): void;
  clear(reason?: number): void;
  setMustReset(v: boolean): void;
}

const num = (v: string | null) => (v == null || v === '' ? null : Number(v));

function readStored() {
  const token = localStorage.getItem(KEYS.token);
  const stored = localStorage.getItem(KEYS.perms);
  const codes = token && stored ? decryptCodes(stored, token) : null;
  return {
    token,
    roleId: num(localStorage.getItem(KEYS.roleId)),
    loginName: localStorage.getItem(KEYS.loginName),
    userName: localStorage.getItem(KEYS.userName),
    channelCustId: num(localStorage.getItem(KEYS.channelCustId)),
    custId: num(localStorage.getItem(KEYS.custId)),
    permissions: new Set(codes ?? []),
    mustResetPassword: localStorage.getItem(KEYS.mustReset) === '1',
  };
}

export const useSession = create<SessionState>((set) => ({
  ...readStored(),
  endedBecause: null,
  signIn(d) {
    localStorage.setItem(KEYS.token, d.accessToken);
    localStorage.setItem(KEYS.roleId, String(d.roleId));
    localStorage.setItem(KEYS.loginName, d.loginName);
    localStorage.setItem(KEYS.userName, d.userName);
    localStorage.setItem(KEYS.channelCustId, d.channelCustId == null ? '' : String(d.channelCustId));
    localStorage.setItem(KEYS.custId, d.custId == null ? '' : String(d.custId));
    localStorage.setItem(KEYS.perms, encryptCodes(d.permissions, d.accessToken));
    localStorage.setItem(KEYS.mustReset, d.mustResetPassword ? '1' : '0');
    set({ ...readStored(), endedBecause: null });
  },
  clear(reason) {
    Object.values(KEYS).forEach((k) => localStorage.removeItem(k));
    set({ ...readStored(), endedBecause: reason ?? null });
  },
  setMustReset(v) {
    localStorage.setItem(KEYS.mustReset, v ? '1' : '0');
    set({ mustResetPassword: v });
  },
}));

/** Spec §4: logged in when token, role id and login name are all present. */
export const isLoggedIn = (s: Pick<SessionState, 'token' | 'roleId' | 'loginName'>) => !!(s.token && s.roleId && s.loginName);

export const hasPerm = (code: number | undefined) => code === undefined || useSession.getState().permissions.has(code);
