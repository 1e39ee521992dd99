import { useEffect, useRef } from 'react';
import { Alert, Button, ColorPicker, Form, Input, Result, Skeleton, Space } from 'antd';
import type { Color } from 'antd/es/color-picker';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ErrorCode, STAFF_ROLE_TYPES, cardcat, validateLength } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { useSession } from '../../../../stores/session.ts';
import { LABEL_LIST_PATH, LabelTag } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

interface LabelForm {
  name: string;
  colour: string;
  description?: string;
}

/** /card/label/add and /card/label/edit/:labelId */
export default function LabelEdit() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const tabKey = useRef(useLocation().pathname).current;
  const labelId = Number(useParams().labelId);
  const editing = useParams().labelId !== undefined;
  const [form] = Form.useForm<LabelForm>();
  const { busy, save } = useFormSave(form, { [ErrorCode.CardLabelNameTaken]: 'name' });
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const existing = useQuery({
    queryKey: [cardcat.getLabelDetail.name, labelId],
    queryFn: () => call(cardcat.getLabelDetail, { labelId }, { silent: true }),
    enabled: editing && Number.isInteger(labelId) && labelId > 0,
  });
  usePageTitle(existing.data?.name);
  const name = Form.useWatch('name', form);
  const colour = Form.useWatch('colour', form);
  const L = (k: string) => t(`cardcat.label.${k}`);

  const filled = useRef(false);
  useEffect(() => {
    if (filled.current) return;
    const l = existing.data;
    if (editing && !l) return;
    form.setFieldsValue(l ? { name: l.name, colour: l.colour, description: l.description ?? '' } : { colour: cardcat.LABEL_COLOURS[0] });
    filled.current = true;
  }, [editing, existing.data, form]);

  const leave = () => {
    useTabs.getState().close(tabKey);
    void navigate(LABEL_LIST_PATH);
  };

  const submit = async () => {
    let v: LabelForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { name: v.name.trim(), colour: v.colour, description: v.description?.trim() || null };
    const ok = await save(() => (editing ? call(cardcat.updateLabel, { ...body, labelId }, { silent: true }) : call(cardcat.addLabel, body, { silent: true })));
    if (ok) {
      void qc.invalidateQueries({ queryKey: [cardcat.getLabelListPage.name] });
      void qc.invalidateQueries({ queryKey: [cardcat.getLabelOptions.name] });
      void qc.invalidateQueries({ queryKey: [cardcat.getLabelDetail.name] });
      leave();
    }
  };

  if (editing && (!Number.isInteger(labelId) || labelId <= 0)) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  if (editing && existing.isLoading) return <div className="lx-card"><Skeleton active /></div>;
  if (editing && (existing.error || !existing.data)) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  const readOnly = editing && existing.data && !existing.data.editable;
  const platform = editing ? existing.data?.platform : staff;

  return (
    <div className="lx-card">
      <Form form={form} layout="vertical" disabled={busy || !!readOnly} style={{ maxWidth: 620 }}>
        <Alert type={readOnly ? 'warning' : 'info'} showIcon style={{ marginBottom: 16 }} message={readOnly ? L('readOnlyHint') : platform ? L('platformHint') : L('ownHint')} />
        <Form.Item name="name" label={L('name')} rules={[{ ...required(), whitespace: true, message: L('nameRequired') }, ruleOf((v) => validateLength(v, cardcat.LABEL_NAME_MAX))]}>
          <Input maxLength={cardcat.LABEL_NAME_MAX} showCount autoComplete="off" data-testid="label-name" />
        </Form.Item>
        <Form.Item name="colour" label={L('colour')} rules={[required()]} getValueFromEvent={(c: Color) => c.toHexString()}>
          <ColorPicker disabledAlpha showText presets={[{ label: L('colour'), colors: [...cardcat.LABEL_COLOURS] }]} />
        </Form.Item>
        <Form.Item name="description" label={L('description')} rules={[ruleOf((v) => validateLength(v, cardcat.LABEL_DESCRIPTION_MAX))]}>
          <Input.TextArea rows={3} maxLength={cardcat.LABEL_DESCRIPTION_MAX} showCount />
        </Form.Item>
        <Form.Item label={L('preview')}>
          <LabelTag name={name?.trim() || L('name')} colour={colour || cardcat.LABEL_COLOURS[0]} />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} disabled={!!readOnly} onClick={() => void submit()} data-testid="label-save">{t('common.save')}</Button>
          <Button disabled={false} onClick={leave}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </div>
  );
}
