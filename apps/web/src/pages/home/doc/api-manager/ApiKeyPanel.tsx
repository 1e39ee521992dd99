import { useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Descriptions, Empty, Form, Input, Modal, Skeleton, Switch, Typography } from 'antd';
import { KeyOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiservice, formatDateTime, Perm, validateCallbackUrl, validateLength, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { PermButton } from '../../../../components/PermButton.tsx';
import { ruleOf } from '../../../../components/rules.ts';

const k = (key: string) => `doc.api.key.${key}`;
const c = (key: string) => `doc.api.config.${key}`;
const CALLBACK_MAX = 300;

/** The key and the configuration are read by the whitelist tab too, so both share these query keys. */
export const apiKeyQuery = (custId: number | undefined) => ({
  queryKey: [apiservice.getApiKey.name, custId ?? 'self'],
  queryFn: ({ signal }: { signal: AbortSignal }) => call(apiservice.getApiKey, { custId }, { signal }),
});
export const apiConfigQuery = (custId: number | undefined) => ({
  queryKey: [apiservice.getApiConfig.name, custId ?? 'self'],
  queryFn: ({ signal }: { signal: AbortSignal }) => call(apiservice.getApiConfig, { custId }, { signal }),
});

function KeyCard({ custId }: { custId: number | undefined }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const key = useQuery(apiKeyQuery(custId));
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<{ appKey: string; appSecret: string } | null>(null);

  const rotate = () => {
    const exists = !!key.data?.appKey;
    modal.confirm({
      title: t(k(exists ? 'rotateConfirm' : 'generateConfirm')),
      content: exists ? t(k('rotateConfirmDesc')) : undefined,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: exists },
      onOk: async () => {
        setBusy(true);
        try {
          const res = await call(apiservice.rotateApiKey, { custId });
          if (res) {
            setIssued(res);
            message.success(<LiveText k="common.operationSuccess" />);
          }
          await qc.invalidateQueries({ queryKey: [apiservice.getApiKey.name] });
        } catch {
          /* the request layer showed the reason */
        } finally {
          setBusy(false);
        }
      },
    });
  };

  if (key.isPending) return <Skeleton active />;
  if (!key.data) return <Empty description={t('common.empty')} />;
  const d = key.data;
  const button = (
    <PermButton perm={Perm.HomeApiManage} type={d.appKey ? 'default' : 'primary'} danger={!!d.appKey} icon={d.appKey ? <SyncOutlined /> : <KeyOutlined />} loading={busy} onClick={rotate} data-testid="api-key-rotate">
      {t(k(d.appKey ? 'rotate' : 'generate'))}
    </PermButton>
  );
  return (
    <>
      {d.appKey && !d.canSign && (
        <Alert type="warning" showIcon title={t(k('cannotSign'))} description={t(k('cannotSignHint'))} style={{ marginBottom: 12 }} data-testid="api-key-cannot-sign" />
      )}
      {d.appKey ? (
        <Descriptions
          title={t(k('title'))}
          extra={button}
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'cust', label: t('doc.api.customer'), children: d.custName },
            { key: 'appKey', label: t(k('appKey')), children: <Typography.Text copyable={{ text: d.appKey }} code data-testid="api-app-key">{d.appKey}</Typography.Text> },
            { key: 'secret', label: t(k('secret')), children: <Typography.Text code>{d.secretHint ?? '-'}</Typography.Text> },
            { key: 'created', label: withZoneLabel(t(k('createdAt'))), children: formatDateTime(d.createdAt) || '-' },
            { key: 'rotated', label: withZoneLabel(t(k('rotatedAt'))), children: d.rotatedAt ? formatDateTime(d.rotatedAt) : t(k('never')) },
          ]}
        />
      ) : (
        <>
          <Typography.Title level={5} style={{ marginTop: 0 }}>{t(k('title'))}</Typography.Title>
          <Empty description={<>{t(k('none'))}<br /><Typography.Text type="secondary">{t(k('noneHint'))}</Typography.Text></>}>
            {button}
          </Empty>
        </>
      )}
      <Modal
        open={!!issued}
        title={t(k('newTitle'))}
        mask={{ closable: false }}
        onCancel={() => setIssued(null)}
        footer={<Button type="primary" onClick={() => setIssued(null)}>{t(k('saved'))}</Button>}
        destroyOnHidden
      >
        <Alert type="warning" showIcon title={t(k('newWarning'))} style={{ marginBottom: 16 }} />
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[
            { key: 'appKey', label: t(k('appKey')), children: <Typography.Text copyable code>{issued?.appKey}</Typography.Text> },
            { key: 'secret', label: t(k('secret')), children: <Typography.Text copyable code style={{ wordBreak: 'break-all' }} data-testid="api-new-secret">{issued?.appSecret}</Typography.Text> },
          ]}
        />
      </Modal>
    </>
  );
}

function ConfigCard({ custId }: { custId: number | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const config = useQuery(apiConfigQuery(custId));
  const [busy, setBusy] = useState(false);

  if (config.isPending) return <Skeleton active />;
  if (!config.data) return <Empty description={t('common.empty')} />;
  const d = config.data;

  const save = async (v: { callbackUrl?: string; ipWhitelistEnabled: boolean }) => {
    setBusy(true);
    try {
      await call(apiservice.saveApiConfig, { custId, callbackUrl: v.callbackUrl?.trim() || null, ipWhitelistEnabled: v.ipWhitelistEnabled });
      message.success(<LiveText k="common.operationSuccess" />);
      await qc.invalidateQueries({ queryKey: [apiservice.getApiConfig.name] });
    } catch {
      /* the request layer showed the reason */
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Typography.Title level={5}>{t(c('title'))}</Typography.Title>
      <Form
        key={`${d.custId}-${config.dataUpdatedAt}`}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={{ callbackUrl: d.callbackUrl ?? '', ipWhitelistEnabled: d.ipWhitelistEnabled }}
        onFinish={save}
      >
        <Form.Item
          name="callbackUrl"
          label={t(c('callbackUrl'))}
          extra={t(c('callbackHint'))}
          rules={[ruleOf(validateCallbackUrl, { optional: true }), ruleOf((v) => validateLength(v, CALLBACK_MAX), { optional: true })]}
        >
          <Input allowClear placeholder="https://" maxLength={CALLBACK_MAX} data-testid="api-callback-url" />
        </Form.Item>
        <Form.Item name="ipWhitelistEnabled" label={t(c('ipEnabled'))} extra={t(c('ipEnabledHint'))} valuePropName="checked">
          <Switch data-testid="api-ip-enabled" />
        </Form.Item>
        <Form.Item label={t(c('callLimit'))} extra={t(c('callLimitHint'))}>
          <Typography.Text strong>{t(c('perMinute'), { n: d.callLimitPerMinute })}</Typography.Text>
        </Form.Item>
        <PermButton perm={Perm.HomeApiManage} type="primary" htmlType="submit" loading={busy} data-testid="api-config-save">
          {t('common.save')}
        </PermButton>
      </Form>
    </>
  );
}

/** Tab "API key": the customer's key (secret shown once after generating or rotating) and its API configuration. */
export function ApiKeyPanel({ custId }: { custId: number | undefined }) {
  return (
    <>
      <div style={{ marginBottom: 24 }}>
        <KeyCard custId={custId} />
      </div>
      <ConfigCard custId={custId} />
    </>
  );
}
