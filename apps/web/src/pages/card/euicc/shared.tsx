import { App, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import { DownOutlined, LoadingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EuiccAction, EuiccProfileState, Operator, Perm, euicc, euiccNext, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';

export type EuiccProfileRow = ResponseOf<typeof euicc.getProfilePage>['list'][number];
export type EuiccRow = ResponseOf<typeof euicc.getEuiccPage>['list'][number];

const S = EuiccProfileState;
const COLORS: Record<number, string> = {
  [S.Unbound]: 'default', [S.Bound]: 'blue', [S.Occupied]: 'geekblue', [S.Downloading]: 'processing', [S.Downloaded]: 'cyan',
  [S.DownloadFailed]: 'error', [S.Enable]: 'processing', [S.Enabled]: 'success', [S.EnableFailed]: 'error',
  [S.Disable]: 'processing', [S.Disabled]: 'warning', [S.DisableFailed]: 'error',
};

export const useLang = () => (useTranslation().i18n.language === 'en' ? 'en' : 'zh') as 'zh' | 'en';

/** A profile's state, with a spinner while the SM-DP+ has not answered and the failure's reason on hover. */
export function ProfileState({ p }: { p: EuiccProfileRow }) {
  const { t } = useTranslation();
  const lang = useLang();
  const reason = lang === 'en' ? p.reasonEn : p.reasonZh;
  const tag = (
    <Tag color={COLORS[p.state]} icon={p.pendingAction != null ? <LoadingOutlined /> : undefined} data-testid={`euicc-state-${p.iccid}`} data-state={p.state}>
      {S.label(p.state, lang)}
    </Tag>
  );
  return (
    <Space size={4} wrap>
      {p.pendingAction != null ? <Tooltip title={t('euicc.pending', { action: EuiccAction.label(p.pendingAction, lang) })}>{tag}</Tooltip> : tag}
      {reason && <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid={`euicc-reason-${p.iccid}`}>{reason}</Typography.Text>}
    </Space>
  );
}

export const operatorLabel = (id: number, lang: 'zh' | 'en') => Operator.label(id, lang);

/** True while any profile waits for the SM-DP+: the lists poll then. */
export const anyPending = (profiles: EuiccProfileRow[]) => profiles.some((p) => p.pendingAction != null);

/** The state changes a profile allows now (none while one is in flight), per the contract's transition table. */
export const actionsFor = (p: EuiccProfileRow) => (p.pendingAction != null ? [] : EuiccAction.values.filter((a) => euiccNext(p.state, a) != null));

/** "Change state" on one profile: the allowed actions, each confirmed before it is sent. */
export function ProfileActions({ p, onDone }: { p: EuiccProfileRow; onDone: (batchId?: string) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  const may = usePerm(Perm.CardEuiccNumber);
  const actions = actionsFor(p);
  if (!may || !actions.length) return null;
  const run = (action: number) => modal.confirm({
    title: t('euicc.confirmAction', { count: 1, action: EuiccAction.label(action, lang) }),
    content: action === EuiccAction.Delete ? t('euicc.confirmDelete') : p.iccid,
    okButtonProps: { danger: action === EuiccAction.Delete, 'data-testid': 'euicc-confirm-ok' } as never,
    onOk: async () => {
      const r = await call(euicc.changeProfileState, { iccids: [p.iccid], action });
      message.success(t('euicc.sent', { count: 1 }));
      onDone(r.batchId);
    },
  });
  return (
    <Dropdown trigger={['click']} menu={{
      items: actions.map((a) => ({ key: String(a), label: <span data-testid={`euicc-action-${a}`}>{EuiccAction.label(a, lang)}</span>, danger: a === EuiccAction.Delete })),
      onClick: ({ key }) => run(Number(key)),
    }}>
      <a data-testid={`euicc-actions-${p.iccid}`}>{t('euicc.changeState')} <DownOutlined /></a>
    </Dropdown>
  );
}

/** "ICCID,EID" lines of the batch assignment. */
export function parsePairs(text: string): { iccid: string; eid: string }[] | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const pairs = lines.map((l) => l.split(/[,\t; ]+/));
  if (pairs.some((p) => p.length !== 2)) return null;
  return pairs.map(([iccid, eid]) => ({ iccid, eid }));
}

export const iccidLines = (text: string) => [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
