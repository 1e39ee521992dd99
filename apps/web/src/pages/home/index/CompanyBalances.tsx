import { Alert, Button, Skeleton, Space, Typography } from 'antd';
import { DollarOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { capital, Perm } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { BalanceStats } from '../../business/capital/shared.tsx';

/**
 * The home overview's company balances (busCenter/home/companyInfo): the signed-in customer's pre-deposit, grants,
 * credit and available balance, linking to its capital detail. Staff have no company: nothing is shown.
 */
export function CompanyBalances() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canCapital = usePerm(Perm.BusinessCapital);
  const canTile = usePerm(Perm.HomeTileCapital);
  const q = useQuery({
    queryKey: [capital.getCompanyInfo.name],
    queryFn: ({ signal }) => call(capital.getCompanyInfo, {}, { signal, silent: true }),
  });
  if (!q.isLoading && !q.isError && !q.data) return null;
  const detailPath = canCapital ? '/business/capital/detail/info' : canTile ? '/shortcuts/capital/detail/info' : null;
  return (
    <div className="lx-card" data-testid="home-company-balances">
      <div style={{ display: 'flex', alignItems: 'center', marginBottom: 12, gap: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          <Space><DollarOutlined />{t('money.company.title')}{q.data ? <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>{q.data.custName}</Typography.Text> : null}</Space>
        </Typography.Title>
        {detailPath && (
          <Button type="link" size="small" style={{ marginLeft: 'auto' }} onClick={() => navigate(detailPath)} data-testid="home-company-detail">
            {t('money.company.viewDetail')} <RightOutlined />
          </Button>
        )}
      </div>
      {q.isLoading && <Skeleton active paragraph={{ rows: 1 }} />}
      {q.isError && <Alert type="warning" showIcon title={t('money.company.error')} />}
      {q.data && <BalanceStats b={q.data} keys={['preDeposit', 'grants', 'credit', 'available']} testId="home-balance" />}
    </div>
  );
}
