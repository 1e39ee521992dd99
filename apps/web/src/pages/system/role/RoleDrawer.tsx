import { useEffect } from 'react';
import { Alert, Button, Col, Drawer, Form, Input, Row, Select, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorCode, RoleType, role, validateLength, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { required, ruleOf } from '../../../components/rules.ts';
import { PermissionTreeInput } from './PermissionTree.tsx';
import { useFormSave } from '../../../components/useFormSave.ts';

export type RoleRecord = ResponseOf<typeof role.getRoleDetail>;

interface RoleForm {
  roleCode: string;
  roleName: string;
  roleType: number;
  description?: string;
  permissions: number[];
}

const CODE_RE = /^[A-Za-z0-9_-]{2,32}$/;

/** Add (record null) or edit a role, with its permission tree; shared by the role list and detail pages. */
export function RoleDrawer({ open, record, onClose }: { open: boolean; record: RoleRecord | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const qc = useQueryClient();
  const [form] = Form.useForm<RoleForm>();
  const { busy, save: persist } = useFormSave(form, { [ErrorCode.RoleCodeTaken]: 'roleCode' });
  const isAdminRole = record?.roleId === RoleType.Admin;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (record) {
      form.setFieldsValue({
        roleCode: record.roleCode, roleName: record.roleName, roleType: record.roleType,
        description: record.description ?? '', permissions: record.permissions,
      });
    } else {
      form.setFieldsValue({ permissions: [] });
    }
  }, [open, record, form]);

  const save = async () => {
    let values: RoleForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      roleCode: values.roleCode.trim(),
      roleName: values.roleName.trim(),
      description: values.description?.trim() ?? '',
      permissions: values.permissions ?? [],
    };
    const saved = await persist(() =>
      record
        ? call(role.updateRole, { roleId: record.roleId, ...body, ...(!record.builtIn && { roleType: values.roleType }) }, { silent: true })
        : call(role.saveRole, { ...body, roleType: values.roleType }, { silent: true }),
    );
    if (!saved) return;
    await Promise.all([
      qc.invalidateQueries({ queryKey: [role.getRoleListPage.name] }),
      qc.invalidateQueries({ queryKey: [role.getRoleDetail.name] }),
    ]);
    onClose();
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={720}
      destroyOnHidden
      title={record ? t('system.role.edit') : t('system.role.add')}
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={busy} onClick={() => void save()} data-testid="role-save">{t('common.save')}</Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" requiredMark disabled={busy}>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="roleCode"
              label={t('system.role.roleCode')}
              rules={[required(), { pattern: CODE_RE, message: t('system.role.codeFormat') }]}
              tooltip={t('system.role.codeFormat')}
            >
              <Input placeholder={t('system.role.codePlaceholder')} maxLength={32} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="roleName"
              label={t('system.role.roleName')}
              rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, 40))]}
            >
              <Input placeholder={t('system.role.namePlaceholder')} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="roleType"
          label={t('system.role.roleType')}
          rules={[required()]}
          extra={record?.builtIn ? t('system.role.builtInNoTypeChange') : undefined}
        >
          <Select options={RoleType.options(lang)} disabled={!!record?.builtIn} placeholder={t('common.required')} />
        </Form.Item>
        <Form.Item name="description" label={t('system.role.description')} rules={[ruleOf((v) => validateLength(v, 500))]}>
          <Input.TextArea rows={3} count={{ show: true, max: 500 }} />
        </Form.Item>
        {isAdminRole && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('system.role.adminAllPermissions')} />}
        <Form.Item name="permissions" label={t('system.role.permissions')}>
          <PermissionTreeInput disabled={isAdminRole} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
