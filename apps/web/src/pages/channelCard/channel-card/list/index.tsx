import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CardState, ChannelCardState, channelcard, formatDateTime, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { ExportButton } from '../../../../components/ExportButton.tsx';
import { STATE_COLORS, useChannelNames, type ChannelCardRow } from '../../shared.tsx';

/** /channelCard/channel-card/list (16020000): the viewer's channel cards with their channel, sales order, cost and state. */
export default function ChannelCardList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const T = (k: string) => t(`channelcard.${k}`);
  const table = useSearchTable(channelcard.getChannelCardPage);
  const names = useChannelNames();
  const detail = (r: ChannelCardRow) => `/channelCard/channel-card/detail/${r.id}`;
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <SearchTable<ChannelCardRow>
        table={table}
        title={T('list.title')}
        rowKey="id"
        emptyHint={T('list.emptyHint')}
        toolbar={<ExportButton source={channelcard.getChannelCardPage} filters={table.body} />}
        fields={[
          { name: 'iccid', label: T('iccid'), placeholder: T('iccidPlaceholder') },
          { name: 'channelName', label: T('channel'), type: 'select', options: (names.data ?? []).map((n) => ({ value: n, label: n })) },
          { name: 'salesOrder', label: T('salesOrder') },
          { name: 'state', label: T('state'), type: 'enum', enumOf: ChannelCardState },
        ]}
        columns={[
          { title: T('iccid'), dataIndex: 'iccid', key: 'iccid', fixed: 'left', width: 210, render: (v: string, r) => <Link to={detail(r)} data-testid="cc-iccid-link">{v}</Link> },
          { title: T('channel'), dataIndex: 'channelName', key: 'channelName', width: 160, ellipsis: true },
          { title: T('salesOrder'), dataIndex: 'salesOrder', key: 'salesOrder', width: 150 },
          { title: T('monthlyCost'), dataIndex: 'monthlyCost', key: 'monthlyCost', width: 130, align: 'right' },
          { title: T('state'), dataIndex: 'state', key: 'state', width: 130, render: (v: number) => <StatusTag enumOf={ChannelCardState} value={v} colors={STATE_COLORS} /> },
          { title: T('cardState'), dataIndex: 'cardState', key: 'cardState', width: 120, render: (v: number | null) => <StatusTag enumOf={CardState} value={v} /> },
          { title: T('customer'), dataIndex: 'custName', key: 'custName', width: 180, ellipsis: true, render: (v: string | null) => v ?? T('stockCustomer') },
          { title: withZoneLabel(T('createdAt')), dataIndex: 'createdAt', key: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 90,
            render: (_: unknown, r) => <Button type="link" size="small" onClick={() => navigate(detail(r))}>{T('detail')}</Button>,
          },
        ]}
      />
    </>
  );
}
