import { App, Button, Space, Table, Typography, type ButtonProps } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { CardState, ChannelCardState, Operator, Perm, channelcard, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { STATE_COLORS } from '../../shared.tsx';

/** /channelCard/channel-card/detail/:id: one channel card, its card, and the bill lines that charged it; stop or resume (16020001). */
export default function ChannelCardDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const T = (k: string, o?: Record<string, unknown>) => t(`channelcard.${k}`, o);
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({
    queryKey: [channelcard.getChannelCardDetail.name, id],
    queryFn: ({ signal }) => call(channelcard.getChannelCardDetail, { id }, { signal, silent: true }),
    enabled: valid,
  });
  const c = query.data?.card;
  usePageTitle(c?.iccid);
  const change = () => {
    if (!c) return;
    const stop = c.state === ChannelCardState.InUse;
    modal.confirm({
      title: stop ? T('cardDetail.stop') : T('cardDetail.resume'),
      content: T(stop ? 'cardDetail.stopConfirm' : 'cardDetail.resumeConfirm', { iccid: c.iccid }),
      okButtonProps: { danger: stop, 'data-testid': 'cc-state-ok' } as ButtonProps,
      onOk: async () => {
        await call(channelcard.changeChannelCardState, { id: c.id, state: stop ? ChannelCardState.Stopped : ChannelCardState.InUse });
        message.success(T(stop ? 'cardDetail.stopped' : 'cardDetail.resumed'));
        await qc.invalidateQueries({ queryKey: [channelcard.getChannelCardDetail.name, id] });
        await qc.invalidateQueries({ queryKey: [channelcard.getChannelCardPage.name] });
      },
    });
  };
  return (
    <DetailPage
      loading={valid && query.isLoading}
      error={!valid || query.error || (query.isSuccess && !c) ? true : undefined}
      title={c?.iccid}
      extra={c && (
        <Space>
          <PermButton perm={Perm.ChannelCardState} danger={c.state === ChannelCardState.InUse} onClick={change} data-testid="cc-state">
            {c.state === ChannelCardState.InUse ? T('cardDetail.stop') : T('cardDetail.resume')}
          </PermButton>
          <Button onClick={() => void navigate('/channelCard/channel-card/list')}>{T('back')}</Button>
        </Space>
      )}
      items={c ? [
        { label: T('iccid'), value: <Typography.Text copyable>{c.iccid}</Typography.Text> },
        { label: T('msisdn'), value: c.msisdn ?? '-' },
        { label: T('operator'), value: c.operatorId ? Operator.label(c.operatorId, lang) : '-' },
        { label: T('cardState'), value: <StatusTag enumOf={CardState} value={c.cardState} /> },
        { label: T('channel'), value: c.channelName },
        { label: T('salesOrder'), value: <Link to={`/channelCard/channelCardImport/list/${encodeURIComponent(c.salesOrder)}`}>{c.salesOrder}</Link> },
        { label: T('monthlyCost'), value: c.monthlyCost },
        { label: T('state'), value: <span data-testid="cc-state-tag"><StatusTag enumOf={ChannelCardState} value={c.state} colors={STATE_COLORS} /></span> },
        { label: T('customer'), value: c.custName ?? T('stockCustomer') },
        { label: withZoneLabel(T('createdAt')), value: formatDateTime(c.createdAt) },
        { label: withZoneLabel(T('stoppedAt')), value: c.stoppedAt ? formatDateTime(c.stoppedAt) : '-' },
      ] : []}
    >
      {query.data && (
        <Table
          size="small" rowKey="billId" dataSource={query.data.bills} pagination={false} title={() => T('cardDetail.bills')}
          locale={{ emptyText: T('cardDetail.noBills') }}
          columns={[
            { title: T('cardDetail.period'), dataIndex: 'periodKey', key: 'periodKey', render: (v: string, r) => <Link to={`/channelCard/channelCardBill/detail/${r.billId}`}>{v}</Link> },
            { title: T('cardDetail.amount'), dataIndex: 'amount', key: 'amount', align: 'right' },
          ]}
        />
      )}
    </DetailPage>
  );
}
