import { useState } from 'react';
import { Alert, App, Button, Modal, Space, Table, Tag, Typography } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CardState, carddetail, system } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { STATE_COLORS } from './list/index.tsx';

/**
 * QR code download for chosen cards (card list selection or the card detail): shows which cards get a QR code
 * and which are skipped with the reason, then creates a download task (a zip of PNGs).
 */
export function QrDownloadButton({ iccids, block, disabled }: { iccids: string[]; block?: boolean; disabled?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<QrcodeOutlined />} block={block} onClick={() => setOpen(true)} disabled={disabled || !iccids.length} title={iccids.length ? undefined : t('carddetail.qr.selectFirst')} data-testid="qr-button">
        {t('carddetail.actions.qr')}
      </Button>
      {open && <QrModal iccids={iccids} onClose={() => setOpen(false)} />}
    </>
  );
}

function QrModal({ iccids, onClose }: { iccids: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState(false);
  const q = useQuery({
    queryKey: [carddetail.getQrCodeCards.name, iccids, page],
    queryFn: ({ signal }) => call(carddetail.getQrCodeCards, { iccids, current: page, pageSize: 10 }, { signal }),
  });
  const L = (k: string, o?: Record<string, unknown>) => t(`carddetail.qr.${k}`, o);
  const create = async () => {
    setBusy(true);
    try {
      const r = await call(carddetail.exportQrCodes, { iccids });
      void qc.invalidateQueries({ queryKey: [system.getDownloadTaskListPage.name] });
      // the header badge follows the new task (and tells when it is ready)
      void qc.invalidateQueries({ queryKey: [system.getDownloadBadge.name] });
      message.success({
        content: (
          <span>
            {L('created', { n: r.included })} {r.skippedMessage ? L('skippedNote', { n: r.skipped, msg: r.skippedMessage }) : ''}{' '}
            <a onClick={() => navigate('/card/downloadtask/list')}>{L('goDownloads')}</a>
          </span>
        ),
        duration: 8,
      });
      onClose();
    } catch {
      /* shown by the request layer */
    } finally {
      setBusy(false);
    }
  };
  const d = q.data;
  return (
    <Modal open title={L('title')} onCancel={onClose} width={720} destroyOnHidden
      footer={<Space><Button onClick={onClose}>{t('common.cancel')}</Button><Button type="primary" loading={busy} disabled={!d?.included} onClick={() => void create()}>{L('confirm')}</Button></Space>}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{L('encodes')}</Typography.Text>
        {d && (
          <Space>
            <Tag color="success">{L('included', { n: d.included })}</Tag>
            {d.skipped > 0 && <Tag color="warning">{L('skipped', { n: d.skipped })}</Tag>}
          </Space>
        )}
        {d && d.included === 0 && <Alert type="warning" showIcon message={d.list.find((r) => r.reason)?.reason} />}
        <Table size="small" rowKey="iccid" loading={q.isFetching} dataSource={d?.list ?? []}
          pagination={{ current: page, pageSize: 10, total: d?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          columns={[
            { title: t('carddetail.f.iccid'), dataIndex: 'iccid', width: 200 },
            { title: t('carddetail.f.state'), dataIndex: 'state', width: 110, render: (v: number | null) => <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} /> },
            { title: L('reason'), dataIndex: 'reason', render: (v: string | null, r) => (r.included ? <Tag color="success">{L('ok')}</Tag> : v) },
          ]} />
      </Space>
    </Modal>
  );
}
