import { App, Space, Tooltip, Typography } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ChannelBillState, ErrorCode, channelbill, formatCount } from '@lynx/contract';
import { call, LogicError } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { STATE_COLORS as CHANNEL_STATE_COLORS, channelBillPaths } from '../../billing/channelbill/shared.tsx';
import { OperatorBillState, useAccountName, type OperatorBillRow } from './shared.tsx';

/** A bill the Reconcile action applies to: fetched or confirmed, charging cards, not reconciled yet. */
export const mayReconcile = (r: OperatorBillRow) =>
  (r.state === OperatorBillState.Fetched || r.state === OperatorBillState.Confirmed) && r.cards > 0 && !r.channelBill;

/**
 * Reconcile an operating bill without a file (needs the channel bills' import button 4050001; the page holds 9030000):
 * confirmed first, then the channel bill is made and opened. A bill reconciled already (20935) or an issuer's bill of
 * the period (20932) is offered to open instead.
 */
export function useReconcileOperatorBill(changed: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const nameOf = useAccountName();
  const canReconcile = usePerm(channelbill.ChannelBillPerm.Import);
  const A = (k: string, o?: Record<string, unknown>) => t(`operatebill.action.${k}`, o);

  const offerToOpen = (text: string, billId: number) => modal.confirm({
    title: A('reconcileExistsTitle'),
    content: text,
    okText: A('openChannelBill'),
    cancelText: t('common.cancel'),
    okButtonProps: { 'data-testid': 'operate-bill-open-channel-bill' } as Record<string, string>,
    onOk: () => navigate(channelBillPaths.detail(billId)),
  });

  const reconcile = (r: OperatorBillRow) => modal.confirm({
    title: A('reconcileTitle'),
    content: A('reconcileConfirm', { account: nameOf(r.operAccountId, r.accountName), period: r.periodKey, cards: formatCount(r.cards), from: r.periodFrom, to: r.periodTo }),
    okText: A('reconcile'),
    cancelText: t('common.cancel'),
    width: 520,
    okButtonProps: { 'data-testid': 'operate-bill-reconcile-ok' } as Record<string, string>,
    onOk: async () => {
      try {
        const bill = await call(channelbill.reconcileOperatorBill, { operatorBillId: r.operatorBillId }, { silent: true });
        // null: the session ended (the login page takes over)
        if (!bill) return;
        message.success(A('reconcileStarted', { id: bill.billId }));
        navigate(channelBillPaths.detail(bill.billId));
      } catch (err) {
        const billId = err instanceof LogicError ? (err.data as { billId?: number } | null)?.billId : undefined;
        const linked = err instanceof LogicError && (err.errorCode === ErrorCode.ChannelBillOperatorBillLinked || err.errorCode === ErrorCode.ChannelBillExists);
        if (linked && billId) offerToOpen(err.message, billId);
        // 'unauthorized': the request layer is on its way to the login page and shows nothing more
        else if (!(err instanceof Error && err.message === 'unauthorized')) message.error(err instanceof Error ? err.message : String(err));
      } finally {
        changed();
      }
    },
  });

  return { canReconcile, reconcile };
}

/** The channel bill an operating bill was reconciled as: a link, its result per line state, and a warning when stale. */
export function ChannelBillCell({ r }: { r: OperatorBillRow }) {
  const { t } = useTranslation();
  const cb = r.channelBill;
  if (!cb) return <Typography.Text type="secondary">{t('operatebill.channelBill.none')}</Typography.Text>;
  return (
    <Space orientation="vertical" size={0} data-testid={`operate-bill-channel-bill-${r.operatorBillId}`}>
      <Space size={4}>
        <Link to={channelBillPaths.detail(cb.billId)}>{t('operatebill.channelBill.link', { id: cb.billId })}</Link>
        {cb.state !== ChannelBillState.Reconciled && <StatusTag enumOf={ChannelBillState} value={cb.state} colors={CHANNEL_STATE_COLORS} />}
        {cb.stale && <Tooltip title={t('operatebill.channelBill.stale')}><Typography.Text type="warning"><WarningOutlined /></Typography.Text></Tooltip>}
      </Space>
      {cb.state === ChannelBillState.Reconciled && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('operatebill.channelBill.counts', {
            matched: formatCount(cb.matched), differs: formatCount(cb.differs), onPlatform: formatCount(cb.missingOnPlatform), inBill: formatCount(cb.missingInChannel),
          })}
        </Typography.Text>
      )}
    </Space>
  );
}
