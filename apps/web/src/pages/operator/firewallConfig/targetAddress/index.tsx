import { AddressBook } from '../AddressBook.tsx';

/** /operator/firewallConfig/targetAddress: the target address book (addressScope dstaddr). */
export default function TargetAddressPage() {
  return <AddressBook scope="dstaddr" />;
}
