import { useState } from 'react';
import { Empty, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { network } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { apnColumns, operatorName, useOperatorNames, useOperators, type ApnRow, type OperatorRow } from '../../shared.tsx';

/** One operator's APNs; keyed by operator so paging and filters start fresh on a tab change. */
function OperatorApnTable({ operator, names }: { operator: OperatorRow; names: Map<number, string> }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const table = useSearchTable(network.getApnListPage, { fixed: { operatorId: operator.operatorId } });
  return (
    <SearchTable<ApnRow>
      table={table}
      title={t('operator.byOperator.title', { operator: operatorName(operator, lang) })}
      rowKey="apnId"
      emptyHint={t('operator.byOperator.emptyHint')}
      fields={[{ name: 'apnName', label: t('operator.apn.apnName') }]}
      columns={apnColumns(t, names, { withOperator: false })}
    />
  );
}

/** /operator/operator-apn/list: read-only view of the APNs, one tab per operator. */
export default function OperatorApnList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const operators = useOperators();
  const names = useOperatorNames(operators.data, lang);
  const list = operators.data ?? [];
  const [picked, setPicked] = useState<number | null>(null);
  const current = list.find((o) => o.operatorId === picked) ?? list[0];

  if (!list.length) {
    return (
      <div className="lx-card">
        {operators.isLoading ? <Spin /> : <Empty description={t('operator.byOperator.noOperators')} />}
      </div>
    );
  }
  return (
    <>
      <div className="lx-card" style={{ paddingBottom: 0 }}>
        <Tabs
          activeKey={String(current.operatorId)}
          onChange={(k) => setPicked(Number(k))}
          items={list.map((o) => ({ key: String(o.operatorId), label: t('operator.byOperator.tab', { name: operatorName(o, lang), count: o.apnCount }) }))}
          style={{ marginBottom: 0 }}
        />
      </div>
      <OperatorApnTable key={current.operatorId} operator={current} names={names} />
    </>
  );
}
