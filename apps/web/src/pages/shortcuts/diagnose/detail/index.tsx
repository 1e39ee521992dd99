import { useCallback, useEffect, useRef, useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Descriptions, Empty, Form, Input, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { MedicineBoxOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CardState, ErrorCode, Operator, PlanOperationMode, carddata, diagnose, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call, LogicError } from '../../../../request/http.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { STATE_COLORS } from '../../../card/card-list/list/index.tsx';
import { ChangeStatusModal } from './ChangeStatusModal.tsx';
import { CheckList, GoButton, VERDICT_COLOR, type DiagnoseCheck, type DiagnoseResult } from './CheckList.tsx';

const V = diagnose.DiagnoseVerdict;
const P = diagnose.DiagnosePerm;
const ICCID_RULE = /^\d{19,20}$/;
const OVERALL_TYPE = { [V.Ok]: 'success', [V.Warning]: 'warning', [V.Problem]: 'error' } as const;

/** /shortcuts/diagnose/detail/:iccId?: diagnose one card, act on what was found, and see its earlier diagnoses. */
export default function DiagnoseDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const routeIccid = useParams().iccId ?? '';
  const [form] = Form.useForm<{ iccid: string }>();
  const [result, setResult] = useState<DiagnoseResult | null>(null);
  /** a stored diagnosis shown instead of the latest one */
  const [viewing, setViewing] = useState<DiagnoseResult | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [running, setRunning] = useState<'basic' | 'advanced' | null>(null);
  const [resetting, setResetting] = useState(false);
  const [changing, setChanging] = useState(false);
  const [recordsPage, setRecordsPage] = useState(1);
  const canCardList = usePerm(carddata.getSimListPage.perm);
  const canAccessConfig = usePerm(7060000);
  const canFailures = usePerm(7100000);
  const canCommserv = usePerm(7030000);
  const canAdvanced = usePerm(P.Advanced);
  const canReset = canAdvanced;

  const run = useCallback(async (iccid: string, advanced: boolean) => {
    setRunning(advanced ? 'advanced' : 'basic');
    setRefusal(null);
    setViewing(null);
    try {
      const r = await call(advanced ? diagnose.diagnoseCardAdvanced : diagnose.diagnoseCard, { iccid }, { silent: true });
      if (r) {
        setResult(r);
        setRecordsPage(1);
        await queryClient.invalidateQueries({ queryKey: [diagnose.getDiagnoseRecordPage.name, iccid] });
      }
    } catch (e) {
      setResult(null);
      // a missing card and one outside the user's range are answered alike (20005): say what to check
      if (e instanceof LogicError) setRefusal(e.errorCode === ErrorCode.NotFound ? t('diagnose.notFound') : e.message);
      else if (e instanceof Error) message.error(e.message);
    } finally {
      setRunning(null);
    }
  }, [message, queryClient, t]);

  // arriving with an ICCID in the path runs the diagnosis at once
  const started = useRef('');
  useEffect(() => {
    if (!routeIccid || started.current === routeIccid) return;
    started.current = routeIccid;
    form.setFieldsValue({ iccid: routeIccid });
    if (ICCID_RULE.test(routeIccid)) void run(routeIccid, false);
  }, [routeIccid, form, run]);

  const submit = async (advanced: boolean) => {
    try {
      const { iccid } = await form.validateFields();
      await run(iccid.trim(), advanced);
    } catch {
      /* the field shows why */
    }
  };

  const shown = viewing ?? result;
  const records = useQuery({
    queryKey: [diagnose.getDiagnoseRecordPage.name, result?.iccid, recordsPage],
    queryFn: ({ signal }) => call(diagnose.getDiagnoseRecordPage, { iccid: result!.iccid, current: recordsPage, pageSize: 10 }, { signal, silent: true }),
    enabled: !!result,
  });

  const reset = async () => {
    if (!result) return;
    setResetting(true);
    try {
      const r = await call(diagnose.networkReset, { iccid: result.iccid }, { silent: true });
      if (r) {
        if (r.sentToOperator) message.success(<LiveText k="diagnose.networkResetDone" />);
        else message.warning(t('diagnose.networkResetNotSent'));
        setResult({ ...result, networkReset: { ...result.networkReset, lastAt: r.resetAt, nextAllowedAt: r.nextAllowedAt } });
      }
    } catch (e) {
      if (e instanceof Error) message.error(e.message);
    } finally {
      setResetting(false);
    }
  };

  const resetBlocked = shown && !shown.networkReset.supported
    ? t('diagnose.networkResetUnsupported')
    : shown?.networkReset.nextAllowedAt && new Date(shown.networkReset.nextAllowedAt) > new Date()
      ? t('diagnose.networkResetWait', { time: formatDateTime(shown.networkReset.nextAllowedAt) })
      : null;
  const resetButton = (size?: 'small') => (
    <Tooltip title={resetBlocked}>
      <span>
        <Popconfirm title={t('diagnose.networkResetConfirm')} description={<div style={{ maxWidth: 320 }}>{t('diagnose.networkResetDesc')}</div>}
          onConfirm={reset} okText={t('common.ok')} cancelText={t('common.cancel')} disabled={!!resetBlocked || !!viewing}>
          <Button size={size} icon={<ReloadOutlined />} loading={resetting} disabled={!!resetBlocked || !!viewing} data-testid="network-reset">{t('diagnose.networkReset')}</Button>
        </Popconfirm>
      </span>
    </Tooltip>
  );
  const cardDetail = (iccid: string) => navigate(`/card/card-list/detail/${iccid}`);

  /** The button next to a check's suggestion, where this page or a permitted page can act on it. */
  const actionFor = (c: DiagnoseCheck) => {
    if (!shown || viewing) return null;
    switch (c.actionKind) {
      case 'networkReset': return canReset ? resetButton('small') : null;
      case 'changeStatus': return <PermButton perm={P.ChangeStatus} size="small" onClick={() => setChanging(true)}>{t('diagnose.changeStatus')}</PermButton>;
      case 'advancedDiagnosis': return <PermButton perm={P.Advanced} size="small" onClick={() => run(shown.iccid, true)}>{t('diagnose.runAdvanced')}</PermButton>;
      case 'changePlan': case 'renew': case 'orderEventPack': case 'permitZones':
        return canCardList ? <GoButton label={t(`diagnose.actionLink.${c.actionKind}`)} onClick={() => cardDetail(shown.iccid)} /> : null;
      case 'accessConfig': return canAccessConfig ? <GoButton label={t('diagnose.actionLink.accessConfig')} onClick={() => navigate('/operator/config/list')} /> : null;
      case 'commservConfig': return canCommserv ? <GoButton label={t('diagnose.actionLink.commservConfig')} onClick={() => navigate('/operator/commserv-list/list')} /> : null;
      case 'changeFailures':
        return canFailures && shown.msisdn ? <GoButton label={t('diagnose.actionLink.changeFailures')} onClick={() => navigate(`/operator/OperatorRetryFailureRecord/detail/${shown.msisdn}`)} /> : null;
      default: return null;
    }
  };

  const counts = (r: DiagnoseResult) => ({
    total: r.checks.length, ok: r.checks.filter((c) => c.verdict === V.Ok).length,
    warning: r.checks.filter((c) => c.verdict === V.Warning).length, problem: r.checks.filter((c) => c.verdict === V.Problem).length,
    na: r.checks.filter((c) => c.verdict === V.NotApplicable).length,
  });
  const overallTitle = (v: number) => t(v === V.Problem ? 'diagnose.overallProblem' : v === V.Warning ? 'diagnose.overallWarning' : 'diagnose.overallOk');

  return (
    <>
      <div className="lx-card">
        <Typography.Title level={5} style={{ marginTop: 0 }}><MedicineBoxOutlined /> {t('diagnose.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('diagnose.intro')}</Typography.Paragraph>
        <Form form={form} layout="inline" onFinish={() => submit(false)} data-testid="diagnose-form">
          <Form.Item name="iccid" label={t('diagnose.iccid')} rules={[{ required: true, message: t('common.required') }, { pattern: ICCID_RULE, message: t('diagnose.iccidRule') }]}>
            <Input allowClear maxLength={20} placeholder={t('diagnose.iccidPlaceholder')} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item>
            <Space wrap>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={running === 'basic'}>{t('diagnose.run')}</Button>
              {canAdvanced && (
                <Tooltip title={t('diagnose.advancedHint')}>
                  <Button onClick={() => submit(true)} loading={running === 'advanced'} data-testid="diagnose-advanced">{t('diagnose.runAdvanced')}</Button>
                </Tooltip>
              )}
            </Space>
          </Form.Item>
        </Form>
      </div>

      {refusal && (
        <div className="lx-card">
          <Alert type="warning" showIcon message={t('diagnose.refusedTitle')} description={refusal} data-testid="diagnose-refusal" />
        </div>
      )}

      {!shown && !refusal && (
        <div className="lx-card">
          <Empty description={<><div>{t('diagnose.emptyTitle')}</div><Typography.Text type="secondary">{t('diagnose.emptyHint')}</Typography.Text></>} />
        </div>
      )}

      {shown && (
        <>
          <div className="lx-card">
            {viewing && (
              <Alert style={{ marginBottom: 12 }} type="info" showIcon message={t('diagnose.viewing', { time: formatDateTime(viewing.diagnosedAt) })}
                action={<Button size="small" onClick={() => setViewing(null)}>{t('diagnose.backToLatest')}</Button>} />
            )}
            <Alert
              type={OVERALL_TYPE[shown.overall as 1 | 2 | 3] ?? 'info'} showIcon data-testid="diagnose-overall"
              message={overallTitle(shown.overall)} description={t(counts(shown).na ? 'diagnose.overallDescNa' : 'diagnose.overallDesc', counts(shown))}
            />
            {shown.operationMode !== PlanOperationMode.Professional && (
              <Alert style={{ marginTop: 12 }} type="info" showIcon message={t('diagnose.standardNote')} data-testid="diagnose-standard-note" />
            )}
            <Descriptions
              style={{ marginTop: 16 }} title={t('diagnose.summary')} bordered size="small" column={{ xs: 1, sm: 2, xl: 3 }}
              extra={!viewing && (
                <Space wrap>
                  <Button onClick={() => run(shown.iccid, false)} loading={running === 'basic'}>{t('diagnose.rerun')}</Button>
                  {canReset && resetButton()}
                  <PermButton perm={P.ChangeStatus} onClick={() => setChanging(true)} data-testid="diagnose-change-status-open">{t('diagnose.changeStatus')}</PermButton>
                  {canCardList && <Button type="link" onClick={() => cardDetail(shown.iccid)}>{t('diagnose.cardDetail')}</Button>}
                </Space>
              )}
              items={[
                { key: 'iccid', label: t('diagnose.iccid'), children: <Typography.Text copyable>{shown.iccid}</Typography.Text> },
                { key: 'msisdn', label: t('diagnose.msisdn'), children: shown.msisdn ?? '-' },
                { key: 'imsi', label: t('diagnose.imsi'), children: shown.imsi ?? '-' },
                { key: 'state', label: t('diagnose.state'), children: <StatusTag enumOf={CardState} value={shown.state} colors={STATE_COLORS} /> },
                { key: 'operator', label: t('diagnose.operator'), children: Operator.label(shown.operatorId, lang) },
                { key: 'customer', label: t('diagnose.customer'), children: shown.custName ?? t('diagnose.stock') },
                { key: 'plan', label: t('diagnose.plan'), children: shown.planName ?? '-' },
                { key: 'mode', label: t('diagnose.operationMode'), children: PlanOperationMode.label(shown.operationMode, lang) },
                { key: 'kind', label: t('diagnose.kind'), children: t(shown.advanced ? 'diagnose.kindAdvanced' : 'diagnose.kindBasic') },
                { key: 'at', label: withZoneLabel(t('diagnose.diagnosedAt')), children: formatDateTime(shown.diagnosedAt) },
                { key: 'by', label: t('diagnose.diagnosedBy'), children: shown.diagnosedBy },
              ]}
            />
          </div>

          <CheckList result={shown} actionFor={actionFor} />

          <div className="lx-card">
            <Typography.Title level={5} style={{ marginTop: 0 }}>{t('diagnose.records')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('diagnose.recordsHint')}</Typography.Paragraph>
            <Table
              size="small" rowKey="diagnosisId" loading={records.isFetching} dataSource={records.data?.list ?? []} scroll={{ x: 760 }}
              locale={{ emptyText: <Empty description={t('diagnose.recordsEmpty')} /> }}
              pagination={{ current: recordsPage, pageSize: 10, total: records.data?.total ?? 0, onChange: setRecordsPage, showTotal: (total) => t('common.total', { total }) }}
              columns={[
                { title: withZoneLabel(t('diagnose.diagnosedAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
                { title: t('diagnose.diagnosedBy'), dataIndex: 'loginName', width: 120 },
                { title: t('diagnose.kind'), dataIndex: 'advanced', width: 110, render: (v: boolean) => t(v ? 'diagnose.kindAdvanced' : 'diagnose.kindBasic') },
                { title: t('diagnose.state'), dataIndex: 'state', width: 110, render: (v: number | null) => <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} /> },
                {
                  title: t('diagnose.verdicts'), dataIndex: 'verdicts',
                  render: (vs: { key: string; verdict: number }[]) => (
                    <Space size={[4, 4]} wrap>{vs.map((v) => <Tag key={v.key} color={VERDICT_COLOR[v.verdict]}>{t(`diagnose.checks.${v.key}`)}</Tag>)}</Space>
                  ),
                },
                {
                  title: t('common.actions'), key: 'view', width: 90, fixed: 'right',
                  render: (_: unknown, r: { diagnosisId: string; iccid: string }) => (
                    <Button type="link" size="small" style={{ padding: 0 }}
                      onClick={async () => setViewing(await call(diagnose.getDiagnoseRecordDetail, { iccid: r.iccid, diagnosisId: r.diagnosisId }))}>
                      {t('diagnose.view')}
                    </Button>
                  ),
                },
              ]}
            />
          </div>

          {result && (
            <ChangeStatusModal result={result} open={changing} onClose={() => setChanging(false)}
              onChanged={() => void run(result.iccid, false)} />
          )}
        </>
      )}
    </>
  );
}
