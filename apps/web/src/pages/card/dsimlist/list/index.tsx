import { useState } from 'react';
import { App, Button, Modal, Space, Tag, Typography } from 'antd';
import { ImportOutlined, SettingOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DsimSwitchState, Operator, STAFF_ROLE_TYPES, dsim, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { LiveText } from '../../../../request/LiveText.tsx';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { OperatorTag, StrategySelect, SWITCH_COLORS, detailPath, useLang, useStrategies, type DsimRow } from '../shared.tsx';
import { StrategyDrawer } from '../StrategyDrawer.tsx';
import { DsimImportModal } from '../ImportModal.tsx';
import { DsimImportRecords } from '../ImportRecords.tsx';

/** Search form values → filters: the strategy "manual only" is 0, supplier as a boolean. */
export function dsimFilters(v: Record<string, any>): Record<string, unknown> {
  const { isSupplierCard, ...rest } = v as { isSupplierCard?: string } & Record<string, unknown>;
  return { ...rest, ...(isSupplierCard ? { isSupplierCard: isSupplierCard === 'yes' } : {}) };
}

/**
 * /card/dsimlist/list (2090000): super SIMs by SN with their profiles per operator, the current operator and strategy;
 * tick rows to choose a strategy; OEM strategies; staff with the import code import super SIMs and see the imports.
 */
export default function DsimList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const lang = useLang();
  const T = (k: string, o?: Record<string, unknown>) => t(`dsim.${k}`, o);
  const table = useSearchTable(dsim.getDsimPage, { transform: dsimFilters });
  const strategies = useStrategies();
  const staff = STAFF_ROLE_TYPES.includes(Number(useSession((s) => s.roleId)));
  const canImport = usePerm(2070000) && staff;
  const [selected, setSelected] = useState<string[]>([]);
  const [choosing, setChoosing] = useState(false);
  const [choice, setChoice] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [drawer, setDrawer] = useState<'strategies' | 'imports' | null>(null);
  const [importing, setImporting] = useState(false);

  const saveChoice = async () => {
    setBusy(true);
    try {
      await call(dsim.chooseStrategy, { snNumbers: selected, strategyId: choice });
      message.success(<LiveText k="dsim.strategySaved" />);
      setChoosing(false);
      setSelected([]);
      await qc.invalidateQueries({ queryKey: [dsim.getDsimPage.name] });
      await qc.invalidateQueries({ queryKey: [dsim.getOemStrategyPage.name] });
    } catch { /* shown */ } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <SearchTable<DsimRow>
        table={table}
        title={T('title')}
        rowKey="sn"
        emptyHint={T('emptyHint')}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), preserveSelectedRowKeys: true }}
        toolbar={(
          <>
            <Button onClick={() => (selected.length ? (setChoice(null), setChoosing(true)) : message.warning(T('selectFirst')))} data-testid="dsim-choose">
              {T('chooseStrategy')}{selected.length ? ` (${selected.length})` : ''}
            </Button>
            <Button icon={<SettingOutlined />} onClick={() => setDrawer('strategies')} data-testid="dsim-strategies">{T('strategies.button')}</Button>
            {canImport && <Button icon={<UnorderedListOutlined />} onClick={() => setDrawer('imports')}>{T('import.records')}</Button>}
            {canImport && <Button type="primary" icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="dsim-import">{T('import.button')}</Button>}
          </>
        )}
        fields={[
          { name: 'snNumber', label: T('sn') },
          { name: 'iccid', label: T('iccid'), placeholder: T('iccidPlaceholder') },
          { name: 'operator', label: T('currentOperator'), type: 'enum', enumOf: Operator },
          {
            name: 'strategyId', label: T('strategy'), type: 'select',
            options: [{ value: 0, label: T('noStrategy') }, ...(strategies.data?.list ?? []).map((s) => ({ value: s.strategyId, label: s.strategyName }))],
          },
          { name: 'isSupplierCard', label: T('supplier'), type: 'select', options: [{ value: 'yes', label: T('yes') }, { value: 'no', label: T('no') }] },
        ]}
        columns={[
          {
            title: T('sn'), dataIndex: 'sn', key: 'sn', fixed: 'left', width: 150,
            render: (v: string, r) => <Space size={4}><Link to={detailPath(r)} data-testid="dsim-sn-link">{v}</Link>{r.isSupplierCard && <Tag color="gold">{T('supplierYes')}</Tag>}</Space>,
          },
          { title: T('customer'), dataIndex: 'custName', key: 'custName', width: 180, ellipsis: true, render: (v: string | null) => v ?? T('stock') },
          { title: T('currentOperator'), dataIndex: 'currentOperatorId', key: 'currentOperatorId', width: 120, render: (v: number) => <OperatorTag value={v} /> },
          { title: T('currentIccid'), dataIndex: 'currentIccid', key: 'currentIccid', width: 200 },
          {
            title: T('members'), key: 'members', width: 300,
            render: (_: unknown, r) => (
              <Space orientation="vertical" size={0}>
                {r.members.map((m) => (
                  <Typography.Text key={m.operatorId} type={m.current ? undefined : 'secondary'} style={{ fontSize: 12 }}>
                    {Operator.label(m.operatorId, lang)}: {m.iccid}
                  </Typography.Text>
                ))}
              </Space>
            ),
          },
          { title: T('strategy'), dataIndex: 'strategyName', key: 'strategyName', width: 160, render: (v: string | null) => v ?? <Typography.Text type="secondary">{T('noStrategy')}</Typography.Text> },
          { title: T('lastSwitch'), dataIndex: 'lastSwitchState', key: 'lastSwitchState', width: 110, render: (v: number | null) => <StatusTag enumOf={DsimSwitchState} value={v} colors={SWITCH_COLORS} /> },
          { title: withZoneLabel(T('switchedAt')), dataIndex: 'switchedAt', key: 'switchedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 90,
            render: (_: unknown, r) => <Button type="link" size="small" onClick={() => navigate(detailPath(r))}>{T('detail')}</Button>,
          },
        ]}
      />
      <Modal open={choosing} title={T('chooseStrategyTitle', { count: selected.length })} onCancel={() => setChoosing(false)} onOk={() => void saveChoice()}
        confirmLoading={busy} destroyOnHidden>
        <Typography.Paragraph type="secondary">{T('chooseStrategyHint')}</Typography.Paragraph>
        <StrategySelect value={choice} onChange={setChoice} testId="dsim-choose-select" />
      </Modal>
      <StrategyDrawer open={drawer === 'strategies'} onClose={() => setDrawer(null)} />
      {canImport && <DsimImportRecords open={drawer === 'imports'} onClose={() => setDrawer(null)} />}
      {canImport && (
        <DsimImportModal
          open={importing} onClose={() => setImporting(false)}
          onDone={(b) => {
            setImporting(false);
            void qc.invalidateQueries({ queryKey: [dsim.getDsimPage.name] });
            void qc.invalidateQueries({ queryKey: [dsim.getDsimImportPage.name] });
            navigate(`/card/import-info/dsimdetail/${b.batchId}`);
          }}
        />
      )}
    </>
  );
}
