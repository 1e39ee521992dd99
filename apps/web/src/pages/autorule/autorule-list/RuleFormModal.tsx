import { useEffect } from 'react';
import { Checkbox, Form, Input, InputNumber, Modal, Radio, Select, type ButtonProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AUTO_RULE_NAME_MAX, AUTO_RULE_REMARK_MAX, AUTO_RULE_THRESHOLDS, AutoRuleAction, AutoRuleChannel, AutoRuleLevel, AutoRuleTargetState, AutoRuleType,
  CardState, ErrorCode, Operator, RoleType, STAFF_ROLE_TYPES, autorule, formatValidationMessage, plan, validateEmailList, validatePhoneList, type BodyOf,
} from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { useSession } from '../../../stores/session.ts';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import { useLang, type RuleRow } from '../shared.tsx';

type RuleBody = BodyOf<typeof autorule.saveRule>;

/** Add or edit a rule; the server's refusals land on their fields (the §5 contact checks run here first, same messages). */
export function RuleFormModal({ open, rule, onClose, onSaved }: { open: boolean; rule: RuleRow | null; onClose: () => void; onSaved: (r: RuleRow) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<RuleBody>();
  const { busy, save } = useFormSave(form, {
    [ErrorCode.AutoRuleThresholdInvalid]: 'threshold', [ErrorCode.AutoRuleChannelRequired]: 'channels', [ErrorCode.AutoRuleTargetRequired]: 'targetState',
  });
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  // a second-level customer's rules reach only its own cards: no customer to narrow to
  const sub = useSession((s) => s.roleId === RoleType.SubCustomer);
  const F = (k: string) => t(`autorule.f.${k}`);
  const required = [{ required: true, message: t('autorule.form.required') }];
  const type = Form.useWatch('ruleType', form);
  const action = Form.useWatch('action', form);
  const channels = (Form.useWatch('channels', form) ?? []) as number[];
  const bound = type ? AUTO_RULE_THRESHOLDS[type] : undefined;
  const canPlans = usePerm(plan.getBasicPlanListPage.perm);
  const plans = useQuery({
    queryKey: [plan.getBasicPlanListPage.name, { pageSize: 500, category: 'basic' }],
    queryFn: ({ signal }) => call(plan.getBasicPlanListPage, { pageSize: 500, category: 'basic' }, { signal, silent: true }),
    enabled: open && canPlans,
  });
  const planOptions = (plans.data?.list ?? []).map((p) => ({ value: p.goodsReleaseId, label: p.name }));
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(rule
      ? {
        name: rule.name, ruleType: rule.ruleType, level: rule.level, threshold: rule.threshold, states: rule.states, action: rule.action,
        targetState: rule.targetState, targetPlanId: rule.targetPlanId, channels: rule.channels, phones: rule.phones ?? '', emails: rule.emails ?? '',
        scopeCustId: rule.scopeCustId, scopeOperatorId: rule.scopeOperatorId, scopePlanId: rule.scopePlanId, remark: rule.remark ?? '',
      }
      : { ruleType: AutoRuleType.DataUsage, level: AutoRuleLevel.Warning, threshold: 80, action: AutoRuleAction.NotifyOnly, channels: [AutoRuleChannel.Webhook], states: [] });
  }, [open, rule, form]);

  const listCheck = (validate: (s: string) => ReturnType<typeof validatePhoneList>, channel: number) => async (_r: unknown, v: string | undefined) => {
    if (!v && !channels.includes(channel)) return;
    const err = validate(v ?? '');
    if (err) throw new Error(formatValidationMessage(err, lang));
  };

  const submit = async () => {
    let v: RuleBody;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body: RuleBody = {
      ...v, name: v.name.trim(), threshold: bound ? v.threshold ?? null : null, states: type === AutoRuleType.StateChanged ? v.states ?? [] : [],
      targetState: action === AutoRuleAction.ChangeState ? v.targetState ?? null : null, targetPlanId: action === AutoRuleAction.ChangePlan ? v.targetPlanId ?? null : null,
      phones: v.phones?.trim() || null, emails: v.emails?.trim() || null, scopeCustId: v.scopeCustId ?? null, scopeOperatorId: v.scopeOperatorId ?? null,
      scopePlanId: v.scopePlanId ?? null, remark: v.remark?.trim() || null, channels: v.channels ?? [],
    };
    let saved = null as RuleRow | null;
    const ok = await save(async () => {
      saved = rule ? await call(autorule.updateRule, { ruleId: rule.ruleId, ...body }, { silent: true }) : await call(autorule.saveRule, body, { silent: true });
    });
    if (ok && saved) {
      onSaved(saved);
      onClose();
    }
  };

  return (
    <Modal open={open} title={t(rule ? 'autorule.form.editTitle' : 'autorule.form.addTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy}
      okText={t('common.save')} cancelText={t('common.cancel')} okButtonProps={{ 'data-testid': 'autorule-save' } as ButtonProps} destroyOnHidden forceRender width={640}>
      <Form form={form} layout="vertical" disabled={busy}>
        <Form.Item name="name" label={F('name')} rules={[{ required: true, whitespace: true, message: t('autorule.form.nameRequired') }]}>
          <Input maxLength={AUTO_RULE_NAME_MAX} data-testid="autorule-name" />
        </Form.Item>
        <Form.Item name="ruleType" label={F('type')} rules={required}>
          <Select options={AutoRuleType.options(lang)} data-testid="autorule-type" />
        </Form.Item>
        {bound && (
          <Form.Item name="threshold" label={F('threshold')} validateFirst
            rules={[{ required: true, message: t('autorule.form.thresholdRequired', { min: bound.min, max: bound.max }) }]}>
            <InputNumber min={bound.min} max={bound.max} precision={0} style={{ width: 200 }} addonAfter={bound.unit[lang]} data-testid="autorule-threshold" />
          </Form.Item>
        )}
        {type === AutoRuleType.StateChanged && (
          <Form.Item name="states" label={F('states')} extra={t('autorule.anyState')}>
            <Select mode="multiple" allowClear options={CardState.options(lang)} />
          </Form.Item>
        )}
        <Form.Item name="level" label={F('level')} rules={required}>
          <Radio.Group options={AutoRuleLevel.options(lang)} />
        </Form.Item>
        <Form.Item name="action" label={F('action')} rules={required}>
          <Radio.Group options={AutoRuleAction.options(lang)} data-testid="autorule-action" />
        </Form.Item>
        {action === AutoRuleAction.ChangeState && (
          <Form.Item name="targetState" label={F('targetState')} rules={required}>
            <Radio.Group options={AutoRuleTargetState.options(lang)} />
          </Form.Item>
        )}
        {action === AutoRuleAction.ChangePlan && (
          <Form.Item name="targetPlanId" label={F('targetPlan')} rules={required}>
            <Select showSearch optionFilterProp="label" loading={plans.isFetching} options={planOptions} />
          </Form.Item>
        )}
        <Form.Item name="channels" label={F('channels')}>
          <Checkbox.Group options={AutoRuleChannel.options(lang)} data-testid="autorule-channels" />
        </Form.Item>
        <Form.Item name="phones" label={F('phones')} extra={t('autorule.form.contactsHelp')} dependencies={['channels']}
          rules={[{ validator: listCheck((s) => validatePhoneList(s), AutoRuleChannel.Sms) }]}>
          <Input placeholder="13800138000;13900139000" data-testid="autorule-phones" />
        </Form.Item>
        <Form.Item name="emails" label={F('emails')} extra={t('autorule.form.contactsHelp')} dependencies={['channels']}
          rules={[{ validator: listCheck((s) => validateEmailList(s), AutoRuleChannel.Email) }]}>
          <Input placeholder="ops@example.com;noc@example.com" data-testid="autorule-emails" />
        </Form.Item>
        {!sub && (
          <Form.Item name="scopeCustId" label={F('scopeCust')} extra={staff ? undefined : t('autorule.allCards')}>
            <CustomerSelect allowClear initialLabel={rule?.scopeCustName} placeholder={t('autorule.allCards')} />
          </Form.Item>
        )}
        <Form.Item name="scopeOperatorId" label={F('scopeOperator')}>
          <Select allowClear options={Operator.options(lang)} placeholder={t('autorule.allCards')} />
        </Form.Item>
        <Form.Item name="scopePlanId" label={F('scopePlan')}>
          <Select allowClear showSearch optionFilterProp="label" loading={plans.isFetching} options={planOptions} placeholder={t('autorule.allCards')} />
        </Form.Item>
        <Form.Item name="remark" label={F('remark')}>
          <Input.TextArea maxLength={AUTO_RULE_REMARK_MAX} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
