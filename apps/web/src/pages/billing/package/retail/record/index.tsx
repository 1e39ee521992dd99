import { Button, Space, Tag, Typography } from 'antd';
import { ArrowRightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatDateTime, retail, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../../request/http.ts';
import { SearchTable } from '../../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../../components/useSearchTable.ts';
import { retailPaths } from '../shared.tsx';
import { formatRecordValue } from './format.ts';
import { usePageTitle } from '../../../../../layout/pageTitle.ts';

type RecordRow = ResponseOf<typeof retail.getRetailChangeRecord>['list'][number];
const ACTION_COLORS: Record<number, string> = {
  [retail.RetailRecordAction.Create]: 'green', [retail.RetailRecordAction.Update]: 'blue', [retail.RetailRecordAction.Copy]: 'purple',
};

/** /billing/package/retailrecord/:retailId: every change of a retail plan, field by field, with who and when. */
export default function RetailRecordPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const retailId = Number(useParams().retailId);
  const navigate = useNavigate();
  const table = useSearchTable(retail.getRetailChangeRecord, { fixed: { retailId } });
  const plan = useQuery({
    queryKey: [retail.getRetailDetail.name, { retailId }],
    queryFn: ({ signal }) => call(retail.getRetailDetail, { retailId }, { signal, silent: true }),
  });
  usePageTitle(plan.data?.retailName);
  const f = (k: string) => (i18n.exists(`retail.fields.${k}`) ? t(`retail.fields.${k}`) : k);
  const title = plan.data ? t('retail.recordsOf', { name: plan.data.retailName }) : t('retail.records');
  return (
    <SearchTable<RecordRow>
      table={table}
      title={title}
      rowKey="recordId"
      toolbar={plan.data && (
        <Button onClick={() => navigate(retailPaths.detail(plan.data!))}>{t('retail.detail')}</Button>
      )}
      columns={[
        { title: withZoneLabel(t('retail.recordTime')), dataIndex: 'createdAt', width: 180, render: (v: string) => formatDateTime(v) },
        { title: t('retail.recordOperator'), key: 'who', width: 200, render: (_: unknown, r) => (lang === 'zh' ? `${r.userName}（${r.loginName}）` : `${r.userName} (${r.loginName})`) },
        {
          title: t('retail.recordAction'), dataIndex: 'action', width: 120,
          render: (v: number) => <Tag color={ACTION_COLORS[v]}>{retail.RetailRecordAction.label(v, lang)}</Tag>,
        },
        {
          title: t('retail.recordChanges'), key: 'changes',
          render: (_: unknown, r) =>
            r.changes.length ? (
              <Space direction="vertical" size={2}>
                {r.changes.map((c) => (
                  <span key={c.field}>
                    <Typography.Text type="secondary">{f(c.field)}{lang === 'zh' ? '：' : ': '}</Typography.Text>
                    {r.action === retail.RetailRecordAction.Update && (
                      <>
                        <Typography.Text delete>{formatRecordValue(c.field, c.before, lang)}</Typography.Text>
                        <ArrowRightOutlined style={{ margin: '0 6px', fontSize: 11 }} />
                      </>
                    )}
                    <Typography.Text strong>{formatRecordValue(c.field, c.after, lang)}</Typography.Text>
                  </span>
                ))}
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('retail.noChanges')}</Typography.Text>
            ),
        },
      ]}
    />
  );
}
