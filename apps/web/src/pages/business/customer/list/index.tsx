import { CustomerList } from '../../../home/customer/CustomerList.tsx';

/** /business/customer/list (and the /shortcuts/customer alias): the enterprise customers with their balances. */
export default function BusinessCustomerList() {
  return <CustomerList variant="business" />;
}
