import { Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSizeIn } from '@lynx/contract';

const DAY_MS = 86_400_000;

/** Days until the test ends (rounded up), or an "ended" tag when the scheduler has not moved the card yet. */
export function DaysLeft({ testEndAt }: { testEndAt: string | null }) {
  const { t } = useTranslation();
  if (!testEndAt) return <>-</>;
  const ms = new Date(testEndAt).getTime() - Date.now();
  if (ms <= 0) return <Tag color="warning">{t('cardcat.testCard.expired')}</Tag>;
  const n = Math.ceil(ms / DAY_MS);
  return <Tag color={n <= 7 ? 'orange' : 'default'}>{t('cardcat.testCard.daysLeftValue', { n })}</Tag>;
}

/** Test data used of the plan's free test data ("no usage data yet" while the usage feed has none). */
export function TestUsage({ usedKb, quotaKb }: { usedKb: number | null; quotaKb: number | null }) {
  const { t } = useTranslation();
  if (usedKb === null) return <Typography.Text type="secondary">{t('cardcat.testCard.usageUnknown')}</Typography.Text>;
  const used = formatSizeIn(usedKb, 'KB');
  if (!quotaKb) return <>{used}</>;
  const pct = Math.min(100, Math.round((usedKb / quotaKb) * 100));
  return (
    <div style={{ minWidth: 140 }}>
      <Typography.Text style={{ whiteSpace: 'nowrap' }}>{used} / {formatSizeIn(quotaKb, 'KB')}</Typography.Text>
      <Progress percent={pct} size="small" showInfo={false} status={pct >= 100 ? 'exception' : 'normal'} />
    </div>
  );
}

export const kb = (v: number | null) => (v === null ? '-' : formatSizeIn(v, 'KB'));
