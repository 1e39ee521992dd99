import { useState } from 'react';
import { App, Button, Tag, Tooltip, Typography, type ButtonProps } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Perm, ResellSyncState, formatDateTime, parseLang, resaleStateLabel, resell, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';

type Row = ResponseOf<typeof resell.getResellPage>['list'][number];
const COLORS: Record<number, string> = {
  [ResellSyncState.NotSynced]: 'default', [ResellSyncState.Listed]: 'blue', [ResellSyncState.Sold]: 'green',
  [ResellSyncState.Delisted]: 'orange', [ResellSyncState.Failed]: 'red',
};

/**
 * /shortcuts/resell/list (6020000): resold cards with the resale platform's state and ours, the last sync and its error;
 * "sync now" (6020001) for one card or the ticked ones, after a confirmation.
 */
export default function ResellList() {
  const { t, i18n } = useTranslation();
  const lang = parseLang(i18n.language);
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const T = (k: string, o?: Record<string, unknown>) => t(`channelcard.resell.${k}`, o);
  const table = useSearchTable(resell.getResellPage);
  const canSync = usePerm(Perm.ShortcutsResellSync);
  const [selected, setSelected] = useState<string[]>([]);

  const sync = (iccids: string[]) => {
    if (!iccids.length) return void message.warning(T('selectFirst'));
    if (iccids.length > resell.RESELL_SYNC_MAX) return void message.error(T('tooMany', { count: iccids.length, max: resell.RESELL_SYNC_MAX }));
    modal.confirm({
      title: T('confirmTitle', { count: iccids.length }),
      content: T('confirmText'),
      okButtonProps: { 'data-testid': 'resell-sync-ok' } as ButtonProps,
      onOk: async () => {
        const r = await call(resell.syncResellNow, { iccids });
        (r.failed ? message.warning : message.success)(T('result', r));
        setSelected([]);
        await qc.invalidateQueries({ queryKey: [resell.getResellPage.name] });
      },
    });
  };

  // the resale platform's word: its label with the raw word beside it for support staff; an unknown word raw, marked
  const platformState = (code: string | null) => {
    if (!code) return '-';
    const label = resaleStateLabel(code, lang);
    if (label) {
      return (
        <span data-testid="resell-platform-state">
          <Tooltip title={T('rawCodeHint', { code })}>
            <span>{label} <Typography.Text type="secondary" style={{ fontSize: 12 }}>({code})</Typography.Text></span>
          </Tooltip>
        </span>
      );
    }
    return (
      <span data-testid="resell-platform-state">
        <Tooltip title={T('unknownStateHint', { code })}>
          <span>{code} <Tag color="warning" style={{ marginInlineEnd: 0 }}>{T('unknownState')}</Tag></span>
        </Tooltip>
      </span>
    );
  };

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <SearchTable<Row>
        table={table}
        title={T('title')}
        rowKey="iccid"
        emptyHint={T('emptyHint')}
        rowSelection={canSync ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), preserveSelectedRowKeys: true } : undefined}
        toolbar={(
          <PermButton perm={Perm.ShortcutsResellSync} type="primary" icon={<SyncOutlined />} onClick={() => sync(selected)} data-testid="resell-sync-selected">
            {T('syncSelected', { count: selected.length })}
          </PermButton>
        )}
        fields={[
          { name: 'iccid', label: t('channelcard.iccid'), placeholder: t('channelcard.iccidPlaceholder') },
          { name: 'syncState', label: T('syncState'), type: 'enum', enumOf: ResellSyncState },
        ]}
        columns={[
          { title: t('channelcard.iccid'), dataIndex: 'iccid', key: 'iccid', fixed: 'left', width: 210 },
          { title: T('syncState'), dataIndex: 'syncState', key: 'syncState', width: 120, render: (v: number) => <span data-testid="resell-state"><StatusTag enumOf={ResellSyncState} value={v} colors={COLORS} /></span> },
          { title: T('platformState'), dataIndex: 'platformState', key: 'platformState', width: 220, render: (v: string | null) => platformState(v) },
          { title: withZoneLabel(T('lastSyncAt')), dataIndex: 'lastSyncAt', key: 'lastSyncAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : T('never')) },
          { title: T('lastError'), dataIndex: 'lastError', key: 'lastError', width: 240, ellipsis: true, render: (v: string | null) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : '-') },
          { title: T('platform'), dataIndex: 'platformCode', key: 'platformCode', width: 130 },
          { title: T('externalId'), dataIndex: 'externalId', key: 'externalId', width: 150 },
          { title: t('channelcard.customer'), dataIndex: 'custName', key: 'custName', width: 180, ellipsis: true, render: (v: string | null) => platformState(v) },
          ...(canSync ? [{
            title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 100,
            render: (_: unknown, r: Row) => <Button type="link" size="small" onClick={() => sync([r.iccid])} data-testid="resell-sync-one">{T('syncNow')}</Button>,
          }] : []),
        ]}
      />
    </>
  );
}
