import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Card, Col, Row, Space, Statistic, Tag, Typography } from 'antd';
import { MinusCircleOutlined, PlusCircleOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { CardState, Operator, batch, formatDate, formatDateTime, formatSize, pool, type ResponseOf, formatCount, withZoneLabel } from '@lynx/contract';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { call } from '../../../../request/http.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { STATE_COLORS } from '../../card-list/list/index.tsx';
import { IccidLink } from '../../card-list/selectionTools.tsx';
import { NewBatchModal } from '../../batchoperate/NewBatchModal.tsx';
import { PoolFormModal } from '../PoolFormModal.tsx';
import {
  POOL_LIST_PATH, POOL_STATE_COLORS, UsageBar, poolChangesPath, poolHistoryPath, usageLevel, usePoolActions, usePoolRefresh,
} from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type MemberRow = ResponseOf<typeof pool.getPoolCardPage>['list'][number];
const { PoolPerm, PoolState, PoolExhaustAction } = pool;
const { BatchType } = batch;
const dt = (v: string | null) => (v ? formatDateTime(v) : '-');
/** The cycle's last day: its end is the start of the next cycle (subtracting a second keeps an inclusive end on its day too). */
const lastDayOf = (end: string) => new Date(Date.parse(end) - 1000);

/** /card/pool/detail/:poolId/:salesOrder?: a pool, its usage this cycle and its member cards; cards join and leave through batches. */
export default function PoolDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const navigate = useNavigate();
  const tabKey = useLocation().pathname;
  const poolId = Number(useParams().poolId);
  const valid = Number.isInteger(poolId) && poolId > 0;
  const detail = useQuery({
    queryKey: [pool.getPoolDetail.name, poolId],
    queryFn: ({ signal }) => call(pool.getPoolDetail, { poolId }, { signal, silent: true }),
    enabled: valid,
  });
  const members = useSearchTable(pool.getPoolCardPage, { fixed: { poolId } });
  const canManage = usePerm(PoolPerm.PoolManage);
  const refresh = usePoolRefresh();
  const [editing, setEditing] = useState(false);
  const [moving, setMoving] = useState<number | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  // the join / leave batch started here: followed until it is done, then the members and the usage are read again
  const [started, setStarted] = useState<string | null>(null);
  const progress = useQuery({
    queryKey: [batch.getBatchDetail.name, started],
    queryFn: ({ signal }) => call(batch.getBatchDetail, { batchId: started! }, { signal, silent: true }),
    enabled: !!started,
    refetchInterval: (q) => (q.state.data?.state === batch.BatchState.Done ? false : 2000),
  });
  const finished = progress.data?.state === batch.BatchState.Done ? progress.data : null;
  const refreshedFor = useRef<string | null>(null);
  useEffect(() => {
    if (finished && refreshedFor.current !== finished.batchId) {
      refreshedFor.current = finished.batchId;
      refresh();
    }
  }, [finished, refresh]);
  const [counting, setCounting] = useState(false);
  const actions = usePoolActions({
    onDeleted: () => {
      useTabs.getState().close(tabKey);
      void navigate(POOL_LIST_PATH);
    },
  });
  const F = (k: string) => t(`pool.f.${k}`);
  const U = (k: string, o?: Record<string, unknown>) => t(`pool.usage.${k}`, o);
  const A = (k: string, o?: Record<string, unknown>) => t(`pool.action.${k}`, o);
  const M = (k: string, o?: Record<string, unknown>) => t(`pool.members.${k}`, o);
  const p = detail.data;
  usePageTitle(p?.name);

  const recount = async () => {
    setCounting(true);
    try {
      await call(pool.refreshPoolUsage, { poolId });
      message.success(U('refreshed'));
      refresh();
    } catch {
      /* shown by the request layer */
    } finally {
      setCounting(false);
    }
  };

  const level = p ? usageLevel(p.usedBytes, p.quotaBytes, p.alertPercent) : null;
  return (
    <DetailPage
      loading={valid && detail.isLoading}
      error={!valid ? true : (detail.error ?? (detail.isSuccess && !p ? true : undefined))}
      title={p ? <Space>{p.name}<StatusTag enumOf={PoolState} value={p.state} colors={POOL_STATE_COLORS} /></Space> : t('pool.title')}
      extra={
        p && (
          <Space wrap>
            <Link to={poolHistoryPath(p.poolId)}>{A('history')}</Link>
            <Link to={poolChangesPath(p.poolId)}>{A('changes')}</Link>
            {canManage && <Button onClick={() => setEditing(true)} data-testid="pool-detail-edit">{A('edit')}</Button>}
            {canManage && (
              <Button danger={p.state !== PoolState.Blocked} onClick={() => actions.toggleBlock(p)} data-testid="pool-detail-block">
                {p.state === PoolState.Blocked ? A('unblock') : A('block')}
              </Button>
            )}
            {canManage && <Button danger onClick={() => actions.remove(p)} data-testid="pool-detail-delete">{A('delete')}</Button>}
          </Space>
        )
      }
      items={
        p
          ? [
              { label: F('name'), value: p.name },
              { label: F('customer'), value: p.custName ?? '-' },
              { label: F('operator'), value: Operator.label(p.operatorId, lang) },
              { label: F('state'), value: <StatusTag enumOf={PoolState} value={p.state} colors={POOL_STATE_COLORS} /> },
              { label: F('members'), value: formatCount(p.memberCount) },
              { label: F('exhaustAction'), value: PoolExhaustAction.label(p.exhaustAction, lang) },
              { label: F('alertPercent'), value: `${p.alertPercent}%` },
              { label: withZoneLabel(F('blockedAt')), value: dt(p.blockedAt) },
              { label: F('createdBy'), value: p.createdBy },
              { label: F('description'), value: p.description ?? '-', span: 2 },
              { label: withZoneLabel(F('createdAt')), value: dt(p.createdAt) },
            ]
          : []
      }
    >
      {p && (
        <Card size="small" className="lx-card" title={U('title')} style={{ marginBottom: 16 }}
          extra={<Button size="small" icon={<SyncOutlined spin={counting} />} loading={counting} onClick={() => void recount()} data-testid="pool-refresh-usage">{U('refresh')}</Button>}>
          {p.state === PoolState.Blocked && <Alert type="error" showIcon style={{ marginBottom: 12 }} title={U('blockedBanner', { at: dt(p.blockedAt) })} />}
          <Row gutter={[16, 16]} align="middle">
            <Col xs={12} md={6} xl={4}><Statistic title={F('quota')} value={p.quotaBytes > 0 ? formatSize(p.quotaBytes) : U('noQuota')} /></Col>
            <Col xs={12} md={6} xl={4}>
              <Statistic title={F('used')} value={formatSize(p.usedBytes)} styles={{ content: { color: level?.level === 'over' ? '#cf1322' : level?.level === 'alert' ? '#fa8c16' : undefined } }} />
            </Col>
            <Col xs={12} md={6} xl={4}>
              <Statistic title={F('remaining')} value={p.quotaBytes > 0 ? formatSize(Math.max(p.quotaBytes - p.usedBytes, 0)) : '-'} />
            </Col>
            <Col xs={24} md={18} xl={12}><UsageBar p={p} wide /></Col>
          </Row>
          <Space size={24} wrap style={{ marginTop: 12 }}>
            <Typography.Text type="secondary">
              {F('cycle')}: {p.cycleStart && p.cycleEnd ? U('cycleText', { start: formatDate(p.cycleStart), end: formatDate(lastDayOf(p.cycleEnd)) }) : '-'}
            </Typography.Text>
            <Typography.Text type="secondary">{F('checkedAt')}: {p.usageCheckedAt ? formatDateTime(p.usageCheckedAt) : U('notChecked')}</Typography.Text>
          </Space>
        </Card>
      )}
      {started && p && (
        <Alert type={finished ? 'success' : 'info'} showIcon closable onClose={() => setStarted(null)} style={{ marginBottom: 12 }}
          title={<>{finished ? M('batchDone', { succeeded: finished.succeededCount, failed: finished.failedCount }) : M('batchStarted')} <Link to={poolChangesPath(p.poolId)}>{M('viewChanges')}</Link></>} data-testid="pool-batch-started" />
      )}
      <SearchTable<MemberRow>
        table={members}
        title={M('title')}
        rowKey="iccid"
        emptyHint={M('emptyHint')}
        fields={[
          { name: 'iccid', label: M('iccid') },
          { name: 'state', label: M('state'), type: 'enum', enumOf: CardState },
        ]}
        rowSelection={canManage ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), preserveSelectedRowKeys: true } : undefined}
        toolbar={
          canManage && p && (
            <>
              <Button type="primary" icon={<PlusCircleOutlined />} onClick={() => setMoving(BatchType.PoolJoin)} data-testid="pool-add-cards">{A('addCards')}</Button>
              <Button icon={<MinusCircleOutlined />} onClick={() => setMoving(BatchType.PoolLeave)} disabled={!p.memberCount && !selected.length} data-testid="pool-remove-cards">
                {selected.length ? A('removeSelected', { n: selected.length }) : A('removeCards')}
              </Button>
            </>
          )
        }
        columns={[
          { title: 'ICCID', dataIndex: 'iccid', width: 235, render: (v: string) => <IccidLink iccid={v} /> },
          { title: M('msisdn'), dataIndex: 'msisdn', width: 140, render: (v: string | null) => v ?? '-' },
          { title: M('state'), dataIndex: 'state', width: 110, render: (v: number) => <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} /> },
          { title: M('customer'), dataIndex: 'custName', width: 160, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: M('plan'), dataIndex: 'planName', width: 170, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: M('contribution'), dataIndex: 'quotaBytes', width: 120, align: 'right', render: (v: number | null) => (v == null ? '-' : formatSize(v)) },
          { title: M('used'), dataIndex: 'usedBytes', width: 120, align: 'right', render: (v: number) => formatSize(v) },
          { title: M('online'), dataIndex: 'online', width: 90, render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{M(v ? 'onlineYes' : 'onlineNo')}</Tag> },
          { title: withZoneLabel(M('joinedAt')), dataIndex: 'joinedAt', width: 165, render: dt },
        ]}
      />
      {p && (
        <NewBatchModal
          open={moving !== null}
          onClose={() => setMoving(null)}
          scope="pool"
          types={moving ? [moving] : []}
          initialType={moving ?? undefined}
          presets={{ poolId: p.poolId }}
          locked={['type', 'poolId']}
          selection={moving === BatchType.PoolLeave ? selected : undefined}
          title={moving === BatchType.PoolLeave ? A('removeCards') : A('addCards')}
          onConfirmed={(b) => {
            setMoving(null);
            setSelected([]);
            setStarted(b.batchId);
            refresh();
          }}
        />
      )}
      {p && <PoolFormModal open={editing} record={p} onClose={() => setEditing(false)} onSaved={() => refresh()} />}
    </DetailPage>
  );
}
