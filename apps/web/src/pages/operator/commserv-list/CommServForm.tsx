import { useEffect } from 'react';
import { Button, Card, Form, Input, Radio, Select, Space, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import {
  COMMSERV_PRIORITY_MAX, COMMSERV_PRIORITY_MIN, COMMSERV_WHITELIST_MAX, CommServStatus, CommServType, ErrorCode, countChars, isHttpUrl, validateLength,
  type BodyOf, type commserv,
} from '@lynx/contract';
import { required, ruleOf } from '../../../components/rules.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { WhitelistEditor } from './WhitelistEditor.tsx';
import { useConfigOptions, type CommServDetailRecord } from './shared.tsx';

export type CommServBody = BodyOf<typeof commserv.saveCommServ>;

interface FormValues {
  commservName: string;
  commservNameEn?: string;
  commservType: number;
  directional: boolean;
  priority: number;
  status: number;
  whitelist: string[];
  redirectAddress?: string;
  speedLimitId?: number | null;
  redirectId?: number | null;
  description?: string;
}

const NAME_MAX = 64;
const DESCRIPTION_MAX = 500;
const PRIORITIES = Array.from({ length: COMMSERV_PRIORITY_MAX - COMMSERV_PRIORITY_MIN + 1 }, (_, i) => i + COMMSERV_PRIORITY_MIN);

/** Server refusals shown on their field instead of as a toast. */
const FIELD_OF_ERROR = {
  [ErrorCode.CommServNameTaken]: 'commservName',
  [ErrorCode.CommServWhitelistTooMany]: 'whitelist',
  [ErrorCode.CommServWhitelistInvalid]: 'whitelist',
  [ErrorCode.CommServWhitelistDuplicate]: 'whitelist',
  [ErrorCode.CommServDirectionalNeedsWhitelist]: 'whitelist',
};

/** Form values → request body: blanks become empty strings (cleared on the server), cleared selects null. */
export function toBody(v: FormValues): CommServBody {
  return {
    commservName: v.commservName.trim(), commservNameEn: v.commservNameEn?.trim() ?? '', commservType: v.commservType, directional: v.directional, priority: v.priority, status: v.status,
    whitelist: v.whitelist ?? [], redirectAddress: v.redirectAddress?.trim() ?? '', description: v.description?.trim() ?? '',
    speedLimitId: v.speedLimitId ?? null, redirectId: v.redirectId ?? null,
  };
}

/** The add and edit form of a communication service (spec §3): fields, whitelist editor, linked configurations. */
export function CommServForm({ record, onSubmit, onSaved, onCancel }: {
  record: CommServDetailRecord | null;
  /** saves and resolves with the service id */
  onSubmit: (body: CommServBody) => Promise<number>;
  onSaved: (commservId: number) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<FormValues>();
  const { busy, save } = useFormSave(form, FIELD_OF_ERROR);
  const configs = useConfigOptions();
  const f = (k: string) => t(`commserv.fields.${k}`);

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(
      record
        ? {
            commservName: record.commservName, commservNameEn: record.commservNameEn ?? '', commservType: record.commservType, directional: record.directional, priority: record.priority,
            status: record.status, whitelist: record.whitelist, redirectAddress: record.redirectAddress ?? '', speedLimitId: record.speedLimitId,
            redirectId: record.redirectId, description: record.description ?? '',
          }
        : { commservType: CommServType.Data, directional: false, priority: 5, status: CommServStatus.Enabled, whitelist: [] },
    );
  }, [record, form]);

  const whitelistRules: Rule[] = [
    ({ getFieldValue }) => ({
      validator: async (_r, v: string[] | undefined) => {
        const n = v?.length ?? 0;
        if (getFieldValue('directional') && n === 0) throw new Error(t('commserv.whitelist.directionalRequired'));
        if (n > COMMSERV_WHITELIST_MAX) throw new Error(t('commserv.whitelist.tooMany', { max: COMMSERV_WHITELIST_MAX, count: n }));
      },
    }),
  ];

  const submit = async () => {
    let v: FormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    let commservId = 0;
    const saved = await save(async () => {
      commservId = await onSubmit(toBody(v));
    });
    if (saved) {
      if (!record) form.resetFields();
      onSaved(commservId);
    }
  };

  return (
    <Card title={record ? t('commserv.form.editTitle') : t('commserv.form.addTitle')} className="lx-card" variant="borderless">
      <Form form={form} layout="vertical" disabled={busy} style={{ maxWidth: 760 }}>
        <Form.Item name="commservName" label={f('commservName')} extra={t('commserv.form.nameHint')}
          rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, NAME_MAX))]}>
          <Input maxLength={NAME_MAX} autoComplete="off" data-testid="commserv-name" />
        </Form.Item>
        <Form.Item name="commservNameEn" label={f('commservNameEn')} extra={t('commserv.form.nameEnHint')} rules={[ruleOf((v) => validateLength(v, NAME_MAX))]}>
          <Input maxLength={NAME_MAX} autoComplete="off" data-testid="commserv-name-en" />
        </Form.Item>
        <Form.Item name="commservType" label={f('commservType')} rules={[required()]}>
          <Radio.Group options={CommServType.options(lang)} optionType="button" />
        </Form.Item>
        <Space size={48} wrap>
          <Form.Item name="priority" label={f('priority')} rules={[required()]} extra={t('commserv.form.priorityHint')}>
            <Select style={{ width: 200 }} options={PRIORITIES.map((p) => ({ value: p, label: t('commserv.form.priorityOption', { level: p }) }))} data-testid="commserv-priority" />
          </Form.Item>
          <Form.Item name="status" label={f('status')} rules={[required()]}>
            <Radio.Group options={CommServStatus.options(lang)} />
          </Form.Item>
        </Space>
        <Form.Item name="directional" label={f('directional')} valuePropName="checked" extra={t('commserv.form.directionalHint')}>
          <Switch data-testid="commserv-directional" onChange={() => void form.validateFields(['whitelist']).catch(() => undefined)} />
        </Form.Item>
        <Form.Item name="whitelist" label={f('whitelist')} rules={whitelistRules} dependencies={['directional']}
          extra={t('commserv.whitelist.hint', { max: COMMSERV_WHITELIST_MAX })}>
          <WhitelistEditor />
        </Form.Item>
        <Form.Item name="redirectAddress" label={f('redirectAddress')} extra={t('commserv.form.redirectAddressHint')}
          rules={[{ validator: async (_r, v?: string) => { if (v?.trim() && !isHttpUrl(v.trim())) throw new Error(t('commserv.form.redirectAddressInvalid')); } }]}>
          <Input maxLength={500} autoComplete="off" placeholder="https://" />
        </Form.Item>
        <Space size={24} wrap style={{ width: '100%' }}>
          <Form.Item name="speedLimitId" label={f('speedLimit')}>
            <Select style={{ width: 340 }} allowClear loading={configs.loading} options={configs.speedLimits} placeholder={t('commserv.form.noneSelected')} />
          </Form.Item>
          <Form.Item name="redirectId" label={f('redirect')}>
            <Select style={{ width: 340 }} allowClear loading={configs.loading} options={configs.redirects} placeholder={t('commserv.form.noneSelected')} />
          </Form.Item>
        </Space>
        <Form.Item name="description" label={f('description')} rules={[ruleOf((v) => validateLength(v, DESCRIPTION_MAX))]}>
          <Input.TextArea rows={3} count={{ show: true, max: DESCRIPTION_MAX, strategy: countChars }} />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="commserv-save">{t('common.save')}</Button>
          <Button onClick={onCancel} disabled={false}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
