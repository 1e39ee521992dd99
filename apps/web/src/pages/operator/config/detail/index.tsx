import { Button, Space, Typography } from 'antd';
import { ApiOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatDateTime, opconfig, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { useOperatorNames, useOperators } from '../../shared.tsx';
import { LastTest, PERM, SecretMask, adapterLabel, useLang, useTestConnection } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /operator/config/detail/:operAccountId: the access configuration, its masked credentials and the connection test. */
export default function AccessDetail() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const operAccountId = Number(useParams().operAccountId);
  const valid = Number.isInteger(operAccountId) && operAccountId > 0;
  const names = useOperatorNames(useOperators().data, lang);
  const query = useQuery({
    queryKey: [opconfig.getOperatorAccount.name, operAccountId],
    queryFn: () => call(opconfig.getOperatorAccount, { operAccountId }, { silent: true }),
    enabled: valid,
  });
  const test = useTestConnection(() => {
    void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccount.name, operAccountId] });
    void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccountPage.name] });
  });
  const r = query.data;
  usePageTitle(r?.accountName);
  return (
    <DetailPage
      loading={valid && query.isLoading}
      error={!valid || query.error || (query.isSuccess && !r) ? true : undefined}
      title={r?.accountName}
      extra={
        r && (
          <Space>
            <PermButton perm={PERM.accessTest} icon={<ApiOutlined />} loading={test.testing === r.operAccountId} onClick={() => void test.run(r.operAccountId)} data-testid="access-test">
              {t('opconfig.access.test')}
            </PermButton>
            <PermButton perm={PERM.accessEdit} type="primary" icon={<EditOutlined />} onClick={() => void navigate(`/operator/config/edit/${r.operAccountId}`)}>
              {t('common.edit')}
            </PermButton>
            <Button onClick={() => void navigate('/operator/config/list')}>{t('common.back')}</Button>
          </Space>
        )
      }
      items={
        r
          ? [
              { label: t('opconfig.operator'), value: names.get(r.operatorId) ?? r.operatorId },
              { label: t('opconfig.access.accountName'), value: r.accountName },
              { label: t('opconfig.access.apiVersion'), value: r.apiVersion },
              { label: t('opconfig.access.endpointUrl'), value: <Typography.Text copyable>{r.endpointUrl}</Typography.Text> },
              { label: t('opconfig.access.adapter'), value: adapterLabel(r.adapter, lang) },
              { label: t('opconfig.access.appKey'), value: <SecretMask secret={r.credentials.appKey} /> },
              { label: t('opconfig.access.appSecret'), value: <SecretMask secret={r.credentials.appSecret} /> },
              { label: t('opconfig.access.password'), value: <SecretMask secret={r.credentials.password} /> },
              ...(r.adapter === 'simulator'
                ? [
                    { label: t('opconfig.access.simFailureRate'), value: `${r.simFailureRate}%` },
                    { label: t('opconfig.access.simFailIccidPattern'), value: r.simFailIccidPattern ? <Typography.Text code>{r.simFailIccidPattern}</Typography.Text> : '-' },
                  ]
                : []),
              {
                label: t('opconfig.access.lastTest'),
                value: <Space wrap><LastTest row={r} />{r.lastTestMessage && <Typography.Text type="secondary">{r.lastTestMessage}</Typography.Text>}</Space>,
              },
              { label: t('opconfig.access.commPlanCount'), value: r.commPlanCount },
              { label: t('opconfig.access.createdBy'), value: r.createdBy },
              { label: withZoneLabel(t('common.createdAt')), value: formatDateTime(r.createdAt) },
              { label: withZoneLabel(t('common.updatedAt')), value: formatDateTime(r.updatedAt) },
              { label: t('opconfig.access.remark'), value: r.remark || '-' },
            ]
          : []
      }
    />
  );
}
