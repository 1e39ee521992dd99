import { useQuery } from '@tanstack/react-query';
import { account, RoleType } from '@lynx/contract';
import { call } from '../request/http.ts';
import { useSession } from '../stores/session.ts';

const LAST_CUST = 'lx_logo_cust_id';

/** The logo to show: a second-level customer uses its own customer's (spec §6), others their channel customer's. */
export function useLogo() {
  const roleId = useSession((s) => s.roleId);
  const custId = useSession((s) => s.custId);
  const channelCustId = useSession((s) => s.channelCustId);
  const loggedIn = useSession((s) => !!s.token);
  // the login page remembers whose logo it showed last on this browser
  const id = loggedIn ? (roleId === RoleType.SubCustomer ? custId : (channelCustId ?? custId)) : Number(localStorage.getItem(LAST_CUST)) || null;
  if (loggedIn) localStorage.setItem(LAST_CUST, id == null ? '' : String(id));
  return useQuery({
    queryKey: [account.getLogoByCustId.name, id],
    queryFn: () => call(account.getLogoByCustId, { custId: id }, { silent: true }),
    staleTime: 60_000,
  }).data?.logoUrl ?? null;
}
