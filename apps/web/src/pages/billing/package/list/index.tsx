import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { RetailTab } from '../retail/RetailTab.tsx';
import { planPaths } from '../shared.tsx';
import { PlanTab } from './PlanTab.tsx';

const TABS = ['basic', 'supplementary', 'retail'] as const;
type TabKey = (typeof TABS)[number];

/** /billing/package/list/:tab?: basic plans, supplementary packs and retail plans (the retail tab is the retail area's). */
export default function PackageList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab } = useParams();
  const active: TabKey = TABS.includes(tab as TabKey) ? (tab as TabKey) : 'basic';
  return (
    <div className="lx-card">
      <Tabs
        activeKey={active}
        onChange={(k) => navigate(planPaths.list(k as TabKey))}
        destroyOnHidden
        items={[
          { key: 'basic', label: t('plan.tabs.basic'), children: <PlanTab category="basic" /> },
          { key: 'supplementary', label: t('plan.tabs.supplementary'), children: <PlanTab category="supplementary" /> },
          // retail plans: the retail area's component (pages/billing/package/retail/RetailTab.tsx)
          { key: 'retail', label: t('plan.tabs.retail'), children: <RetailTab /> },
        ]}
      />
    </div>
  );
}
