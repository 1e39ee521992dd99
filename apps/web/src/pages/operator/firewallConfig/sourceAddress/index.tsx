import { AddressBook } from '../AddressBook.tsx';

/** /operator/firewallConfig/sourceAddress: the source address book (addressScope srcaddr). */
export default function SourceAddressPage() {
  return <AddressBook scope="srcaddr" />;
}
