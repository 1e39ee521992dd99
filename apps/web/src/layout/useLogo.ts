import { useQuery } from '@tanstack/react-query';
import { account, RoleType } from '@lynx/contract';
import { call } from '../request/http.ts';
import { useSession } from '../stores/session.ts';
import { LAST_LOGO_CUST as LAST_CUST } from '../stores/keys.ts';

/** Whose logo to show: a second-level customer uses its own customer's (spec §6), others their channel customer's. */
function logoCustId(s: { roleId: number | null; custId: number | null; channelCustId: number | null; token: string | null }): number | null {
  // the login page remembers whose logo it showed last on this browser
  if (!s.token) return Number(localStorage.getItem(LAST_CUST)) || null;
  const id = s.roleId === RoleType.SubCustomer ? s.custId : (s.channelCustId ?? s.custId);
  localStorage.setItem(LAST_CUST, id == null ? '' : String(id));
  return id;
}

/**
 * The public settings call (logo and business time zone), made before login too. The console makes it once at
 * start (main.tsx, to learn the zone before it shows a time); the login page and the side menu read the same cache.
 */
export function logoQuery(id: number | null) {
  return {
    queryKey: [account.getLogoByCustId.name, id],
    queryFn: () => call(account.getLogoByCustId, { custId: id }, { silent: true }),
    staleTime: 60_000,
  };
}

/** The logo query's customer for the session as it is now (outside React). */
export const currentLogoCustId = (): number | null => logoCustId(useSession.getState());

/** The logo to show. */
export function useLogo() {
  const roleId = useSession((s) => s.roleId);
  const custId = useSession((s) => s.custId);
  const channelCustId = useSession((s) => s.channelCustId);
  const token = useSession((s) => s.token);
  const id = logoCustId({ roleId, custId, channelCustId, token });
  return useQuery(logoQuery(id)).data?.logoUrl ?? null;
}
