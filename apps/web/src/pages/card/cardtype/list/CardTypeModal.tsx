import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Modal, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CARD_GRADE_TEMPERATURE, CardFormFactor, CardGrade, ErrorCode, cardcat, validateLength, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';

export type CardTypeRow = ResponseOf<typeof cardcat.getCardTypeListPage>['list'][number];

interface CardTypeForm {
  nameZh: string;
  nameEn: string;
  formFactor: number;
  grade: number;
  tempMin: number;
  tempMax: number;
  description?: string;
}

/** Add or edit a card type (operator staff). Choosing a grade fills in its usual temperature range. */
export function CardTypeModal({ open, record, onClose, onSaved }: { open: boolean; record: CardTypeRow | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<CardTypeForm>();
  const { busy, save } = useFormSave(form, { [ErrorCode.CardTypeTemperatureRange]: 'tempMin' });
  const C = (k: string) => t(`cardcat.cardType.${k}`);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      record
        ? { ...record, description: record.description ?? '' }
        : { formFactor: CardFormFactor.Mff2, grade: CardGrade.Industrial, ...tempsOf(CardGrade.Industrial) },
    );
  }, [open, record, form]);

  const submit = async () => {
    let v: CardTypeForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { ...v, nameZh: v.nameZh.trim(), nameEn: v.nameEn.trim(), description: v.description?.trim() || null };
    const ok = await save(() =>
      record ? call(cardcat.updateCardType, { ...body, cardTypeId: record.cardTypeId }, { silent: true }) : call(cardcat.addCardType, body, { silent: true }),
    );
    if (ok) {
      onSaved();
      onClose();
    }
  };

  const nameRules = [{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, cardcat.CARD_TYPE_NAME_MAX))];
  const temp = { min: cardcat.CARD_TYPE_TEMP_MIN, max: cardcat.CARD_TYPE_TEMP_MAX, precision: 0, style: { width: '100%' } };
  return (
    <Modal open={open} title={record ? C('editTitle') : C('addTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy}
      okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden forceRender width={620}>
      <Form form={form} layout="vertical" disabled={busy}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="nameZh" label={C('nameZh')} rules={nameRules}><Input maxLength={cardcat.CARD_TYPE_NAME_MAX} data-testid="cardtype-name-zh" /></Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="nameEn" label={C('nameEn')} rules={nameRules}><Input maxLength={cardcat.CARD_TYPE_NAME_MAX} data-testid="cardtype-name-en" /></Form.Item>
          </Col>
        </Row>
        <Typography.Paragraph type="secondary" style={{ marginTop: -12, fontSize: 12 }}>{C('nameHint')}</Typography.Paragraph>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="formFactor" label={C('formFactor')} rules={[required()]}><Select options={CardFormFactor.options(lang)} /></Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="grade" label={C('grade')} rules={[required()]}>
              <Select options={CardGrade.options(lang)} onChange={(g: number) => form.setFieldsValue(tempsOf(g))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="tempMin" label={C('tempMin')} dependencies={['tempMax']} rules={[required(), ({ getFieldValue }) => ({
              validator: (_, v) => (v == null || getFieldValue('tempMax') == null || v < getFieldValue('tempMax') ? Promise.resolve() : Promise.reject(new Error(C('tempOrder')))),
            })]}>
              <InputNumber {...temp} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="tempMax" label={C('tempMax')} rules={[required()]}><InputNumber {...temp} /></Form.Item>
          </Col>
        </Row>
        <Form.Item name="description" label={C('description')} rules={[ruleOf((v) => validateLength(v, cardcat.CARD_TYPE_DESCRIPTION_MAX))]}>
          <Input.TextArea rows={3} maxLength={cardcat.CARD_TYPE_DESCRIPTION_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const tempsOf = (grade: number) => {
  const r = CARD_GRADE_TEMPERATURE[grade];
  return r ? { tempMin: r.min, tempMax: r.max } : {};
};
