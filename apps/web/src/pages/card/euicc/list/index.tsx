import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EuiccProfileState, Operator, Perm, batch, euicc, formatDateTime } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton } from '../../../../components/PermButton.tsx';
import { ProfileActions, ProfileState, anyPending, operatorLabel, useLang, type EuiccProfileRow, type EuiccRow } from '../shared.tsx';
import { AssignModal, BatchAssignModal, ImportModal, StateModal } from '../modals.tsx';

const POLL_MS = 1500;
const WATCH_MS = 8000;

/**
 * /card/euicc/list (2040000; changes 2040001): eUICCs by EID with their profiles, and every profile (the unbound ones
 * too); import, assign an EID, batch assign, change a profile's state (one, or a checked batch). The lists poll while
 * an operation waits for the SM-DP+.
 */
export default function EuiccList() {
  const { t } = useTranslation();
  const lang = useLang();
  const [modal, setModal] = useState<'import' | 'assign' | 'batchAssign' | 'state' | null>(null);
  const [tab, setTab] = useState('euiccs');
  // a change runs as a batch: its operations are placed a moment after the request, so the lists poll until the
  // batch is done and its profiles have their answers (or a while after a change, when no batch is known)
  const [watchUntil, setWatchUntil] = useState(0);
  const [watchBatch, setWatchBatch] = useState<string | null>(null);
  const watched = useQuery({
    queryKey: [euicc.getEuiccBatch.name, watchBatch], enabled: !!watchBatch,
    queryFn: ({ signal }) => call(euicc.getEuiccBatch, { batchId: watchBatch! }, { signal, silent: true }),
    refetchInterval: (q) => (q.state.data && q.state.data.state === batch.BatchState.Done && q.state.data.inFlight === 0 ? false : POLL_MS),
  });
  const batchRunning = !!watchBatch && !(watched.data && watched.data.state === batch.BatchState.Done && watched.data.inFlight === 0);
  const T = (k: string) => t(`euicc.${k}`);
  const poll = (pending: boolean) => (pending || batchRunning || Date.now() < watchUntil ? POLL_MS : false);
  const euiccs = useSearchTable(euicc.getEuiccPage, {
    refetchInterval: (d) => poll(!!d && anyPending(d.list.flatMap((e) => e.profiles))),
  });
  const profiles = useSearchTable(euicc.getProfilePage, {
    refetchInterval: (d) => poll(!!d && anyPending(d.list)),
  });
  const refresh = (batchId?: string) => {
    setWatchUntil(Date.now() + WATCH_MS);
    if (batchId) setWatchBatch(batchId);
    void euiccs.refresh();
    void profiles.refresh();
  };
  // the watched batch has ended: one last look at the lists
  useEffect(() => {
    if (watchBatch && !batchRunning) { void euiccs.refresh(); void profiles.refresh(); }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [watchBatch, batchRunning]);
  const batchId = profiles.state.filters.batchId as string | undefined;
  const showBatch = (id: string) => { setTab('profiles'); profiles.search({ batchId: id }); };
  const fields: SearchField[] = [
    { name: 'eid', label: 'EID', placeholder: T('eidPlaceholder') },
    { name: 'iccid', label: 'ICCID', placeholder: T('iccidPlaceholder') },
    { name: 'state', label: T('state'), type: 'enum', enumOf: EuiccProfileState },
  ];
  const toolbar = (
    <Space wrap>
      <PermButton perm={Perm.CardEuiccNumber} type="primary" onClick={() => setModal('import')} data-testid="euicc-import">{T('import')}</PermButton>
      <PermButton perm={Perm.CardEuiccNumber} onClick={() => setModal('assign')} data-testid="euicc-assign">{T('assign')}</PermButton>
      <PermButton perm={Perm.CardEuiccNumber} onClick={() => setModal('batchAssign')} data-testid="euicc-batch-assign">{T('batchAssign')}</PermButton>
      <PermButton perm={Perm.CardEuiccNumber} onClick={() => setModal('state')} data-testid="euicc-batch-state">{T('batchState')}</PermButton>
    </Space>
  );
  const profileLine = (p: EuiccProfileRow) => (
    <div key={p.iccid} style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap', padding: '2px 0' }} data-testid={`euicc-profile-${p.iccid}`}>
      <Typography.Text copyable style={{ fontFamily: 'monospace' }}>{p.iccid}</Typography.Text>
      <span>{operatorLabel(p.operatorId, lang)}</span>
      <ProfileState p={p} />
      <ProfileActions p={p} onDone={refresh} />
    </div>
  );

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <Tabs activeKey={tab} onChange={setTab} items={[
        {
          key: 'euiccs', label: T('tabEuiccs'),
          children: (
            <SearchTable<EuiccRow> table={euiccs} fields={fields} rowKey="eid" toolbar={toolbar} emptyHint={T('emptyHint')} title={T('tabEuiccs')} exportSource={euicc.getEuiccPage}
              columns={[
                { title: 'EID', dataIndex: 'eid', key: 'eid', width: 350, render: (v: string) => <Typography.Text copyable style={{ fontFamily: 'monospace' }}>{v}</Typography.Text> },
                { title: T('customer'), dataIndex: 'custName', key: 'custName', width: 180, render: (v: string | null) => v ?? '-' },
                {
                  title: T('profiles'), key: 'profiles',
                  render: (_: unknown, r) => (r.profiles.length ? r.profiles.map(profileLine) : <Typography.Text type="secondary">{T('noProfiles')}</Typography.Text>),
                },
                { title: T('createdAt'), dataIndex: 'createdAt', key: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
              ]}
            />
          ),
        },
        {
          key: 'profiles', label: T('tabProfiles'),
          children: (
            <>
              {batchId && (
                <Alert style={{ marginBottom: 8 }} type="info" showIcon data-testid="euicc-batch-filter"
                  title={t('euicc.batchFilter', { id: batchId.slice(0, 8) })}
                  action={<Button size="small" onClick={() => profiles.search({ batchId: undefined })}>{T('batchFilterClear')}</Button>} />
              )}
            <SearchTable<EuiccProfileRow> table={profiles} rowKey="iccid" toolbar={toolbar} emptyHint={T('emptyProfiles')} title={T('tabProfiles')} exportSource={euicc.getProfilePage}
              fields={[
                { name: 'iccid', label: 'ICCID', placeholder: T('iccidPlaceholder') },
                { name: 'eid', label: 'EID', placeholder: T('eidPlaceholder') },
                { name: 'state', label: T('state'), type: 'enum', enumOf: EuiccProfileState },
                { name: 'operatorId', label: T('operator'), type: 'enum', enumOf: Operator },
              ]}
              columns={[
                { title: T('iccid'), dataIndex: 'iccid', key: 'iccid', width: 250, render: (v: string) => <Typography.Text copyable style={{ fontFamily: 'monospace' }}>{v}</Typography.Text> },
                { title: 'EID', dataIndex: 'eid', key: 'eid', width: 320, render: (v: string | null) => v ?? '-' },
                { title: T('operator'), dataIndex: 'operatorId', key: 'operatorId', width: 130, render: (v: number) => operatorLabel(v, lang) },
                { title: T('state'), dataIndex: 'state', key: 'state', render: (_: unknown, p) => <ProfileState p={p} /> },
                { title: T('customer'), dataIndex: 'custName', key: 'custName', width: 200, render: (v: string | null) => v ?? '-' },
                { title: T('stateAt'), dataIndex: 'stateAt', key: 'stateAt', width: 170, render: (v: string) => formatDateTime(v) },
                { title: t('common.actions'), key: 'actions', width: 160, fixed: 'right', render: (_: unknown, p) => <ProfileActions p={p} onDone={refresh} /> },
              ]}
            />
            </>
          ),
        },
      ]} />
      <ImportModal open={modal === 'import'} onClose={() => setModal(null)} onDone={() => refresh()} />
      <AssignModal open={modal === 'assign'} onClose={() => setModal(null)} onDone={() => refresh()} />
      <BatchAssignModal open={modal === 'batchAssign'} onClose={() => setModal(null)} onDone={() => refresh()} />
      <StateModal open={modal === 'state'} onClose={() => setModal(null)} onDone={() => refresh()} onShowBatch={showBatch} />
    </>
  );
}
