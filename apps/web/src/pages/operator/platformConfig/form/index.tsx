import { useEffect } from 'react';
import { Button, Divider, Form, Input, InputNumber, Result, Select, Skeleton, Space, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PlatformConfigState, PlatformType, countChars, opconfig, validateLength } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';
import { useLang, type Lang } from '../../config/shared.tsx';
import { usePlatformSchema, type SchemaField } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type FieldValues = Record<string, string | number | boolean | null | undefined>;
interface PlatformForm {
  name: string;
  fields: FieldValues;
  state?: number;
  remark?: string;
}

/** The control of one schema field. */
function control(f: SchemaField, lang: Lang, keep: string | null) {
  switch (f.type) {
    case 'integer':
      return <InputNumber min={f.min} max={f.max} precision={0} style={{ width: '100%' }} />;
    case 'boolean':
      return <Switch />;
    case 'select':
      return <Select options={(f.options ?? []).map((o) => ({ value: o.value, label: o.label[lang] }))} allowClear={!f.required} />;
    case 'secret':
      return <Input.Password maxLength={f.maxLength} autoComplete="new-password" visibilityToggle={false} placeholder={keep ?? undefined} />;
    case 'text':
      return <Input.TextArea rows={4} style={{ fontFamily: 'monospace' }} count={f.maxLength ? { show: true, max: f.maxLength, strategy: countChars } : undefined} />;
    default:
      return <Input maxLength={f.maxLength} autoComplete="off" placeholder={f.type === 'url' ? 'https://' : undefined} />;
  }
}

/**
 * /operator/platformConfig/add/:platformId and /edit/:platformId/:id: the form is rendered from the type's
 * field schema and checked with the same rules the server applies; secrets left empty on edit are kept.
 */
export default function PlatformFormPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const params = useParams();
  const platformType = Number(params.platformId);
  const id = params.id === undefined ? null : Number(params.id);
  const editing = id !== null;
  const known = PlatformType.has(platformType) && (!editing || (Number.isInteger(id) && id > 0));
  const [form] = Form.useForm<PlatformForm>();
  const { busy, save } = useFormSave(form);
  const schema = usePlatformSchema(platformType, known);
  const current = useQuery({
    queryKey: [opconfig.getPlatformConfig.name, id],
    queryFn: () => call(opconfig.getPlatformConfig, { id: id! }, { silent: true }),
    enabled: known && editing,
  });
  const rec = current.data;
  usePageTitle(rec?.name);
  const fields = schema.data?.fields ?? [];

  useEffect(() => {
    if (!schema.data) return;
    if (!editing) {
      const defaults = Object.fromEntries(schema.data.fields.map((f) => [f.key, f.defaultValue ?? (f.type === 'boolean' ? false : undefined)]));
      form.setFieldsValue({ fields: defaults, state: PlatformConfigState.On });
    } else if (rec) {
      const values = Object.fromEntries(schema.data.fields.map((f) => [f.key, f.type === 'secret' ? '' : (rec.fields[f.key] ?? (f.type === 'boolean' ? false : undefined))]));
      form.setFieldsValue({ name: rec.name, fields: values, remark: rec.remark ?? '' });
    }
  }, [schema.data, editing, rec, form]);

  const stored = (f: SchemaField) => (f.type === 'secret' && rec?.secrets[f.key]?.hasSecret ? rec.secrets[f.key].mask : null);
  const rulesOf = (f: SchemaField): Rule[] => [
    ...(f.required && f.type !== 'boolean' && !stored(f) ? [required()] : []),
    {
      validator: async (_r, v: unknown) => {
        const reason = opconfig.checkPlatformField(f as opconfig.PlatformField, v === undefined ? null : v, { keepSecret: !!stored(f) });
        if (reason && !(v === undefined || v === null || v === '')) throw new Error(reason[lang]);
      },
    },
  ];

  const submit = async () => {
    let v: PlatformForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const values = Object.fromEntries(fields.map((f) => {
      const x = v.fields?.[f.key];
      return [f.key, x === undefined ? null : typeof x === 'string' && f.type !== 'secret' ? x.trim() : x];
    }));
    const ok = await save(() =>
      editing
        ? call(opconfig.updatePlatformConfig, { id: id!, name: v.name.trim(), fields: values, remark: v.remark?.trim() ?? '' }, { silent: true })
        : call(opconfig.savePlatformConfig, { platformType, name: v.name.trim(), fields: values, state: v.state, remark: v.remark?.trim() ?? '' }, { silent: true }),
    );
    if (!ok) return;
    void qc.invalidateQueries({ queryKey: [opconfig.getPlatformPage.name] });
    void qc.invalidateQueries({ queryKey: [opconfig.getPlatformTypes.name] });
    void qc.invalidateQueries({ queryKey: [opconfig.getPlatformConfig.name] });
    form.resetFields();
    void navigate(`/operator/platformConfig/detail/${platformType}`);
  };

  if (!known || schema.isError || (editing && (current.isError || (current.isSuccess && (!rec || rec.platformType !== platformType))))) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  }
  if (schema.isLoading || (editing && current.isLoading)) return <div className="lx-card"><Skeleton active /></div>;

  return (
    <div className="lx-card">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {PlatformType.label(platformType, lang)} · {editing ? t('opconfig.platform.edit') : t('opconfig.platform.add')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{schema.data?.description[lang]}</Typography.Paragraph>
      <Form form={form} layout="vertical" disabled={busy} style={{ maxWidth: 720 }}>
        <Form.Item name="name" label={t('opconfig.platform.name')} rules={[{ ...required(), whitespace: true }, ruleOf((x) => validateLength(x, 64))]}>
          <Input maxLength={64} autoComplete="off" data-testid="platform-name" />
        </Form.Item>
        <Divider titlePlacement="start">{t('opconfig.platform.fields')}</Divider>
        {fields.map((f) => {
          const keep = stored(f);
          return (
            <Form.Item
              key={f.key}
              name={['fields', f.key]}
              label={f.label[lang]}
              rules={rulesOf(f)}
              valuePropName={f.type === 'boolean' ? 'checked' : 'value'}
              extra={keep ? t('opconfig.platform.secretKeep', { mask: keep }) : f.help?.[lang]}
              data-testid={`platform-field-${f.key}`}
            >
              {control(f, lang, keep)}
            </Form.Item>
          );
        })}
        {!editing && (
          <Form.Item name="state" label={t('opconfig.platform.state')}>
            <Select options={PlatformConfigState.options(lang)} style={{ maxWidth: 200 }} />
          </Form.Item>
        )}
        <Form.Item name="remark" label={t('opconfig.platform.remark')} rules={[ruleOf((x) => validateLength(x, 500))]}>
          <Input.TextArea rows={2} count={{ show: true, max: 500, strategy: countChars }} />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="platform-save">{t('common.save')}</Button>
          <Button onClick={() => void navigate(`/operator/platformConfig/detail/${platformType}`)}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </div>
  );
}
