import { useEffect, useState } from 'react';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Operator, StockBalanceType, StockOpType, stock, type BodyOf, type Lang, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

type Validated = ResponseOf<typeof stock.validateStockOp>;
type Item = ResponseOf<typeof stock.getStockOpItemPage>['list'][number];

/** "ICCID,IMSI,MSISDN,SN" lines → stock-in rows (tabs, semicolons and spaces separate too). */
export function parseInRows(text: string): { iccid: string; imsi?: string; msisdn?: string; sn?: string }[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((l) => {
    // a separator keeps its place ("ICCID,,MSISDN" has no IMSI); without one, spaces separate
    const [iccid = '', imsi, msisdn, sn] = l.split(/[,\t;，]/.test(l) ? /\s*[,\t;，]\s*/ : /\s+/).map((x) => x.trim());
    return { iccid, ...(imsi ? { imsi } : {}), ...(msisdn ? { msisdn } : {}), ...(sn ? { sn } : {}) };
  });
}

export const parseIccids = (text: string) => text.split(/[\s,;，]+/).map((s) => s.trim()).filter(Boolean);

/**
 * A stock operation in two steps: the form is validated by the server (nothing changes; the counts and the invalid
 * items with their reasons are shown), then confirmed (a confirmation dialog) and run as a durable batch.
 */
export function OpModal({ open, type: fixedType, iccids, filter, validated, onClose, onStarted }: {
  open: boolean;
  /** a stock-in validated from a file (FileInModal): the dialog opens on its result, to confirm or cancel */
  validated?: Validated | null;
  /** the operation, when the caller chose it (the stock list's buttons) */
  type?: number;
  /** the items ticked on the stock list */
  iccids?: string[];
  /** the stock list's filters, when no item is ticked */
  filter?: Record<string, unknown>;
  onClose: () => void;
  onStarted: (batchId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const { modal, message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Validated | null>(null);
  const [invalid, setInvalid] = useState<Item[]>([]);
  const chosenType = Form.useWatch('type', form) as number | undefined;
  const type = fixedType ?? chosenType ?? StockOpType.In;
  const preset = iccids?.length ? 'rows' : filter ? 'filter' : null;

  const showResult = async (r: Validated) => {
    setResult(r);
    if (r.invalid > 0) {
      const items = await call(stock.getStockOpItemPage, { batchId: r.batchId, failedOnly: true, pageSize: 100 });
      setInvalid(items.list);
    }
  };
  useEffect(() => {
    if (open && validated) void showResult(validated).catch(() => {});
  }, [open, validated]);

  const close = () => {
    if (result && !busy) void call(stock.cancelStockOp, { batchId: result.batchId }, { silent: true }).catch(() => {});
    setResult(null);
    setInvalid([]);
    form.resetFields();
    onClose();
  };

  const validate = async () => {
    let v: Record<string, any>;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body: BodyOf<typeof stock.validateStockOp> = { type };
    if (type === StockOpType.In) {
      Object.assign(body, { rows: parseInRows(v.rows ?? ''), operatorId: v.operatorId, balanceType: v.balanceType, location: v.location?.trim() || undefined, remark: v.remark?.trim() || undefined });
    } else if (preset === 'rows') body.iccids = iccids;
    else if (preset === 'filter') body.filter = filter as never;
    else body.iccids = parseIccids(v.iccids ?? '');
    setBusy(true);
    try {
      await showResult(await call(stock.validateStockOp, body));
    } catch {
      // the refusal is shown by the request layer (e.g. more than 10,000 items)
    } finally {
      setBusy(false);
    }
  };

  const confirm = () => {
    if (!result) return;
    modal.confirm({
      title: T('confirmRunTitle'),
      content: <>{T('confirmRunContent', { type: StockOpType.label(type, lang), valid: result.valid, invalid: result.invalid })}{type === StockOpType.Scrap && <><br /><Typography.Text type="danger">{T('scrapWarn')}</Typography.Text></>}</>,
      okText: t('common.ok'), cancelText: t('common.cancel'),
      okButtonProps: { danger: type === StockOpType.Scrap, 'data-testid': 'stock-op-run-ok' } as never,
      onOk: async () => {
        await call(stock.confirmStockOp, { batchId: result.batchId });
        message.success(t('common.operationSuccess'));
        const id = result.batchId;
        setResult(null);
        setInvalid([]);
        form.resetFields();
        onStarted(id);
      },
    });
  };

  const footer = result
    ? [
      <Button key="back" onClick={close}>{T('cancelOp')}</Button>,
      <Button key="run" type="primary" danger={type === StockOpType.Scrap} disabled={result.valid === 0} onClick={confirm} data-testid="stock-op-run">{T('confirmRun')}</Button>,
    ]
    : [
      <Button key="cancel" onClick={close}>{t('common.cancel')}</Button>,
      <Button key="validate" type="primary" loading={busy} onClick={() => void validate()} data-testid="stock-op-validate">{T('validate')}</Button>,
    ];

  return (
    <Modal open={open} title={fixedType ? StockOpType.label(fixedType, lang) : T('newOp')} width={760} onCancel={() => !busy && close()} maskClosable={false} destroyOnHidden footer={footer}>
      <Form form={form} layout="vertical" initialValues={{ type: fixedType ?? StockOpType.In, balanceType: StockBalanceType.Postpaid }} style={{ display: result ? 'none' : undefined }}>
        {!fixedType && (
          <Form.Item name="type" label={T('opType')} rules={[{ required: true, message: T('required') }]}>
            <Select options={StockOpType.options(lang)} data-testid="stock-op-type" />
          </Form.Item>
        )}
        {type === StockOpType.In ? (
          <>
            <Space wrap style={{ width: '100%' }} size={16}>
              <Form.Item name="operatorId" label={T('operator')} rules={[{ required: true, message: T('required') }]}>
                <Select style={{ width: 180 }} options={Operator.options(lang)} data-testid="stock-op-operator" />
              </Form.Item>
              <Form.Item name="balanceType" label={T('balanceType')}>
                <Select style={{ width: 140 }} options={StockBalanceType.options(lang)} />
              </Form.Item>
              <Form.Item name="location" label={T('location')} rules={[{ max: stock.STOCK_LOCATION_MAX, message: T('locationMax', { max: stock.STOCK_LOCATION_MAX }) }]}>
                <Input style={{ width: 160 }} data-testid="stock-op-location" />
              </Form.Item>
              <Form.Item name="remark" label={T('remark')} rules={[{ max: stock.STOCK_REMARK_MAX, message: T('remarkMax', { max: stock.STOCK_REMARK_MAX }) }]}>
                <Input style={{ width: 160 }} data-testid="stock-op-remark" />
              </Form.Item>
            </Space>
            <Form.Item name="rows" label={T('rowsLabel')} extra={T('rowsHint')} rules={[{ required: true, whitespace: true, message: T('required') }]}>
              <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} data-testid="stock-op-rows" />
            </Form.Item>
          </>
        ) : preset ? (
          <Alert type="info" showIcon title={preset === 'rows' ? T('selectedRows', { count: iccids!.length }) : T('byFilter')} />
        ) : (
          <Form.Item name="iccids" label={T('iccidsLabel')} extra={T('iccidsHint')} rules={[{ required: true, whitespace: true, message: T('required') }]}>
            <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} data-testid="stock-op-iccids" />
          </Form.Item>
        )}
      </Form>
      {result && (
        <Space orientation="vertical" style={{ width: '100%' }} size={12}>
          <Alert type={result.valid > 0 ? 'success' : 'warning'} showIcon data-testid="stock-op-validated"
            title={T('validated', { total: result.total, valid: result.valid, invalid: result.invalid, duplicates: result.duplicates })} />
          {invalid.length > 0 && (
            <Table<Item> size="small" rowKey="seq" pagination={false} scroll={{ y: 240 }} dataSource={invalid} data-testid="stock-op-invalid"
              title={() => T('invalidItems')}
              columns={[
                { title: T('seq'), dataIndex: 'seq', width: 70 },
                { title: T('iccid'), dataIndex: 'iccid', width: 210 },
                { title: T('reason'), dataIndex: 'reason' },
              ]} />
          )}
        </Space>
      )}
    </Modal>
  );
}
