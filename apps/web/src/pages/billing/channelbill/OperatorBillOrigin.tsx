import { useState } from 'react';
import { Button, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { operatebill } from '@lynx/contract';
import { usePerm } from '../../../components/PermButton.tsx';
import { OperatorBillDetailDrawer } from '../../financial/operate-bill/DetailDrawer.tsx';
import type { ChannelBillRow } from './shared.tsx';

/**
 * Where a bill made from an operating bill came from: a link that opens that operating bill (Financial › Operating
 * bills' detail) in place, for staff who hold that page; its reference as text otherwise.
 */
export function OperatorBillOrigin({ origin }: { origin: NonNullable<ChannelBillRow['operatorBill']> }) {
  const { t } = useTranslation();
  const canOpen = usePerm(operatebill.OperateBillPerm.Page);
  const [open, setOpen] = useState(false);
  const text = t('channelbill.fromOperatorBill', { ref: origin.billRef ?? origin.operatorBillId });
  return (
    <>
      <Tooltip title={t('channelbill.help.fromOperatorBill')}>
        {canOpen ? (
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpen(true)} data-testid={`channel-bill-origin-${origin.operatorBillId}`}>{text}</Button>
        ) : (
          <Typography.Text>{text}</Typography.Text>
        )}
      </Tooltip>
      {canOpen && <OperatorBillDetailDrawer operatorBillId={open ? origin.operatorBillId : null} onClose={() => setOpen(false)} />}
    </>
  );
}
