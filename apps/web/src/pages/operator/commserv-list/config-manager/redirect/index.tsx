import { useState } from 'react';
import { LiveText } from '../../../../../request/LiveText.tsx';
import { App, Button, Form, Input, Space, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorCode, commserv, countChars, formatDateTime, isHttpUrl, validateLength, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../../request/http.ts';
import { SearchTable } from '../../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../../components/PermButton.tsx';
import { required, ruleOf } from '../../../../../components/rules.ts';
import { PERM_CONFIG, type RedirectRow } from '../../shared.tsx';
import { ConfigModal } from '../ConfigModal.tsx';

interface RedirectForm {
  redirectName: string;
  redirectUrl: string;
  targetContent?: string;
}

/** /operator/commserv-list/config-manager/redirect: redirect configurations services may use. */
export default function RedirectManager() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const table = useSearchTable(commserv.getRedirectListPage);
  const canManage = usePerm(PERM_CONFIG);
  const [editing, setEditing] = useState<{ record: RedirectRow | null } | null>(null);
  const r_ = (k: string) => t(`commserv.redirect.${k}`);
  const changed = () => void qc.invalidateQueries({ queryKey: [commserv.getRedirectListPage.name] });

  const remove = (r: RedirectRow) =>
    modal.confirm({
      title: t('common.delete'), content: t('commserv.redirect.deleteConfirm', { name: r.redirectName }),
      okText: t('common.delete'), cancelText: t('common.cancel'), okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(commserv.deleteRedirect, { redirectId: r.redirectId });
          message.success(<LiveText k="common.operationSuccess" />);
          changed();
        } catch {
          /* shown by the request layer */
        }
      },
    });
  const save = async (v: RedirectForm) => {
    const body = { redirectName: v.redirectName.trim(), redirectUrl: v.redirectUrl.trim(), targetContent: v.targetContent?.trim() ?? '' };
    if (editing?.record) await call(commserv.updateRedirect, { redirectId: editing.record.redirectId, ...body }, { silent: true });
    else await call(commserv.saveRedirect, body, { silent: true });
    changed();
  };

  return (
    <>
      <SearchTable<RedirectRow>
        table={table}
        title={r_('title')}
        rowKey="redirectId"
        emptyHint={r_('emptyHint')}
        toolbar={<PermButton perm={PERM_CONFIG} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })}>{r_('add')}</PermButton>}
        fields={[{ name: 'redirectName', label: r_('name') }]}
        columns={[
          { title: r_('name'), dataIndex: 'redirectName' },
          { title: r_('url'), dataIndex: 'redirectUrl', render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
          { title: r_('targetContent'), dataIndex: 'targetContent', ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: r_('serviceCount'), dataIndex: 'serviceCount', align: 'right' },
          { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v) },
          ...(canManage ? [{
            title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 130,
            render: (_: unknown, r: RedirectRow) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing({ record: r })}>{t('common.edit')}</Button>
                <Tooltip title={r.serviceCount > 0 ? r_('inUse') : undefined}>
                  <Button type="link" size="small" danger disabled={r.serviceCount > 0} onClick={() => remove(r)}>{t('common.delete')}</Button>
                </Tooltip>
              </Space>
            ),
          }] : []),
        ]}
      />
      <ConfigModal<RedirectForm>
        open={!!editing}
        title={editing?.record ? r_('edit') : r_('add')}
        initialValues={editing?.record ? { ...editing.record, targetContent: editing.record.targetContent ?? '' } : {}}
        nameField="redirectName"
        nameTakenCode={ErrorCode.RedirectNameTaken}
        onSubmit={save}
        onClose={() => setEditing(null)}
      >
        {() => (
          <>
            <Form.Item name="redirectName" label={r_('name')} rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, 64))]}>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
            <Form.Item name="redirectUrl" label={r_('url')} extra={r_('urlHint')}
              rules={[required(), { validator: async (_r, v?: string) => { if (v?.trim() && !isHttpUrl(v.trim())) throw new Error(t('commserv.form.redirectAddressInvalid')); } }]}>
              <Input maxLength={500} autoComplete="off" placeholder="https://" />
            </Form.Item>
            <Form.Item name="targetContent" label={r_('targetContent')} extra={r_('targetContentHint')} rules={[ruleOf((v) => validateLength(v, 500))]}>
              <Input.TextArea rows={3} count={{ show: true, max: 500, strategy: countChars }} />
            </Form.Item>
          </>
        )}
      </ConfigModal>
    </>
  );
}
