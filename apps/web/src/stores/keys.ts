/** Browser storage keys of the session (spec §3). Apart from the store so the boot and the login page read them light. */
export const KEYS = {
  token: 'lx_access_token',
  roleId: 'lx_role_id',
  loginName: 'lx_login_name',
  userName: 'lx_user_name',
  channelCustId: 'lx_channel_cust_id',
  custId: 'lx_cust_id',
  perms: 'lx_auth_codes',
  mustReset: 'lx_must_reset',
} as const;

/** Whose logo the login page showed last on this browser (layout/useLogo.ts writes it once signed in). */
export const LAST_LOGO_CUST = 'lx_logo_cust_id';

const read = (k: string): string | null => {
  try {
    return localStorage.getItem(k);
  } catch {
    return null;
  }
};

/** Spec §4, straight from storage: logged in when token, role id and login name are all present. */
export const storedSignedIn = (): boolean => !!(read(KEYS.token) && read(KEYS.roleId) && read(KEYS.loginName));
