import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { StockBalanceType, stock, type Lang } from '@lynx/contract';
import { call } from '../../../request/http.ts';

/** Location, remark (≤ 10 characters, spec §5) and balance type of the ticked items, after a confirmation. */
export function BatchUpdateModal({ iccids, onClose, onDone }: { iccids: string[] | null; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const { modal, message } = App.useApp();
  const [form] = Form.useForm();
  const count = iccids?.length ?? 0;

  const submit = async () => {
    let v: { location?: string; remark?: string; balanceType?: number };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      iccids: iccids!,
      ...(v.location?.trim() ? { location: v.location.trim() } : {}),
      ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}),
      ...(v.balanceType ? { balanceType: v.balanceType } : {}),
    };
    if (Object.keys(body).length === 1) {
      message.warning(T('nothingToUpdate'));
      return;
    }
    modal.confirm({
      title: T('batchUpdateConfirm', { count }),
      okText: t('common.ok'), cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'stock-update-ok' } as never,
      onOk: async () => {
        const r = await call(stock.batchUpdateStock, body);
        message.success(T('updated', { count: r.updated }));
        form.resetFields();
        onDone();
      },
    });
  };

  return (
    <Modal open={iccids !== null} title={T('batchUpdateTitle', { count })} onCancel={onClose} onOk={() => void submit()} okText={t('common.submit')} cancelText={t('common.cancel')}
      destroyOnHidden okButtonProps={{ 'data-testid': 'stock-update-submit' } as never}>
      <Typography.Paragraph type="secondary">{T('batchUpdateHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="location" label={T('location')} rules={[{ max: stock.STOCK_LOCATION_MAX, message: T('locationMax', { max: stock.STOCK_LOCATION_MAX }) }]}>
          <Input data-testid="stock-update-location" />
        </Form.Item>
        <Form.Item name="remark" label={T('remark')} rules={[{ max: stock.STOCK_REMARK_MAX, message: T('remarkMax', { max: stock.STOCK_REMARK_MAX }) }]}>
          <Input data-testid="stock-update-remark" />
        </Form.Item>
        <Form.Item name="balanceType" label={T('balanceType')}>
          <Select allowClear options={StockBalanceType.options(lang)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
