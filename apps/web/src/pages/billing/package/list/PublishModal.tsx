import { useEffect, useMemo, useRef, useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { App, Form, Modal, Select, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CustomerLevel, account, formatDateTime, formatMoney, plan, withZoneLabel } from '@lynx/contract';
import { LogicError, call } from '../../../../request/http.ts';
import { required } from '../../../../components/rules.ts';
import type { PlanRow } from '../shared.tsx';

const PICKER_SIZE = 100;

/** Several customers (first or second level), searched on the server by name. */
function CustomerMultiSelect({ value, onChange, exclude, id }: { value?: number[]; onChange?: (v: number[]) => void; exclude: Set<number>; id?: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const body = { current: 1, pageSize: PICKER_SIZE, ...(keyword && { custName: keyword }) };
  const query = useQuery({
    queryKey: [account.getCustomerListPage.name, body],
    queryFn: ({ signal }) => call(account.getCustomerListPage, body, { signal, silent: true }),
  });
  // names seen stay known, so chosen customers keep their labels while another search runs
  const known = useRef(new Map<number, string>());
  const options = useMemo(() => {
    const label = (name: string, level: number) => `${name} · ${CustomerLevel.label(level, lang)}`;
    for (const c of query.data?.list ?? []) known.current.set(c.custId, label(c.custName, c.level));
    const opts = (query.data?.list ?? []).filter((c) => !exclude.has(c.custId)).map((c) => ({ value: c.custId, label: label(c.custName, c.level) }));
    for (const v of value ?? []) if (!opts.some((o) => o.value === v)) opts.unshift({ value: v, label: known.current.get(v) ?? `#${v}` });
    return opts;
  }, [query.data, value, exclude, lang]);
  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      loading={query.isFetching}
      placeholder={t('plan.publish.searchCustomer')}
      notFoundContent={query.isFetching ? t('common.loading') : t('common.empty')}
      style={{ width: '100%' }}
      data-testid="publish-customers"
    />
  );
}

/** Publishes a plan to chosen customers; shows the customers it is already published to. */
export function PublishModal({ record, onClose, onDone }: { record: PlanRow | null; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const [form] = Form.useForm<{ custIds: number[] }>();
  const [busy, setBusy] = useState(false);
  const releases = useQuery({
    queryKey: [plan.getBasicPlanReleases.name, { goodsReleaseId: record?.goodsReleaseId }],
    queryFn: ({ signal }) => call(plan.getBasicPlanReleases, { goodsReleaseId: record!.goodsReleaseId }, { signal, silent: true }),
    enabled: !!record,
  });
  const released = useMemo(() => new Set((releases.data ?? []).map((r) => r.custId)), [releases.data]);
  useEffect(() => {
    if (record) form.resetFields();
  }, [record, form]);

  const submit = async () => {
    let v: { custIds: number[] };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      await call(plan.publishBasicPlan, { goodsReleaseId: record!.goodsReleaseId, custIds: v.custIds }, { silent: true });
      message.success(<LiveText k="common.operationSuccess" />);
      onDone();
      onClose();
    } catch (e) {
      if (e instanceof LogicError) form.setFields([{ name: 'custIds', errors: [e.message] }]);
      else if (e instanceof Error) message.error(e.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={!!record}
      title={record && t('plan.publish.title', { name: record.name })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('plan.publish.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      width={720}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" disabled={busy} style={{ marginTop: 12 }}>
        <Form.Item name="custIds" label={t('plan.publish.customers')} extra={t('plan.publish.customersHint')} rules={[required()]}>
          <CustomerMultiSelect exclude={released} />
        </Form.Item>
      </Form>
      <Typography.Title level={5}>{t('plan.publish.released')}</Typography.Title>
      <Table
        size="small"
        rowKey="custId"
        loading={releases.isFetching}
        dataSource={releases.data ?? []}
        pagination={false}
        scroll={{ y: 240 }}
        locale={{ emptyText: t('plan.publish.noneReleased') }}
        columns={[
          { title: t('plan.changes.custName'), dataIndex: 'custName' },
          { title: t('plan.publish.level'), dataIndex: 'level', width: 110, render: (v: number) => CustomerLevel.label(v, lang) },
          { title: t('plan.publish.salePrice'), dataIndex: 'salePrice', width: 130, align: 'right', render: (v: string) => formatMoney(v) },
          { title: withZoneLabel(t('plan.publish.releasedAt')), dataIndex: 'releasedAt', width: 170, render: (v: string) => formatDateTime(v, lang) },
        ]}
      />
    </Modal>
  );
}
