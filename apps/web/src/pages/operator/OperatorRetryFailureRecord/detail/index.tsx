import { useState } from 'react';
import { Button, Descriptions, Popconfirm, Result, Skeleton, Space, Tag, Timeline, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { CardChangeFailureState, CardChangeType, formatDateTime, opconfig, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { useOperatorNames, useOperators } from '../../shared.tsx';
import { PERM, useLang } from '../../config/shared.tsx';
import { FAILURE_STATE_COLORS, HandleModal, RequestSummary, isOpen, useFailureActions } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /operator/OperatorRetryFailureRecord/detail/:msisdn: every failure record of the number with each attempt. */
export default function FailureDetail() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const msisdn = useParams().msisdn ?? '';
  const names = useOperatorNames(useOperators().data, lang);
  const canAct = usePerm(PERM.failureAct);
  const actions = useFailureActions();
  const [handling, setHandling] = useState<number | null>(null);
  const query = useQuery({
    queryKey: [opconfig.getCardChangeFailuresByMsisdn.name, msisdn],
    queryFn: () => call(opconfig.getCardChangeFailuresByMsisdn, { msisdn }, { silent: true }),
    enabled: msisdn.length > 0,
  });
  usePageTitle(query.data?.length ? msisdn : null);

  if (query.isLoading) return <div className="lx-card"><Skeleton active /></div>;
  if (!msisdn || query.isError || !query.data?.length) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;

  return (
    <>
      <div className="lx-card">
        <Space>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate('../../list', { relative: 'path' })} aria-label={t('common.back')} />
          <Typography.Title level={5} style={{ margin: 0 }}>{t('opconfig.failure.detailTitle', { msisdn })}</Typography.Title>
        </Space>
      </div>
      {query.data.map((r) => (
        <div className="lx-card" key={r.failureId}>
          <Descriptions
            bordered size="small" column={{ xs: 1, md: 2, xl: 3 }}
            title={<Space><StatusTag enumOf={CardChangeType} value={r.changeType} /><StatusTag enumOf={CardChangeFailureState} value={r.state} colors={FAILURE_STATE_COLORS} /></Space>}
            extra={
              canAct && isOpen(r.state) && (
                <Space>
                  <Popconfirm title={t('opconfig.failure.retryConfirm')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => actions.retry(r.failureId)}>
                    <Button type="primary" loading={actions.busy === r.failureId} data-testid="failure-retry">{t('opconfig.failure.retry')}</Button>
                  </Popconfirm>
                  <Button onClick={() => setHandling(r.failureId)} data-testid="failure-handle">{t('opconfig.failure.handle')}</Button>
                </Space>
              )
            }
            items={[
              { key: 'iccid', label: t('opconfig.failure.iccid'), children: <Typography.Text code>{r.iccid}</Typography.Text> },
              { key: 'op', label: t('opconfig.operator'), children: names.get(r.operatorId) ?? r.operatorId },
              { key: 'acc', label: t('opconfig.failure.operAccount'), children: r.operAccountName ?? t('opconfig.failure.accountGone') },
              { key: 'req', label: t('opconfig.failure.request'), children: <RequestSummary request={r.request} lang={lang} /> },
              { key: 'att', label: t('opconfig.failure.attempts'), children: r.attempts },
              { key: 'last', label: withZoneLabel(t('opconfig.failure.lastAttemptAt')), children: formatDateTime(r.lastAttemptAt) },
              { key: 'reason', label: t('opconfig.failure.failureReason'), children: `${r.failureCode}: ${r.failureReason}`, span: 'filled' as const },
              { key: 'created', label: withZoneLabel(t('opconfig.failure.createdAt')), children: formatDateTime(r.createdAt) },
              { key: 'by', label: t('opconfig.failure.handledBy'), children: r.handledBy ?? '-' },
              { key: 'at', label: withZoneLabel(t('opconfig.failure.handledAt')), children: r.handledAt ? formatDateTime(r.handledAt) : '-' },
              { key: 'remark', label: t('opconfig.failure.remark'), children: r.remark ?? '-', span: 'filled' as const },
            ]}
          />
          <Typography.Title level={5}>{t('opconfig.failure.attemptList')}</Typography.Title>
          <Timeline
            items={r.attemptList.map((a) => ({
              key: a.attemptNo,
              color: a.ok ? 'green' : 'red',
              content: (
                <Space orientation="vertical" size={0}>
                  <Space wrap>
                    <Typography.Text strong>{t('opconfig.failure.attemptNo', { n: a.attemptNo })}</Typography.Text>
                    <Tag color={a.ok ? 'success' : 'error'}>{a.ok ? t('opconfig.failure.attemptOk') : t('opconfig.failure.attemptFailed')}</Tag>
                    <Typography.Text type="secondary">{formatDateTime(a.attemptedAt)} · {a.triggeredBy ?? t('opconfig.failure.system')}{a.latencyMs != null ? ` · ${a.latencyMs} ms` : ''}</Typography.Text>
                  </Space>
                  <Typography.Text>{a.message}</Typography.Text>
                </Space>
              ),
            }))}
          />
        </div>
      ))}
      <HandleModal failureId={handling} onClose={() => setHandling(null)} onDone={actions.refresh} />
    </>
  );
}
