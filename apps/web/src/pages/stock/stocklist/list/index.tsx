import { useState } from 'react';
import { App, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Operator, StockBalanceType, StockMatchState, StockOpType, StockOutState, stock, type Lang } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton } from '../../../../components/PermButton.tsx';
import { stockColumns, type StockRow } from '../shared.tsx';
import { BatchUpdateModal } from '../BatchUpdateModal.tsx';
import { OpModal } from '../../operationList/OpModal.tsx';

const { StockPerm } = stock;

/**
 * /stock/stocklist/list (11010000): the physical stock with its filters, the three-code export, batch update of the
 * ticked items, and the stock operations (match, out, scrap) on the ticked items or on everything the filters match.
 */
export default function StockList() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const table = useSearchTable(stock.getStockPage);
  const [selected, setSelected] = useState<string[]>([]);
  const [updating, setUpdating] = useState<string[] | null>(null);
  const [op, setOp] = useState<number | null>(null);
  const locations = useQuery({
    queryKey: [stock.getStockLocations.name],
    queryFn: ({ signal }) => call(stock.getStockLocations, {}, { signal, silent: true }),
  });

  const fields: SearchField[] = [
    { name: 'iccid', label: T('iccid'), placeholder: T('iccidPlaceholder') },
    { name: 'imsi', label: T('imsi') },
    { name: 'msisdn', label: T('msisdn') },
    { name: 'matchState', label: T('matchState'), type: 'enum', enumOf: StockMatchState },
    { name: 'outState', label: T('outState'), type: 'enum', enumOf: StockOutState },
    { name: 'location', label: T('location'), type: 'select', options: (locations.data ?? []).map((l) => ({ value: l, label: l })) },
    { name: 'operatorId', label: T('operator'), type: 'enum', enumOf: Operator },
    { name: 'balanceType', label: T('balanceType'), type: 'enum', enumOf: StockBalanceType },
    { name: 'sn', label: T('sn') },
  ];
  const { current: _c, pageSize: _p, ...filter } = table.body;
  const needSelection = (f: () => void) => () => (selected.length ? f() : message.warning(T('selectFirst')));

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('listIntro')}</Typography.Paragraph>
      <SearchTable<StockRow>
        table={table}
        title={<Space>{T('listTitle')}{selected.length > 0 && <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }}>{T('selected', { count: selected.length })}</Typography.Text>}</Space>}
        rowKey="iccid"
        fields={fields}
        exportVia={stock.exportStockCodes}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), preserveSelectedRowKeys: true }}
        toolbar={(
          <>
            <PermButton perm={StockPerm.List} onClick={needSelection(() => setUpdating(selected))} data-testid="stock-batch-update">{T('batchUpdate')}</PermButton>
            <PermButton perm={StockPerm.Operations} onClick={() => setOp(StockOpType.Match)} data-testid="stock-match">{T('match')}</PermButton>
            <PermButton perm={StockPerm.Operations} onClick={() => setOp(StockOpType.Out)} data-testid="stock-out">{T('out')}</PermButton>
            <PermButton perm={StockPerm.Operations} danger onClick={() => setOp(StockOpType.Scrap)} data-testid="stock-scrap">{T('scrap')}</PermButton>
          </>
        )}
        columns={stockColumns(t, lang)}
        scrollX={1600}
      />
      <BatchUpdateModal iccids={updating} onClose={() => setUpdating(null)} onDone={() => { setUpdating(null); void table.refresh(); }} />
      <OpModal
        open={op !== null}
        type={op ?? undefined}
        iccids={selected.length ? selected : undefined}
        filter={selected.length ? undefined : filter}
        onClose={() => setOp(null)}
        onStarted={(batchId) => { setOp(null); setSelected([]); navigate(`/stock/operationList/detail/${batchId}`); }}
      />
    </>
  );
}
