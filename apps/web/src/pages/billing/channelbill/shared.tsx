import { Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChannelBillLineState, ChannelBillState, formatCount, type ResponseOf, type channelbill } from '@lynx/contract';
import { StatusTag } from '../../../components/StatusTag.tsx';

export type ChannelBillRow = ResponseOf<typeof channelbill.getChannelBillPage>['list'][number];
export type ChannelBillLine = ResponseOf<typeof channelbill.getChannelBillLines>['list'][number];

export const channelBillPaths = {
  list: '/billing/channelbill/list',
  detail: (billId: number) => `/billing/channelbill/detail/${billId}`,
};

export const STATE_COLORS: Record<number, string> = {
  [ChannelBillState.Importing]: 'processing', [ChannelBillState.Reconciling]: 'processing',
  [ChannelBillState.Reconciled]: 'success', [ChannelBillState.Failed]: 'error',
};
export const LINE_COLORS: Record<number, string> = {
  [ChannelBillLineState.Pending]: 'default', [ChannelBillLineState.Matched]: 'success', [ChannelBillLineState.Differs]: 'warning',
  [ChannelBillLineState.MissingOnPlatform]: 'error', [ChannelBillLineState.MissingInChannel]: 'magenta',
};

/** Still worked by the background job (the screens poll while one is). */
export const isBusy = (b: Pick<ChannelBillRow, 'state'>) => b.state === ChannelBillState.Importing || b.state === ChannelBillState.Reconciling;

/**
 * How far the job is, 0-100: reading the file (lines not known yet) counts as 0, storing the lines up to 90, the
 * reconciliation 95, done 100. A failed import shows no progress.
 */
export function progressPercent(b: Pick<ChannelBillRow, 'state' | 'linesDone' | 'totalLines'>): number | null {
  if (b.state === ChannelBillState.Failed) return null;
  if (b.state === ChannelBillState.Reconciled) return 100;
  if (b.state === ChannelBillState.Reconciling) return 95;
  if (!b.totalLines) return 0;
  return Math.min(90, Math.floor((b.linesDone / b.totalLines) * 90));
}

/** Channel − platform as people read it: '+1.2 MB', '-300 KB', '0'. */
export function signedSize(diff: number | null, format: (n: number) => string): string {
  if (diff == null) return '-';
  if (diff === 0) return '0';
  return `${diff > 0 ? '+' : '-'}${format(Math.abs(diff))}`;
}

/** The state tag with the job's progress under it while it runs. */
export function StateCell({ b }: { b: ChannelBillRow }) {
  const { t } = useTranslation();
  const pct = progressPercent(b);
  return (
    <Space orientation="vertical" size={0} style={{ minWidth: 140 }} data-testid={`channel-bill-state-${b.billId}`}>
      <StatusTag enumOf={ChannelBillState} value={b.state} colors={STATE_COLORS} />
      {isBusy(b) && pct !== null && <Progress percent={pct} size="small" status="active" />}
      {b.state === ChannelBillState.Importing && b.totalLines > 0 && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('channelbill.import.importing', { done: formatCount(b.linesDone), total: formatCount(b.totalLines) })}</Typography.Text>
      )}
      {b.state === ChannelBillState.Failed && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>{b.failure ?? t('channelbill.import.failed', { count: formatCount(b.errorCount) })}</Typography.Text>
      )}
    </Space>
  );
}
