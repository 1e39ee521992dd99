import { useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Popconfirm, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CardFormFactor, CardGrade, cardcat, formatDateTime, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { call } from '../../../../request/http.ts';
import { CardTypeModal, type CardTypeRow } from './CardTypeModal.tsx';

const P = cardcat.CardCatalogPerm;

/** /card/cardtype/list: the card type catalogue; operator staff add, edit and delete (not while cards use a type). */
export default function CardTypeList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const qc = useQueryClient();
  const table = useSearchTable(cardcat.getCardTypeListPage);
  const canEdit = usePerm(P.CardTypeAdd);
  const canDelete = usePerm(P.CardTypeDelete);
  const [editing, setEditing] = useState<{ record: CardTypeRow | null } | null>(null);
  const C = (k: string, o?: Record<string, unknown>) => t(`cardcat.cardType.${k}`, o);
  const nameOf = (r: CardTypeRow) => (lang === 'zh' ? r.nameZh : r.nameEn);

  const changed = () => {
    void qc.invalidateQueries({ queryKey: [cardcat.getCardTypeListPage.name] });
    void qc.invalidateQueries({ queryKey: [cardcat.getCardTypeOptions.name] });
  };
  const remove = async (r: CardTypeRow) => {
    try {
      await call(cardcat.deleteCardType, { cardTypeId: r.cardTypeId });
      message.success(<LiveText k="common.operationSuccess" />);
      changed();
    } catch {
      /* the refusal (a type in use) is shown by the request layer */
    }
  };

  return (
    <>
      {!canEdit && !canDelete && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={C('readOnlyHint')} />}
      <SearchTable<CardTypeRow>
        table={table}
        title={C('title')}
        rowKey="cardTypeId"
        emptyHint={C('emptyHint')}
        toolbar={
          <PermButton perm={P.CardTypeAdd} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })} data-testid="cardtype-add">
            {C('add')}
          </PermButton>
        }
        fields={[
          { name: 'name', label: C('name') },
          { name: 'formFactor', label: C('formFactor'), type: 'enum', enumOf: CardFormFactor },
          { name: 'grade', label: C('grade'), type: 'enum', enumOf: CardGrade },
        ]}
        columns={[
          // both names side by side on purpose (staff keep the catalogue in both languages): each marked with its language
          { title: C('nameZh'), dataIndex: 'nameZh', sorter: true, width: 180, render: (v: string) => <span lang="zh">{v}</span> },
          { title: C('nameEn'), dataIndex: 'nameEn', sorter: true, width: 180, render: (v: string) => <span lang="en">{v}</span> },
          { title: C('formFactor'), dataIndex: 'formFactor', width: 190, render: (v: number) => CardFormFactor.label(v, lang) },
          {
            title: C('grade'), dataIndex: 'grade', width: 120,
            render: (v: number) => <StatusTag enumOf={CardGrade} value={v} colors={{ [CardGrade.Consumer]: 'default', [CardGrade.Industrial]: 'blue', [CardGrade.Automotive]: 'purple' }} />,
          },
          { title: C('temperature'), key: 'temp', width: 150, render: (_: unknown, r: CardTypeRow) => C('tempRange', { min: r.tempMin, max: r.tempMax }) },
          { title: C('description'), dataIndex: 'description', ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: withZoneLabel(C('createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          ...(canEdit || canDelete
            ? [{
                title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 130,
                render: (_: unknown, r: CardTypeRow) => (
                  <Space size={0}>
                    {canEdit && <Button type="link" size="small" onClick={() => setEditing({ record: r })}>{C('edit')}</Button>}
                    {canDelete && (
                      <Popconfirm title={C('deleteConfirm', { name: nameOf(r) })} okText={C('delete')} okButtonProps={{ danger: true }} cancelText={t('common.cancel')} onConfirm={() => remove(r)}>
                        <Button type="link" size="small" danger data-testid={`cardtype-delete-${r.cardTypeId}`}>{C('delete')}</Button>
                      </Popconfirm>
                    )}
                  </Space>
                ),
              }]
            : []),
        ]}
      />
      <CardTypeModal open={!!editing} record={editing?.record ?? null} onClose={() => setEditing(null)} onSaved={changed} />
    </>
  );
}
