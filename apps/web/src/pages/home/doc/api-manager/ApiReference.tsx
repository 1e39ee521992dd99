import { useMemo, useState } from 'react';
import { Button, Collapse, Descriptions, Empty, Input, Result, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { ExportOutlined, KeyOutlined, LockOutlined, SearchOutlined, UnlockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { allPermissions, errorMessages, type Lang } from '@lynx/contract';
import { Highlight } from '../highlight.tsx';
import { SchemaTable } from './SchemaTable.tsx';
import { filterEndpoints, groupByTag, OPENAPI_UI_URL, OPENAPI_URL, parseEndpoints, type ApiEndpoint, type OpenApiDoc } from './openapi.ts';

const r = (k: string) => `doc.api.ref.${k}`;
const METHOD_COLORS: Record<string, string> = { GET: 'green', POST: 'blue', PUT: 'orange', PATCH: 'gold', DELETE: 'red' };
const permName = new Map(allPermissions.map((p) => [p.code, p]));

/** Plain fetch: the document is public and not an envelope endpoint. */
async function fetchDoc(signal: AbortSignal): Promise<OpenApiDoc> {
  const res = await fetch(OPENAPI_URL, { signal, headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function EndpointBody({ e, lang }: { e: ApiEndpoint; lang: Lang }) {
  const { t } = useTranslation();
  const requestTitle = t(r('request')) + (e.request.kind === 'multipart' ? ` · ${t(r('multipart'))}` : e.request.kind === 'query' ? ` · ${t(r('query'))}` : '');
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap size={[6, 6]}>
        {e.isPublic ? (
          <Tag icon={<UnlockOutlined />} color="green">{t(r('public'))}</Tag>
        ) : (
          <Tag icon={<LockOutlined />} color="blue">{t(r('session'))}</Tag>
        )}
        {e.openApi && <Tag icon={<KeyOutlined />} color="purple">{t(r('openApi'))}</Tag>}
        {e.perms.length > 0 && <Typography.Text type="secondary">{t(r('anyOf'))}</Typography.Text>}
        {e.perms.map((code) => (
          <Tag key={code}>
            {code}
            {permName.get(code) ? ` ${permName.get(code)![lang]}` : ''}
          </Tag>
        ))}
      </Space>
      <div>
        <Typography.Text strong>{requestTitle}</Typography.Text>
        <div style={{ marginTop: 6 }}><SchemaTable schema={e.request.schema} emptyText={t(r('noParams'))} /></div>
      </div>
      <div>
        <Typography.Text strong>{t(r('response'))}</Typography.Text>
        <div style={{ marginTop: 6 }}>
          {e.response.kind === 'file' ? (
            <Typography.Text type="secondary">{t(r('fileResponse'))}</Typography.Text>
          ) : (
            <SchemaTable schema={e.response.data} emptyText={t(r('nullResponse'))} />
          )}
        </div>
      </div>
    </Space>
  );
}

/** Tab "API reference": the live OpenAPI document of this server, grouped by tag, searchable. */
export function ApiReference() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const [keyword, setKeyword] = useState('');
  const doc = useQuery({ queryKey: ['openapi-document'], queryFn: ({ signal }) => fetchDoc(signal), staleTime: 5 * 60_000, retry: 1 });
  const endpoints = useMemo(() => (doc.data ? parseEndpoints(doc.data) : []), [doc.data]);
  const shown = filterEndpoints(endpoints, keyword);
  const errors = Object.entries(errorMessages).map(([code, m]) => ({ code, text: m[lang] }));
  const tagLabel = (tag: string) => (i18n.exists(r(`tags.${tag}`)) ? t(r(`tags.${tag}`)) : tag);

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Collapse
        defaultActiveKey={['conventions']}
        items={[
          {
            key: 'conventions',
            label: <Typography.Text strong>{t(r('conventions'))}</Typography.Text>,
            children: (
              <Descriptions
                bordered
                size="small"
                column={1}
                items={(['envelope', 'params', 'auth', 'signed', 'lists', 'limit'] as const).map((k) => ({ key: k, label: t(r(k)), children: t(r(`${k}Desc`)) }))}
              />
            ),
          },
          {
            key: 'errors',
            label: <Typography.Text strong>{t(r('errorCodes'))}</Typography.Text>,
            children: (
              <Table
                size="small"
                rowKey="code"
                pagination={false}
                dataSource={errors}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: t(r('errorCode')), dataIndex: 'code', width: 110, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
                  { title: t(r('errorText')), dataIndex: 'text' },
                ]}
              />
            ),
          },
        ]}
      />
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{t(r('endpoints'))}</Typography.Title>
        {doc.data && <Typography.Text type="secondary">{t(r('count'), { count: shown.length })}</Typography.Text>}
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t(r('searchPlaceholder'))}
          aria-label={t(r('searchPlaceholder'))}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ maxWidth: 360, flex: '1 1 240px' }}
          data-testid="api-ref-search"
        />
        <Button icon={<ExportOutlined />} href={OPENAPI_UI_URL} target="_blank" rel="noopener noreferrer" style={{ marginLeft: 'auto' }}>
          {t(r('openFull'))}
        </Button>
      </div>
      <Typography.Text type="secondary">{t(r('intro'))}</Typography.Text>
      {doc.isPending ? (
        <Skeleton active />
      ) : doc.isError ? (
        <Result status="warning" title={t(r('loadFailed'))} subTitle={t(r('loadFailedHint'))} extra={<Button onClick={() => void doc.refetch()}>{t('common.retry')}</Button>} />
      ) : shown.length === 0 ? (
        <Empty description={t(r('noMatch'))} />
      ) : (
        groupByTag(shown).map((g) => (
          <div key={g.tag}>
            <Typography.Title level={5} style={{ marginTop: 8 }}>
              {tagLabel(g.tag)} <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>{g.tag} · {g.endpoints.length}</Typography.Text>
            </Typography.Title>
            <Collapse
              size="small"
              items={g.endpoints.map((e) => ({
                key: e.id,
                label: (
                  <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, minWidth: 0 }}>
                    <Tag color={METHOD_COLORS[e.method] ?? 'default'} style={{ width: 52, textAlign: 'center', marginInlineEnd: 0 }}>{e.method}</Tag>
                    <Typography.Text code style={{ wordBreak: 'break-all' }}><Highlight text={e.path} keyword={keyword} /></Typography.Text>
                    <Typography.Text type="secondary"><Highlight text={e.summary[lang]} keyword={keyword} /></Typography.Text>
                    {e.openApi && <Tag color="purple" style={{ marginInlineEnd: 0 }}>{t(r('openApiShort'))}</Tag>}
                  </div>
                ),
                children: <EndpointBody e={e} lang={lang} />,
              }))}
            />
          </div>
        ))
      )}
    </Space>
  );
}
