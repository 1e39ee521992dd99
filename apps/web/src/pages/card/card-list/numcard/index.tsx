import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Col, DatePicker, Empty, Form, Input, Radio, Result, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { CardState, Operator, carddetail, formatDateTime, type BodyOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { cardFilters } from '../list/index.tsx';
import { useCardSelection } from '../selection.ts';

type Selection = BodyOf<typeof carddetail.assignCards>['selection'];
type Mode = 'transfer' | 'distribute';
const { AllocationStatus, AllocationInitialState, CARD_SELECTION_MAX } = carddetail;
const STATUS_COLORS: Record<number, string> = { 1: 'default', 2: 'processing', 3: 'success', 4: 'error' };

/**
 * /card/card-list/numcard/:salesorder?/:operatorsId?: transfer cards from the platform stock to a customer
 * (staff) or distribute them inside a customer tree, chosen by the card list selection, by search filters or by
 * ICCID ranges. The count comes first; more than 10,000 cards is refused. Optionally a plan and an initial
 * state; the change runs as a job, all cards or none.
 */
export default function NumcardPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { operatorsId } = useParams();
  const picked = useCardSelection((s) => s.iccids);
  const N = (k: string, o?: Record<string, unknown>) => t(`carddetail.numcard.${k}`, o);
  const [form] = Form.useForm();
  const [filterForm] = Form.useForm();
  const [by, setBy] = useState<Selection['by']>(picked.length ? 'list' : operatorsId ? 'filter' : 'range');
  const [count, setCount] = useState<{ selectNum: number; ineligible: number; key: string } | null>(null);
  const [counting, setCounting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [allocationId, setAllocationId] = useState<string | null>(null);

  const params = useQuery({ queryKey: [carddetail.getAssignParams.name], queryFn: ({ signal }) => call(carddetail.getAssignParams, {}, { signal, silent: true }) });
  const mode: Mode = Form.useWatch('mode', form) ?? params.data?.modes[0] ?? 'distribute';
  const custId: number | undefined = Form.useWatch('custId', form);
  const plans = useQuery({
    queryKey: [carddetail.getAssignPlans.name, custId],
    queryFn: ({ signal }) => call(carddetail.getAssignPlans, { custId: custId! }, { signal, silent: true }),
    enabled: custId != null,
  });
  const result = useQuery({
    queryKey: [carddetail.getAssignResult.name, allocationId],
    queryFn: ({ signal }) => call(carddetail.getAssignResult, { allocationId: allocationId! }, { signal }),
    enabled: allocationId != null,
    refetchInterval: (q) => (q.state.data && q.state.data.status >= AllocationStatus.Succeeded ? false : 1000),
  });
  const records = useQuery({ queryKey: [carddetail.getAssignPage.name], queryFn: ({ signal }) => call(carddetail.getAssignPage, { pageSize: 10 }, { signal, silent: true }) });
  useEffect(() => {
    if (result.data && result.data.status >= AllocationStatus.Succeeded) void qc.invalidateQueries({ queryKey: [carddetail.getAssignPage.name] });
  }, [result.data, qc]);
  useEffect(() => {
    if (operatorsId) filterForm.setFieldsValue({ operatorId: Number(operatorsId) });
  }, [operatorsId, filterForm]);
  useEffect(() => {
    const first = params.data?.modes[0];
    if (first && form.getFieldValue('mode') == null) form.setFieldsValue({ mode: first });
  }, [params.data, form]);

  const verb = N(mode === 'transfer' ? 'verbTransfer' : 'verbDistribute');
  const selection = async (): Promise<Selection> => {
    if (by === 'list') return { by, iccids: picked };
    if (by === 'filter') return { by, filters: cardFilters(await filterForm.validateFields()) as Selection['filters'] };
    const v = await form.validateFields(['ranges']);
    return { by, ranges: (v.ranges ?? []).map((r: { start: string; end: string }) => ({ start: r.start.trim(), end: r.end.trim() })) };
  };
  const keyOf = (s: Selection, c: number | undefined, m: Mode) => JSON.stringify([s, c, m]);

  const doCount = async () => {
    setError(null);
    const c = form.getFieldValue('custId');
    if (c == null) return void form.validateFields(['custId']);
    const s = await selection();
    setCounting(true);
    try {
      const r = await call(carddetail.getAssignSelectNum, { mode, custId: c, selection: s }, { silent: true });
      setCount({ ...r, key: keyOf(s, c, mode) });
    } catch (e) {
      setCount(null);
      setError((e as Error).message);
    } finally {
      setCounting(false);
    }
  };

  const submit = async () => {
    const v = await form.validateFields();
    const s = await selection();
    if (!count || count.key !== keyOf(s, v.custId, mode)) return void message.warning(N('countFirst'));
    const cust = params.data?.customers.find((c) => c.custId === v.custId)?.custName ?? '';
    modal.confirm({
      title: t('carddetail.actions.confirmTitle'),
      content: N('confirm', { n: count.selectNum, mode: verb, cust }),
      onOk: async () => {
        try {
          const r = await call(carddetail.assignCards, {
            mode, custId: v.custId, selection: s, expectedNum: count.selectNum, goodsReleaseId: v.goodsReleaseId ?? undefined,
            initialState: v.initialState ?? undefined, remark: v.remark || undefined,
          }, { silent: true });
          setAllocationId(r.allocationId);
          setError(null);
        } catch (e) {
          setError((e as Error).message);
        }
      },
    });
  };

  if (params.error) return <div className="lx-card"><Result status="403" subTitle={(params.error as Error).message || N('notAllowed')} /></div>;
  const res = result.data;
  return (
    <>
      <div className="lx-card">
        <Typography.Title level={5} style={{ marginTop: 0 }}>{N('title')}</Typography.Title>
        {res ? (
          <Result
            status={res.status === AllocationStatus.Succeeded ? 'success' : res.status === AllocationStatus.Failed ? 'error' : 'info'}
            title={res.status === AllocationStatus.Succeeded ? N('done', { n: res.cardCount, cust: res.custName, mode: N(res.mode === 'transfer' ? 'verbTransfer' : 'verbDistribute') })
              : res.status === AllocationStatus.Failed ? N('failed') : N('running', { n: res.cardCount })}
            subTitle={res.error ?? undefined}
            extra={res.status >= AllocationStatus.Succeeded && (
              <Space>
                <Button type="primary" onClick={() => { setAllocationId(null); setCount(null); }}>{N('title')}</Button>
                <Button onClick={() => navigate('/card/card-list/list')}>{t('carddetail.back')}</Button>
              </Space>
            )}
          />
        ) : (
          <Form form={form} layout="vertical" style={{ maxWidth: 980 }} initialValues={{ ranges: [{ start: '', end: '' }] }}
            onValuesChange={() => setError(null)}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="mode" label={N('mode')} extra={N(`modeHint.${mode}`)}>
                  <Radio.Group onChange={() => setCount(null)} options={(params.data?.modes ?? []).map((m) => ({ value: m, label: N(`modes.${m}`) }))} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="custId" label={N('customer')} rules={[{ required: true, message: N('needCustomer') }]}>
                  <Select showSearch optionFilterProp="label" loading={params.isFetching} notFoundContent={<Empty description={N('noCustomers')} />} onChange={() => { setCount(null); form.setFieldValue('goodsReleaseId', undefined); }}
                    options={(params.data?.customers ?? []).map((c) => ({ value: c.custId, label: `${c.custName} · ${N(c.level === 1 ? 'level1' : 'level2')}` }))} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item label={N('by')}>
              <Radio.Group value={by} onChange={(e) => { setBy(e.target.value); setCount(null); }} optionType="button"
                options={(['list', 'filter', 'range'] as const).map((b) => ({ value: b, label: N(`by${b[0].toUpperCase()}${b.slice(1)}.label`) }))} />
            </Form.Item>
            <Card size="small" style={{ marginBottom: 16 }}>
              {by === 'list' && (picked.length ? <Typography.Text>{N('byList.hint', { n: picked.length })}</Typography.Text> : <Alert type="info" showIcon message={N('byList.empty')} />)}
              {by === 'filter' && <FilterForm form={filterForm} lang={lang} onChange={() => setCount(null)} />}
              {by === 'range' && <RangeList onChange={() => setCount(null)} />}
            </Card>
            <Space align="center" wrap style={{ marginBottom: 16 }}>
              <Button onClick={() => void doCount()} loading={counting} disabled={by === 'list' && !picked.length} data-testid="numcard-count">{N('count')}</Button>
              {count && <Tag color="blue" style={{ fontSize: 14, padding: '4px 8px' }}>{N('selectNum', { n: count.selectNum, mode: verb })}</Tag>}
              <Typography.Text type="secondary">{N('max', { max: CARD_SELECTION_MAX })}</Typography.Text>
            </Space>
            {count && count.ineligible > 0 && <Alert style={{ marginBottom: 16 }} type="warning" showIcon message={N('ineligible', { n: count.ineligible })} />}
            {error && <Alert style={{ marginBottom: 16 }} type="error" showIcon message={error} data-testid="numcard-error" />}
            <Typography.Title level={5}>{N('options')}</Typography.Title>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="goodsReleaseId" label={N('plan')} extra={N('planHint')}>
                  <Select allowClear disabled={custId == null} loading={plans.isFetching}
                    options={(plans.data ?? []).map((p) => ({ value: p.goodsReleaseId, label: `${p.name}${p.operatorId ? ` · ${Operator.label(p.operatorId, lang)}` : ''}` }))} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="initialState" label={N('initialState')} extra={N('initialHint')}>
                  <Select allowClear placeholder={N('noChange')} options={AllocationInitialState.options(lang)} />
                </Form.Item>
              </Col>
              <Col xs={24}>
                <Form.Item name="remark" label={N('remark')}><Input maxLength={200} showCount /></Form.Item>
              </Col>
            </Row>
            <Button type="primary" onClick={() => void submit()} disabled={!count || count.selectNum === 0} data-testid="numcard-submit">{N('submit', { mode: verb })}</Button>
          </Form>
        )}
      </div>
      <div className="lx-card">
        <Typography.Title level={5} style={{ marginTop: 0 }}>{N('records')}</Typography.Title>
        <Table size="small" rowKey="allocationId" loading={records.isFetching} dataSource={records.data?.list ?? []} pagination={false} scroll={{ x: 900 }}
          columns={[
            { title: withZoneLabel(N('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
            { title: N('mode'), dataIndex: 'mode', width: 100, render: (v: string) => <span style={{ textTransform: 'capitalize' }}>{N(v === 'transfer' ? 'verbTransfer' : 'verbDistribute')}</span> },
            { title: N('customer'), dataIndex: 'custName', width: 180 },
            { title: N('cards'), dataIndex: 'cardCount', width: 80, align: 'right' },
            { title: t('carddetail.history.plan'), dataIndex: 'planName', width: 160, render: (v: string | null) => v ?? '-' },
            { title: N('initialState'), dataIndex: 'initialState', width: 110, render: (v: number | null) => (v != null ? CardState.label(v, lang) : '-') },
            { title: N('status'), dataIndex: 'status', width: 140, render: (v: number) => <StatusTag enumOf={AllocationStatus} value={v} colors={STATUS_COLORS} /> },
            { title: N('createdBy'), dataIndex: 'createdBy', width: 100 },
            { title: N('error'), dataIndex: 'error', render: (v: string | null) => v ?? '-' },
          ]} />
      </div>
    </>
  );
}

function FilterForm({ form, lang, onChange }: { form: ReturnType<typeof Form.useForm>[0]; lang: 'zh' | 'en'; onChange: () => void }) {
  const { t } = useTranslation();
  const L = (k: string) => t(`carddata.list.${k}`);
  return (
    <>
      <Typography.Paragraph type="secondary">{t('carddetail.numcard.byFilter.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onValuesChange={onChange} component={false}>
        <Row gutter={16}>
          <Col xs={24} md={8}><Form.Item name="iccid" label={L('iccid')} tooltip={L('matchHint')} rules={[{ pattern: /^\d{1,20}$/, message: L('digitsOnly') }]}><Input allowClear maxLength={20} /></Form.Item></Col>
          <Col xs={24} md={8}><Form.Item name="states" label={L('state')}><Select mode="multiple" allowClear options={CardState.options(lang)} placeholder={t('common.all')} /></Form.Item></Col>
          <Col xs={24} md={8}><Form.Item name="operatorId" label={L('operator')}><Select allowClear options={Operator.options(lang)} placeholder={t('common.all')} /></Form.Item></Col>
          <Col xs={24} md={8}><Form.Item name="batch" label={L('batch')}><Input allowClear maxLength={64} placeholder={L('batchHint')} /></Form.Item></Col>
          <Col xs={24} md={8}><Form.Item name="activated" label={withZoneLabel(L('activatedRange'))}><DatePicker.RangePicker style={{ width: '100%' }} /></Form.Item></Col>
        </Row>
      </Form>
    </>
  );
}

function RangeList({ onChange }: { onChange: () => void }) {
  const { t } = useTranslation();
  const R = (k: string) => t(`carddetail.numcard.byRange.${k}`);
  const digits = { pattern: /^\d{19,20}$/, message: t('carddata.list.digitsOnly') + ' (19-20)' };
  return (
    <>
      <Typography.Paragraph type="secondary">{R('hint')}</Typography.Paragraph>
      <Form.List name="ranges">
        {(fields, { add, remove }) => (
          <>
            {fields.map((f) => (
              <Space key={f.key} align="start" wrap>
                <Form.Item name={[f.name, 'start']} rules={[{ required: true, message: R('start') }, digits]}><Input placeholder={R('start')} maxLength={20} style={{ width: 230 }} onChange={onChange} /></Form.Item>
                <span style={{ lineHeight: '32px' }}>~</span>
                <Form.Item name={[f.name, 'end']} rules={[{ required: true, message: R('end') }, digits]}><Input placeholder={R('end')} maxLength={20} style={{ width: 230 }} onChange={onChange} /></Form.Item>
                {fields.length > 1 && <Button icon={<DeleteOutlined />} onClick={() => { remove(f.name); onChange(); }} aria-label="remove" />}
              </Space>
            ))}
            {fields.length < carddetail.CARD_RANGES_MAX && <div><Button icon={<PlusOutlined />} onClick={() => add({ start: '', end: '' })}>{R('add')}</Button></div>}
          </>
        )}
      </Form.List>
    </>
  );
}
