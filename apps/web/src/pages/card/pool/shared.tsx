import { App, Input, Progress, Space, Tooltip, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { batch, formatSize, pool, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type PoolRow = ResponseOf<typeof pool.getPoolDetail>;
const { PoolState, PoolEventType } = pool;

export const POOL_LIST_PATH = '/card/pool/list';
export const poolDetailPath = (poolId: number) => `/card/pool/detail/${poolId}`;
export const poolHistoryPath = (poolId: number) => `/card/pool/blockhistory/${poolId}`;
export const poolChangesPath = (poolId?: number) => `/card/pool/change/list${poolId ? `?poolId=${poolId}` : ''}`;

export const POOL_STATE_COLORS: Record<number, string> = { [PoolState.Normal]: 'success', [PoolState.Blocked]: 'error' };
export const POOL_EVENT_COLORS: Record<number, string> = {
  [PoolEventType.QuotaBlocked]: 'error', [PoolEventType.ManualBlocked]: 'volcano', [PoolEventType.CycleUnblocked]: 'success',
  [PoolEventType.ManualUnblocked]: 'green', [PoolEventType.QuotaUnblocked]: 'cyan', [PoolEventType.ThresholdReached]: 'orange',
};
const ALERT_COLOR = '#fa8c16';
const OVER_COLOR = '#cf1322';

/** Where a pool's usage stands: its share of the quota, and normal / past the alert threshold / over the quota. */
export function usageLevel(usedBytes: number, quotaBytes: number, alertPercent: number): { percent: number; level: 'none' | 'normal' | 'alert' | 'over' } {
  if (quotaBytes <= 0) return { percent: usedBytes > 0 ? 100 : 0, level: usedBytes > 0 ? 'over' : 'none' };
  const percent = Math.floor((usedBytes / quotaBytes) * 1000) / 10;
  return { percent, level: usedBytes > quotaBytes ? 'over' : percent >= alertPercent ? 'alert' : 'normal' };
}

/** Used / quota with a bar: orange from the alert threshold, red past the quota. */
export function UsageBar({ p, wide }: { p: Pick<PoolRow, 'usedBytes' | 'quotaBytes' | 'alertPercent'>; wide?: boolean }) {
  const { t } = useTranslation();
  const { percent, level } = usageLevel(p.usedBytes, p.quotaBytes, p.alertPercent);
  const color = level === 'over' ? OVER_COLOR : level === 'alert' ? ALERT_COLOR : undefined;
  const tip = level === 'over' && p.quotaBytes > 0
    ? t('pool.usage.over', { size: formatSize(p.usedBytes - p.quotaBytes) })
    : level === 'alert' ? t('pool.usage.alert', { percent: p.alertPercent }) : level === 'none' ? t('pool.usage.noQuotaHint') : undefined;
  return (
    <Tooltip title={tip}>
      <div style={{ minWidth: wide ? 280 : 170 }} data-testid="pool-usage" data-level={level}>
        <Typography.Text style={{ fontSize: 12, color }}>
          {formatSize(p.usedBytes)} / {p.quotaBytes > 0 ? formatSize(p.quotaBytes) : t('pool.usage.noQuota')}
        </Typography.Text>
        <Progress percent={Math.min(percent, 100)} size="small" strokeColor={color} status={level === 'over' ? 'exception' : 'normal'}
          format={() => (p.quotaBytes > 0 ? `${percent}%` : '-')} />
      </div>
    </Tooltip>
  );
}

/** Refreshes every pool query after a change (lists, details, options, members, history, changes). */
export function usePoolRefresh() {
  const qc = useQueryClient();
  return () => {
    for (const e of [pool.getPoolPage, pool.getPoolDetail, pool.getPoolOptions, pool.getPoolCardPage, pool.getPoolEventPage, batch.getBatchPage]) {
      void qc.invalidateQueries({ queryKey: [e.name] });
    }
  };
}

/**
 * Block, unblock and delete with their confirmations (an optional reason for the block history; a pool that
 * still holds cards is explained instead of deleted). The server's refusals are shown by the request layer.
 */
export function usePoolActions({ onDeleted, onOpenDetail }: { onDeleted?: () => void; onOpenDetail?: (p: PoolRow) => void } = {}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const refresh = usePoolRefresh();
  const B = (k: string, o?: Record<string, unknown>) => t(`pool.block.${k}`, o);

  const toggleBlock = (p: PoolRow) => {
    const blocking = p.state !== PoolState.Blocked;
    let reason = '';
    modal.confirm({
      title: blocking ? B('title', { name: p.name }) : B('unblockTitle', { name: p.name }),
      content: (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text>{blocking ? B('content', { count: p.memberCount }) : B('unblockContent')}</Typography.Text>
          <Typography.Text type="secondary">{B('reason')}</Typography.Text>
          <Input.TextArea maxLength={pool.POOL_REASON_MAX} showCount autoSize={{ minRows: 2, maxRows: 4 }} placeholder={B('reasonPlaceholder')}
            onChange={(e) => { reason = e.target.value; }} data-testid="pool-block-reason" />
        </Space>
      ),
      okText: blocking ? t('pool.action.block') : t('pool.action.unblock'),
      okButtonProps: { danger: blocking, 'data-testid': 'pool-block-ok' } as { danger: boolean },
      cancelText: t('common.cancel'),
      onOk: async () => {
        const body = { poolId: p.poolId, ...(reason.trim() ? { reason: reason.trim() } : {}) };
        try {
          await call(blocking ? pool.blockPool : pool.unblockPool, body);
          message.success(blocking ? B('blocked') : B('unblocked'));
          refresh();
        } catch {
          /* shown by the request layer (e.g. unblocking while the quota is used up) */
        }
      },
    });
  };

  const remove = (p: PoolRow) => {
    const D = (k: string, o?: Record<string, unknown>) => t(`pool.del.${k}`, o);
    if (p.memberCount > 0) {
      modal.warning({
        title: D('notEmptyTitle'),
        content: D('notEmpty', { name: p.name, count: p.memberCount }),
        okText: onOpenDetail ? D('openDetail') : t('common.close'),
        onOk: () => onOpenDetail?.(p),
      });
      return;
    }
    modal.confirm({
      title: D('title', { name: p.name }),
      content: D('content'),
      okText: t('pool.action.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await call(pool.deletePool, { poolId: p.poolId });
          message.success(D('deleted'));
          refresh();
          onDeleted?.();
        } catch {
          /* shown by the request layer */
        }
      },
    });
  };

  return { toggleBlock, remove };
}
