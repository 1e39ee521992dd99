import { useEffect, useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Modal, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CustomerLevel, formatDateTime, formatMoney, plan, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import type { PlanRow } from '../shared.tsx';

/** Unpublishes a plan from the ticked customers (or all), after a confirmation. */
export function UnpublishModal({ record, onClose, onDone }: { record: PlanRow | null; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message, modal } = App.useApp();
  const [selected, setSelected] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const releases = useQuery({
    queryKey: [plan.getBasicPlanReleases.name, { goodsReleaseId: record?.goodsReleaseId }],
    queryFn: ({ signal }) => call(plan.getBasicPlanReleases, { goodsReleaseId: record!.goodsReleaseId }, { signal, silent: true }),
    enabled: !!record,
  });
  useEffect(() => {
    setSelected([]);
    setError(null);
  }, [record]);

  const submit = () =>
    modal.confirm({
      title: t('plan.publish.unpublishTitle', { name: record!.name }),
      content: selected.length ? t('plan.publish.unpublishConfirm', { count: selected.length }) : t('plan.publish.unpublishAllConfirm'),
      okText: t('plan.publish.ok2'), okButtonProps: { danger: true }, cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await call(plan.unpublishBasicPlan, { goodsReleaseId: record!.goodsReleaseId, ...(selected.length && { custIds: selected }) }, { silent: true });
          message.success(<LiveText k="common.operationSuccess" />);
          onDone();
          onClose();
        } catch (e) {
          setError(e instanceof Error ? e.message : String(e));
        }
      },
    });

  return (
    <Modal
      open={!!record}
      title={record && t('plan.publish.unpublishTitle', { name: record.name })}
      onCancel={onClose}
      onOk={submit}
      okText={t('plan.publish.ok2')}
      okButtonProps={{ danger: true, disabled: !releases.data?.length }}
      cancelText={t('common.cancel')}
      width={720}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('plan.publish.unpublishHint')} style={{ marginBottom: 12 }} />
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="unpublish-error" />}
      <Table
        size="small"
        rowKey="custId"
        loading={releases.isFetching}
        dataSource={releases.data ?? []}
        pagination={false}
        scroll={{ y: 300 }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        locale={{ emptyText: t('plan.publish.noneReleased') }}
        columns={[
          { title: t('plan.changes.custName'), dataIndex: 'custName' },
          { title: t('plan.publish.level'), dataIndex: 'level', width: 110, render: (v: number) => CustomerLevel.label(v, lang) },
          { title: t('plan.publish.salePrice'), dataIndex: 'salePrice', width: 130, align: 'right', render: (v: string) => formatMoney(v) },
          { title: t('plan.publish.releasedBy'), dataIndex: 'releasedBy', width: 110 },
          { title: withZoneLabel(t('plan.publish.releasedAt')), dataIndex: 'releasedAt', width: 170, render: (v: string) => formatDateTime(v, lang) },
        ]}
      />
    </Modal>
  );
}
