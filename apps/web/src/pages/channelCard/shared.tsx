import { useState } from 'react';
import { Input, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChannelCardState, ErrorCode, channelcard, pathOf, type ResponseOf } from '@lynx/contract';
import { call, upload } from '../../request/http.ts';
import { FileImportModal } from '../../components/FileImportModal.tsx';

export type ChannelCardRow = ResponseOf<typeof channelcard.getChannelCardPage>['list'][number];
export type ChannelCardBillRow = ResponseOf<typeof channelcard.getChannelCardBillPage>['list'][number];
type Batch = ResponseOf<typeof channelcard.importChannelCards>;

export const STATE_COLORS: Record<number, string> = { [ChannelCardState.InUse]: 'green', [ChannelCardState.Stopped]: 'default' };
const SALES_ORDER = new RegExp(channelcard.SALES_ORDER_PATTERN);

/** The channel names the viewer's channel cards use (for the filters and the bill generation). */
export function useChannelNames() {
  return useQuery({
    queryKey: [channelcard.getChannelNames.name],
    queryFn: ({ signal }) => call(channelcard.getChannelNames, {}, { signal, silent: true }),
  });
}

/** Upload of a channel card file under a sales order: templates, the file; a refused file lists its wrong rows (nothing was stored). */
export function ChannelCardImportModal({ open, onClose, onDone, salesOrder: initialOrder }: {
  open: boolean; onClose: () => void; onDone: (b: Batch) => void; salesOrder?: string;
}) {
  const { t } = useTranslation();
  const [salesOrder, setSalesOrder] = useState(initialOrder ?? '');
  const [orderError, setOrderError] = useState<string | null>(null);
  const I = (k: string) => t(`channelcard.import.${k}`);
  const validate = () => {
    const orderOk = SALES_ORDER.test(salesOrder.trim());
    setOrderError(orderOk ? null : I('salesOrderInvalid'));
    return orderOk;
  };

  return (
    <FileImportModal<Batch>
      open={open} onClose={onClose} onDone={onDone} ns="channelcard.import" testId="cc" width={760} layout="headings"
      templatePath={pathOf(channelcard.downloadChannelCardTemplate)} maxBytes={channelcard.CHANNEL_CARD_IMPORT_MAX_BYTES} maxRows={channelcard.CHANNEL_CARD_IMPORT_MAX_ROWS}
      send={(file, remark) => upload(channelcard.importChannelCards, file, { salesOrder: salesOrder.trim(), remark: remark || undefined }, { silent: true })}
      doneValues={(r) => ({ count: r.cardCount })}
      remarkMax={64} rowErrors={{ code: ErrorCode.ChannelCardImportInvalid, idTitle: 'ICCID', idKey: 'iccid' }}
      validate={validate} onReset={() => setOrderError(null)}
      extra={
        <>
          <Input
            value={salesOrder} maxLength={32} placeholder={`${t('channelcard.salesOrder')}: ${I('salesOrderHint')}`} aria-label={t('channelcard.salesOrder')}
            status={orderError ? 'error' : undefined} onChange={(e) => setSalesOrder(e.target.value)} data-testid="cc-import-order" style={{ marginBottom: 4 }}
          />
          {orderError && <Typography.Text type="danger" role="alert">{orderError}</Typography.Text>}
        </>
      }
    />
  );
}
