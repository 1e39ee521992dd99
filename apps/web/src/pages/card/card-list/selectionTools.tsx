import { useState } from 'react';
import { Button, Typography } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { carddetail } from '@lynx/contract';
import { PermButton } from '../../../components/PermButton.tsx';
import { QrDownloadButton } from './QrDownload.tsx';
import { useCardSelection } from './selection.ts';

/** The card list's row checkboxes and the buttons that use them: allocation (numcard) and QR code download. */
export function useCardListSelection() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [keys, setKeys] = useState<string[]>([]);
  const hand = useCardSelection((s) => s.set);
  return {
    rowSelection: {
      selectedRowKeys: keys, preserveSelectedRowKeys: true,
      onChange: (k: React.Key[]) => setKeys(k.map(String).slice(0, carddetail.CARD_SELECTION_MAX)),
    },
    toolbar: (
      <>
        {keys.length > 0 && (
          <Button type="link" onClick={() => setKeys([])}>{t('carddetail.list.selected', { n: keys.length })} ×</Button>
        )}
        <PermButton perm={carddetail.CardDetailPerm.Allocate} icon={<SwapOutlined />} data-testid="allocate-button"
          onClick={() => { hand(keys); navigate('/card/card-list/numcard'); }}>
          {t('carddetail.list.allocate')}
        </PermButton>
        <QrDownloadButton iccids={keys} />
      </>
    ),
  };
}

/** An ICCID that opens the card's detail page. */
export const IccidLink = ({ iccid }: { iccid: string }) => (
  <Typography.Text copyable={{ text: iccid }} style={{ whiteSpace: 'nowrap' }}><Link to={`/card/card-list/detail/${iccid}`}>{iccid}</Link></Typography.Text>
);
