import { useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApnStatus, ApnType, network } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { apnColumns, operatorName, useOperatorNames, useOperators, type ApnRow } from '../../shared.tsx';
import { ApnModal } from './ApnModal.tsx';

const PERM_ADD = 7010001;
const PERM_EDIT = 7010002;
const PERM_EXPORT = 7010003;

/** /operator/apn/list: APNs of all operators; add, edit, export (spec: Operator). */
export default function ApnList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const qc = useQueryClient();
  const table = useSearchTable(network.getApnListPage);
  const operators = useOperators();
  const names = useOperatorNames(operators.data, lang);
  const canEdit = usePerm(PERM_EDIT);
  const canExport = usePerm(PERM_EXPORT);
  const [editing, setEditing] = useState<{ record: ApnRow | null } | null>(null);

  const saved = () => {
    void qc.invalidateQueries({ queryKey: [network.getApnListPage.name] });
    void qc.invalidateQueries({ queryKey: [network.getOperatorList.name] }); // apnCount
  };

  return (
    <>
      <SearchTable<ApnRow>
        table={table}
        title={t('operator.apn.title')}
        rowKey="apnId"
        exportSource={canExport ? network.getApnListPage : undefined}
        emptyHint={t('operator.apn.emptyHint')}
        toolbar={
          <PermButton perm={PERM_ADD} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })} data-testid="apn-add">
            {t('operator.apn.add')}
          </PermButton>
        }
        fields={[
          { name: 'apnName', label: t('operator.apn.apnName') },
          {
            name: 'operatorId', label: t('operator.apn.operator'), type: 'select',
            options: (operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) })),
          },
          { name: 'apnType', label: t('operator.apn.apnType'), type: 'enum', enumOf: ApnType },
          { name: 'status', label: t('operator.apn.status'), type: 'enum', enumOf: ApnStatus },
        ]}
        columns={[
          ...apnColumns(t, names, { withOperator: true }),
          ...(canEdit
            ? [{
                title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 90,
                render: (_: unknown, r: ApnRow) => <Button type="link" size="small" onClick={() => setEditing({ record: r })}>{t('common.edit')}</Button>,
              }]
            : []),
        ]}
      />
      <ApnModal
        open={!!editing}
        record={editing?.record ?? null}
        operators={operators.data ?? []}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
    </>
  );
}
