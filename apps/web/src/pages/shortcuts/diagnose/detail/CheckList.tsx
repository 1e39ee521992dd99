import type { ReactNode } from 'react';
import { Button, Descriptions, Space, Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, MinusCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CardState, Operator, PlanOperationMode, diagnose, formatDateTime, formatSizeFromMB, type ResponseOf } from '@lynx/contract';

export type DiagnoseResult = ResponseOf<typeof diagnose.diagnoseCard>;
export type DiagnoseCheck = DiagnoseResult['checks'][number];
type Fact = DiagnoseCheck['facts'][number];

const V = diagnose.DiagnoseVerdict;
export const VERDICT_COLOR: Record<number, string> = { [V.NotApplicable]: 'default', [V.Ok]: 'success', [V.Warning]: 'warning', [V.Problem]: 'error' };
const ICON: Record<number, ReactNode> = {
  [V.NotApplicable]: <MinusCircleFilled style={{ color: '#bfbfbf' }} />,
  [V.Ok]: <CheckCircleFilled style={{ color: '#52c41a' }} />,
  [V.Warning]: <ExclamationCircleFilled style={{ color: '#faad14' }} />,
  [V.Problem]: <CloseCircleFilled style={{ color: '#ff4d4f' }} />,
};

/** A fact's value in the reader's language and units. */
function FactValue({ fact }: { fact: Fact }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const v = fact.value;
  if (v == null || v === '') return <>-</>;
  switch (fact.kind) {
    case 'datetime': return <>{formatDateTime(v)}</>;
    case 'mb': return <>{formatSizeFromMB(v)}</>;
    case 'percent': return <>{`${v}%`}</>;
    case 'flag': return <>{t(v === 'true' ? 'common.yes' : 'common.no')}</>;
    case 'state': return <>{CardState.label(Number(v), lang)}</>;
    case 'operator': return <>{Operator.label(Number(v), lang)}</>;
    case 'operationMode': return <>{PlanOperationMode.label(Number(v), lang)}</>;
    default: return <>{v}</>;
  }
}

/**
 * The checks of one diagnosis: verdict, explanation, the suggested action (with its button where the page
 * offers one) and the facts each check looked at.
 */
export function CheckList({ result, actionFor }: { result: DiagnoseResult; actionFor: (c: DiagnoseCheck) => ReactNode }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <div className="lx-diagnose-checks" data-testid="diagnose-checks">
      {result.checks.map((c) => (
        <div key={c.key} className="lx-card" data-testid={`check-${c.key}`} data-verdict={c.verdict}>
          <Space align="start" size={12} style={{ width: '100%' }}>
            <span style={{ fontSize: 22, lineHeight: '28px' }}>{ICON[c.verdict]}</span>
            <div style={{ flex: 1, minWidth: 0 }}>
              <Space wrap size={8}>
                <Typography.Title level={5} style={{ margin: 0 }}>{t(`diagnose.checks.${c.key}`)}</Typography.Title>
                <Tag color={VERDICT_COLOR[c.verdict]}>{V.label(c.verdict, lang)}</Tag>
              </Space>
              <Typography.Paragraph style={{ margin: '6px 0' }}>{c.explanation[lang]}</Typography.Paragraph>
              {c.action && (
                <Space wrap size={8} style={{ marginBottom: 8 }}>
                  <Typography.Text type="secondary">{t('diagnose.suggestion')}:</Typography.Text>
                  <Typography.Text>{c.action[lang]}</Typography.Text>
                  {actionFor(c)}
                </Space>
              )}
              {c.facts.length > 0 && (
                <Descriptions
                  size="small" column={{ xs: 1, sm: 2, lg: 3 }} colon
                  items={c.facts.map((f) => ({ key: f.key, label: f.label[lang], children: <FactValue fact={f} /> }))}
                />
              )}
            </div>
          </Space>
        </div>
      ))}
    </div>
  );
}

/** A link-style button for an action done elsewhere in the console. */
export function GoButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button size="small" type="link" onClick={onClick} style={{ padding: 0 }}>{label}</Button>;
}
