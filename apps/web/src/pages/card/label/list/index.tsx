import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { cardcat, formatDateTime, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { LabelTag } from '../shared.tsx';
import { useDeleteLabel } from '../useDeleteLabel.tsx';

type LabelRow = ResponseOf<typeof cardcat.getLabelListPage>['list'][number];
const P = cardcat.CardCatalogPerm;

/** /card/label/list: platform labels and the caller's own; add, edit, delete (with the in-use confirmation), export. */
export default function LabelList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const table = useSearchTable(cardcat.getLabelListPage);
  const canEdit = usePerm(P.LabelEdit);
  const canDelete = usePerm(P.LabelDelete);
  const del = useDeleteLabel();
  const L = (k: string) => t(`cardcat.label.${k}`);

  return (
    <SearchTable<LabelRow>
      table={table}
      title={L('title')}
      rowKey="labelId"
      exportSource={cardcat.getLabelListPage}
      emptyHint={L('emptyHint')}
      toolbar={
        <PermButton perm={P.LabelEdit} type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/card/label/add')} data-testid="label-add">
          {L('add')}
        </PermButton>
      }
      fields={[
        { name: 'name', label: L('name') },
        { name: 'scope', label: L('scope'), type: 'select', options: [{ value: 'platform', label: L('scopePlatform') }, { value: 'own', label: L('scopeOwn') }] },
      ]}
      columns={[
        {
          title: L('name'), dataIndex: 'name', sorter: true, width: 200,
          render: (_: string, r: LabelRow) => <Link to={`/card/label/detail/${r.labelId}`}><LabelTag name={r.name} colour={r.colour} /></Link>,
        },
        { title: L('description'), dataIndex: 'description', ellipsis: true, render: (v: string | null) => v ?? '-' },
        {
          title: L('owner'), dataIndex: 'custName', width: 200,
          render: (v: string | null, r: LabelRow) => (r.platform ? <Tag color="blue">{L('platform')}</Tag> : v ?? '-'),
        },
        { title: L('createdBy'), dataIndex: 'createdBy', width: 130 },
        { title: withZoneLabel(L('updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: 170,
          render: (_: unknown, r: LabelRow) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => void navigate(`/card/label/detail/${r.labelId}`)}>{L('detail')}</Button>
              {r.editable ? (
                <>
                  {canEdit && <Button type="link" size="small" onClick={() => void navigate(`/card/label/edit/${r.labelId}`)}>{L('edit')}</Button>}
                  {canDelete && <Button type="link" size="small" danger onClick={() => del(r)} data-testid={`label-delete-${r.labelId}`}>{L('delete')}</Button>}
                </>
              ) : (
                (canEdit || canDelete) && <Tooltip title={L('readOnlyHint')}><Typography.Text type="secondary" style={{ paddingInline: 7 }}>{L('readOnly')}</Typography.Text></Tooltip>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
