import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { account, STAFF_ROLE_TYPES } from '@lynx/contract';
import { usePerm } from '../../../components/PermButton.tsx';
import { useSession } from '../../../stores/session.ts';
import { CustomerList } from './CustomerList.tsx';
import { RegisterApplies } from './RegisterApplies.tsx';

/**
 * /home/customer: customer management (staff see every customer, a channel customer its own tree). Operator
 * staff holding the review code (8010002) also get the registration review tab.
 */
export default function CustomerPage() {
  const { t } = useTranslation();
  const roleType = useSession((s) => s.roleId);
  const canReview = usePerm(account.auditRegisterApply.perm) && roleType !== null && STAFF_ROLE_TYPES.includes(roleType);
  if (!canReview) return <CustomerList />;
  return (
    <Tabs
      className="lx-card"
      style={{ paddingTop: 4 }}
      items={[
        { key: 'customers', label: t('home.customer.tabCustomers'), children: <CustomerList /> },
        { key: 'applies', label: t('home.customer.tabApplies'), children: <RegisterApplies /> },
      ]}
    />
  );
}
