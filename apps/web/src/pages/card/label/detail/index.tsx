import { Button, Space, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { CardState, Operator, cardcat, formatDateTime, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { call } from '../../../../request/http.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { STATE_COLORS } from '../../card-list/list/index.tsx';
import { IccidLink } from '../../card-list/selectionTools.tsx';
import { LABEL_LIST_PATH, LabelTag } from '../shared.tsx';
import { useDeleteLabel } from '../useDeleteLabel.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type CardRow = ResponseOf<typeof cardcat.getLabelCardPage>['list'][number];
const P = cardcat.CardCatalogPerm;

/** /card/label/detail/:labelId: the label and the cards carrying it that the caller may see (paged). */
export default function LabelDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const tabKey = useLocation().pathname;
  const labelId = Number(useParams().labelId);
  const label = useQuery({
    queryKey: [cardcat.getLabelDetail.name, labelId],
    queryFn: ({ signal }) => call(cardcat.getLabelDetail, { labelId }, { signal, silent: true }),
    enabled: Number.isInteger(labelId) && labelId > 0,
  });
  const cards = useSearchTable(cardcat.getLabelCardPage, { fixed: { labelId } });
  const canEdit = usePerm(P.LabelEdit);
  const canDelete = usePerm(P.LabelDelete);
  const del = useDeleteLabel(() => {
    useTabs.getState().close(tabKey);
    void navigate(LABEL_LIST_PATH);
  });
  const L = (k: string) => t(`cardcat.label.${k}`);
  const T = (k: string) => t(`cardcat.testCard.${k}`);
  const l = label.data;
  usePageTitle(l?.name);

  return (
    <DetailPage
      loading={label.isLoading}
      error={!Number.isInteger(labelId) || labelId <= 0 ? true : (label.error ?? (label.isSuccess && !l ? true : undefined))}
      title={l ? <LabelTag name={l.name} colour={l.colour} /> : L('title')}
      extra={
        l?.editable && (
          <Space>
            {canEdit && <Button onClick={() => void navigate(`/card/label/edit/${l.labelId}`)}>{L('edit')}</Button>}
            {canDelete && <Button danger onClick={() => del(l)}>{L('delete')}</Button>}
          </Space>
        )
      }
      items={
        l
          ? [
              { label: L('name'), value: l.name },
              { label: L('colour'), value: <Space><span style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: l.colour, verticalAlign: 'middle' }} />{l.colour}</Space> },
              { label: L('owner'), value: l.platform ? <Tag color="blue">{L('platform')}</Tag> : (l.custName ?? '-') },
              { label: L('description'), value: l.description ?? '-', span: 3 },
              { label: L('createdBy'), value: l.createdBy },
              { label: withZoneLabel(L('createdAt')), value: formatDateTime(l.createdAt) },
              { label: withZoneLabel(L('updatedAt')), value: formatDateTime(l.updatedAt) },
            ]
          : []
      }
    >
      <SearchTable<CardRow>
        table={cards}
        title={L('cards')}
        rowKey="iccid"
        emptyHint={L('cardsEmpty')}
        fields={[{ name: 'iccid', label: L('iccidSearch') }]}
        columns={[
          { title: 'ICCID', dataIndex: 'iccid', width: 235, render: (v: string) => <IccidLink iccid={v} /> },
          { title: 'MSISDN', dataIndex: 'msisdn', width: 150, render: (v: string | null) => v ?? '-' },
          { title: T('state'), dataIndex: 'state', width: 120, render: (v: number) => <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} /> },
          { title: T('operator'), dataIndex: 'operatorId', width: 130, render: (v: number) => Operator.label(v, lang) },
          { title: T('customer'), dataIndex: 'custName', render: (v: string | null) => v ?? '-' },
          { title: withZoneLabel(t('carddata.list.activatedAt')), dataIndex: 'activatedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        ]}
      />
    </DetailPage>
  );
}
