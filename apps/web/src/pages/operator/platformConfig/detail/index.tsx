import { useState } from 'react';
import { Button, Descriptions, Drawer, Popconfirm, Result, Space, Switch, Typography } from 'antd';
import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PlatformConfigState, PlatformType, formatDateTime, opconfig, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PERM, SecretMask, useLang, type Lang } from '../../config/shared.tsx';
import { usePlatformSchema, type PlatformEntry, type SchemaField } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

const STATE_COLORS = { [PlatformConfigState.On]: 'success', [PlatformConfigState.Off]: 'default' };

/** A field value as text: option labels, yes/no, masked secrets. */
export function FieldValue({ field, entry, lang }: { field: SchemaField; entry: PlatformEntry; lang: Lang }) {
  const { t } = useTranslation();
  if (field.type === 'secret') return <SecretMask secret={entry.secrets[field.key] ?? { hasSecret: false, mask: null }} />;
  const v = entry.fields[field.key];
  if (v === null || v === undefined || v === '') return <>-</>;
  if (field.type === 'boolean') return <>{v ? t('common.yes') : t('common.no')}</>;
  if (field.type === 'select') return <>{field.options?.find((o) => o.value === v)?.label[lang] ?? String(v)}</>;
  if (field.type === 'text') return <Typography.Paragraph ellipsis={{ rows: 3, expandable: true }} style={{ margin: 0, fontFamily: 'monospace' }}>{String(v)}</Typography.Paragraph>;
  return <>{String(v)}</>;
}

/** /operator/platformConfig/detail/:platformId: the entries of one platform type; switch on/off, edit, delete. */
export default function PlatformEntries() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const platformType = Number(useParams().platformId);
  const known = PlatformType.has(platformType);
  const schema = usePlatformSchema(platformType, known);
  const table = useSearchTable(opconfig.getPlatformPage, { fixed: { platformType } });
  const canEdit = usePerm(PERM.platformEdit);
  const canDelete = usePerm(PERM.platformDelete);
  const canSwitch = usePerm(PERM.platformState);
  const [viewing, setViewing] = useState<PlatformEntry | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  usePageTitle(known ? PlatformType.label(platformType, lang) : null);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: [opconfig.getPlatformPage.name] });
    void qc.invalidateQueries({ queryKey: [opconfig.getPlatformTypes.name] });
  };
  const act = async (id: number, run: () => Promise<unknown>) => {
    setBusyId(id);
    try {
      await run();
      refresh();
    } catch {
      /* shown by the request layer */
    } finally {
      setBusyId(null);
    }
  };

  if (!known) return <div className="lx-card"><Result status="404" subTitle={t('opconfig.platform.unknownType')} /></div>;
  const fields = schema.data?.fields ?? [];
  const summary = fields.filter((f) => f.type !== 'secret' && f.type !== 'text').slice(0, 3);

  return (
    <>
      <SearchTable<PlatformEntry>
        table={table}
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate('/operator/platformConfig/list')} aria-label={t('common.back')} />
            {t('opconfig.platform.listTitle', { type: PlatformType.label(platformType, lang) })}
          </Space>
        }
        rowKey="id"
        emptyHint={t('opconfig.platform.emptyHint')}
        toolbar={
          <PermButton perm={PERM.platformAdd} type="primary" icon={<PlusOutlined />} onClick={() => void navigate(`/operator/platformConfig/add/${platformType}`)} data-testid="platform-add">
            {t('opconfig.platform.add')}
          </PermButton>
        }
        fields={[
          { name: 'name', label: t('opconfig.platform.name') },
          { name: 'state', label: t('opconfig.platform.state'), type: 'enum', enumOf: PlatformConfigState },
        ]}
        columns={[
          { title: t('opconfig.platform.name'), dataIndex: 'name', sorter: true, width: 180, render: (v: string, r) => <Typography.Link onClick={() => setViewing(r)}>{v}</Typography.Link> },
          ...summary.map((f) => ({ title: f.label[lang], key: f.key, width: 180, ellipsis: true, render: (_: unknown, r: PlatformEntry) => <FieldValue field={f} entry={r} lang={lang} /> })),
          {
            title: t('opconfig.platform.state'), dataIndex: 'state', width: 110,
            render: (v: number, r) =>
              canSwitch ? (
                <Popconfirm
                  title={v === PlatformConfigState.On ? t('opconfig.platform.switchOffConfirm', { name: r.name }) : t('opconfig.platform.switchOnConfirm', { name: r.name })}
                  okText={t('common.ok')} cancelText={t('common.cancel')}
                  onConfirm={() => act(r.id, () => call(opconfig.updatePlatformState, { id: r.id, state: v === PlatformConfigState.On ? PlatformConfigState.Off : PlatformConfigState.On }))}
                >
                  <Switch checked={v === PlatformConfigState.On} loading={busyId === r.id} aria-label={t('opconfig.platform.state')} />
                </Popconfirm>
              ) : (
                <StatusTag enumOf={PlatformConfigState} value={v} colors={STATE_COLORS} />
              ),
          },
          { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 180,
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setViewing(r)}>{t('opconfig.platform.view')}</Button>
                {canEdit && <Button type="link" size="small" onClick={() => void navigate(`/operator/platformConfig/edit/${platformType}/${r.id}`)}>{t('common.edit')}</Button>}
                {canDelete && (
                  <Popconfirm title={t('opconfig.platform.deleteConfirm', { name: r.name })} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => act(r.id, () => call(opconfig.deletePlatformConfig, { id: r.id }))}>
                    <Button type="link" size="small" danger>{t('common.delete')}</Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Drawer open={!!viewing} size={640} title={viewing?.name} onClose={() => setViewing(null)}>
        {viewing && (
          <Descriptions
            bordered size="small" column={1}
            items={[
              ...fields.map((f) => ({ key: f.key, label: f.label[lang], children: <FieldValue field={f} entry={viewing} lang={lang} /> })),
              { key: '_state', label: t('opconfig.platform.state'), children: <StatusTag enumOf={PlatformConfigState} value={viewing.state} colors={STATE_COLORS} /> },
              { key: '_remark', label: t('opconfig.platform.remark'), children: viewing.remark || '-' },
              { key: '_by', label: t('opconfig.platform.createdBy'), children: viewing.createdBy },
              { key: '_created', label: withZoneLabel(t('common.createdAt')), children: formatDateTime(viewing.createdAt) },
              { key: '_updated', label: withZoneLabel(t('common.updatedAt')), children: formatDateTime(viewing.updatedAt) },
            ]}
          />
        )}
      </Drawer>
    </>
  );
}
