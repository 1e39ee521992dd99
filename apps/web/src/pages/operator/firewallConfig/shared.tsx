import { useQuery } from '@tanstack/react-query';
import { FirewallAction, FirewallPolicyStatus, netconfig, type AddressScope, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type PolicyRow = ResponseOf<typeof netconfig.getFirewallPolicyPage>['list'][number];
export type AddressRow = ResponseOf<typeof netconfig.getFirewallAddressPage>['list'][number];

export const FIREWALL_LIST_PATH = '/operator/firewallConfig/list';
export const P = netconfig.NetconfigPerm;

export const ACTION_COLORS = { [FirewallAction.Permit]: 'success', [FirewallAction.Deny]: 'error' };
export const POLICY_STATUS_COLORS = { [FirewallPolicyStatus.Enabled]: 'success', [FirewallPolicyStatus.Disabled]: 'default' };

/** A whole address book (at most 500 entries) for the policy form's pickers. */
export function useAddressBook(scope: AddressScope) {
  return useQuery({
    queryKey: [netconfig.getFirewallAddressPage.name, { addressScope: scope, pageSize: 500 }],
    queryFn: ({ signal }) => call(netconfig.getFirewallAddressPage, { addressScope: scope, pageSize: 500, sortField: 'addressName', sortOrder: 'ascend' }, { signal }),
  });
}
