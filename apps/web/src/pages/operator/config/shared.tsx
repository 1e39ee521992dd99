import { useState } from 'react';
import { App, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GATEWAY_ADAPTERS, formatDateTime, opconfig, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type AccessRow = ResponseOf<typeof opconfig.getOperatorAccountPage>['list'][number];
export type Lang = 'zh' | 'en';

export const PERM = {
  accessAdd: 7060001, accessEdit: 7060002, accessDelete: 7060003, accessTest: 7060004,
  commSave: 7070001, commDelete: 7070002,
  failureAct: 7100001,
  platformAdd: 7110001, platformEdit: 7110002, platformDelete: 7110003, platformState: 7110004,
} as const;

export const useLang = (): Lang => (useTranslation().i18n.language === 'en' ? 'en' : 'zh');

/** Operator accounts for selects and filters (optionally of one operator). */
export function useAccountOptions(operatorId?: number | null) {
  return useQuery({
    queryKey: [opconfig.getOperatorAccountOptions.name, { operatorId: operatorId ?? null }],
    queryFn: ({ signal }) => call(opconfig.getOperatorAccountOptions, operatorId ? { operatorId } : {}, { signal }),
    enabled: operatorId !== null,
  });
}

export const adapterLabel = (code: string, lang: Lang) => GATEWAY_ADAPTERS.find((a) => a.code === code)?.[lang] ?? code;

/** Result of the last connection test: a tag with the message and time in a tooltip. */
export function LastTest({ row }: { row: Pick<AccessRow, 'lastTestAt' | 'lastTestOk' | 'lastTestMessage' | 'lastTestLatencyMs'> }) {
  const { t } = useTranslation();
  if (!row.lastTestAt) return <Typography.Text type="secondary">{t('opconfig.access.notTested')}</Typography.Text>;
  const tip = `${formatDateTime(row.lastTestAt)} · ${row.lastTestMessage ?? ''}`;
  return (
    <Tooltip title={tip}>
      <Tag color={row.lastTestOk ? 'success' : 'error'}>
        {row.lastTestOk ? t('opconfig.access.lastTestOk') : t('opconfig.access.lastTestFailed')}
        {row.lastTestOk && row.lastTestLatencyMs != null ? ` · ${t('opconfig.access.latency', { ms: row.lastTestLatencyMs })}` : ''}
      </Tag>
    </Tooltip>
  );
}

/** A stored secret as the server gives it: the mask, or "not stored". */
export function SecretMask({ secret }: { secret: { hasSecret: boolean; mask: string | null } }) {
  const { t } = useTranslation();
  return secret.hasSecret ? <Typography.Text code>{secret.mask}</Typography.Text> : <Typography.Text type="secondary">{t('opconfig.access.notStored')}</Typography.Text>;
}

/** Test connection with the result as a message; refreshes the lists that show the last result. */
export function useTestConnection(onDone: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [testing, setTesting] = useState<number | null>(null);
  const run = async (operAccountId: number) => {
    setTesting(operAccountId);
    try {
      const r = await call(opconfig.testOperatorAccount, { operAccountId });
      if (r.ok) message.success(t('opconfig.access.testOk', { message: r.message, ms: r.latencyMs }));
      else message.error(t('opconfig.access.testFailed', { message: r.message }));
      onDone();
    } catch {
      /* shown by the request layer */
    } finally {
      setTesting(null);
    }
  };
  return { testing, run };
}
