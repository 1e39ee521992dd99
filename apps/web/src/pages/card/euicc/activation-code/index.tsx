import { useState } from 'react';
import { Alert, App, Button, Card, Empty, List, Modal, Space, Typography } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Operator, Perm, euicc, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton } from '../../../../components/PermButton.tsx';
import { ProfileState, operatorLabel, useLang, type EuiccProfileRow } from '../shared.tsx';

const QR_MAX = 100;
type Qr = ResponseOf<typeof euicc.activationQrCodes>;

/**
 * /card/euicc/activation-code (2040000; QR codes 2040001): the downloadable profiles with their activation codes;
 * QR codes of the ticked ones (the QR holds LPA:1$<SM-DP+>$<matching id>, never the ICCID). The server skips profiles
 * whose card is invalidated, retired or frozen, and start-state cards, with the reason.
 */
export default function EuiccActivationCodes() {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const T = (k: string, o?: Record<string, unknown>) => t(`euicc.${k}`, o);
  const table = useSearchTable(euicc.getProfilePage, { fixed: { downloadable: true } });
  const [picked, setPicked] = useState<string[]>([]);
  const [qr, setQr] = useState<Qr | null>(null);
  const [busy, setBusy] = useState(false);
  const make = async () => {
    if (!picked.length) return void message.warning(T('selectFirst'));
    if (picked.length > QR_MAX) return void message.warning(T('qrMax', { max: QR_MAX }));
    setBusy(true);
    try {
      setQr(await call(euicc.activationQrCodes, { iccids: picked }));
      setPicked([]);
      void table.refresh();
    } catch { /* shown by the request layer */ } finally { setBusy(false); }
  };

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('codeIntro')}</Typography.Paragraph>
      <SearchTable<EuiccProfileRow>
        table={table} rowKey="iccid" title={T('codeTitle')}
        emptyHint={<Empty description={T('emptyCodes')}><Link to="/card/euicc/list">{T('goList')}</Link></Empty>}
        rowSelection={{ selectedRowKeys: picked, onChange: (keys) => setPicked(keys.map(String)), preserveSelectedRowKeys: true }}
        toolbar={(
          <PermButton perm={Perm.CardEuiccNumber} type="primary" icon={<QrcodeOutlined />} loading={busy} onClick={() => void make()} data-testid="euicc-make-qr">
            {T('makeQr')}{picked.length ? ` (${picked.length})` : ''}
          </PermButton>
        )}
        fields={[
          { name: 'iccid', label: 'ICCID', placeholder: T('iccidPlaceholder') },
          { name: 'eid', label: 'EID', placeholder: T('eidPlaceholder') },
          { name: 'operatorId', label: T('operator'), type: 'enum', enumOf: Operator },
        ]}
        columns={[
          { title: T('iccid'), dataIndex: 'iccid', key: 'iccid', width: 200 },
          { title: 'EID', dataIndex: 'eid', key: 'eid', width: 320 },
          { title: T('operator'), dataIndex: 'operatorId', key: 'operatorId', width: 130, render: (v: number) => operatorLabel(v, lang) },
          { title: T('state'), dataIndex: 'state', key: 'state', width: 130, render: (_: unknown, p) => <ProfileState p={p} /> },
          {
            title: T('activationCode'), dataIndex: 'activationCode', key: 'activationCode',
            render: (v: string | null) => (v ? <Typography.Text copyable={{ tooltips: [T('copy'), T('copied')] }} style={{ fontFamily: 'monospace', fontSize: 12 }}>{v}</Typography.Text> : '-'),
          },
        ]}
      />
      <Modal open={qr != null} onCancel={() => setQr(null)} footer={<Button onClick={() => setQr(null)}>{t('common.close')}</Button>} width={760}
        title={T('qrTitle', { count: qr?.codes.length ?? 0 })}>
        {qr && qr.skipped.length > 0 && (
          <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={T('qrSkipped', { count: qr.skipped.length })} data-testid="euicc-qr-skipped"
            description={<List size="small" dataSource={qr.skipped} renderItem={(s) => <List.Item>{lang === 'en' ? s.reasonEn : s.reasonZh}</List.Item>} />} />
        )}
        <Space wrap align="start" data-testid="euicc-qr-codes">
          {qr?.codes.map((c) => (
            <Card key={c.iccid} size="small" style={{ width: 220 }} title={c.iccid}>
              <img src={c.png} alt={c.activationCode} width={190} height={190} />
              <Typography.Paragraph copyable style={{ fontSize: 11, wordBreak: 'break-all', marginBottom: 4 }}>{c.activationCode}</Typography.Paragraph>
              <a href={c.png} download={`${c.iccid}.png`}>{T('downloadPng')}</a>
            </Card>
          ))}
        </Space>
      </Modal>
    </>
  );
}

