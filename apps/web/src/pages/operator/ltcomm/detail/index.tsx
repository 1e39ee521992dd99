import { Button, Space } from 'antd';
import { CopyOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { RoamingZone, UnicomPlanStatus, formatDateTime, netconfig, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { LTCOMM_LIST_PATH, P, PLAN_STATUS_COLORS, dataLimitText, limitText, servicesText } from '../shared.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /operator/ltcomm/config/detail/:planID */
export default function UnicomPlanDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const planId = Number(useParams().planID);
  const valid = Number.isInteger(planId) && planId > 0;
  const query = useQuery({
    queryKey: [netconfig.getUnicomCommPlanDetail.name, planId],
    queryFn: () => call(netconfig.getUnicomCommPlanDetail, { planId }, { silent: true }),
    enabled: valid,
  });
  const r = query.data;
  usePageTitle(r?.planName);
  return (
    <DetailPage
      loading={valid && query.isLoading}
      error={!valid || query.error || (query.isSuccess && !r) ? true : undefined}
      title={r?.planName}
      extra={
        <Space>
          <Button onClick={() => navigate(LTCOMM_LIST_PATH)}>{t('common.back')}</Button>
          {r && (
            <>
              <PermButton perm={P.UnicomPlanAdd} icon={<CopyOutlined />} onClick={() => navigate(`/operator/ltcomm/config/copy/${r.planId}`)}>{t('netconfig.ltcomm.copy')}</PermButton>
              <PermButton perm={P.UnicomPlanEdit} type="primary" icon={<EditOutlined />} onClick={() => navigate(`/operator/ltcomm/config/edit/${r.planId}`)}>{t('netconfig.ltcomm.edit')}</PermButton>
            </>
          )}
        </Space>
      }
      items={
        r
          ? [
              { label: t('netconfig.ltcomm.planName'), value: r.planName },
              { label: t('netconfig.ltcomm.planCode'), value: r.planCode },
              { label: t('netconfig.ltcomm.status'), value: <StatusTag enumOf={UnicomPlanStatus} value={r.status} colors={PLAN_STATUS_COLORS} /> },
              { label: t('netconfig.ltcomm.services'), value: servicesText(r, t) },
              { label: t('netconfig.ltcomm.apn'), value: r.apnName ?? '-' },
              { label: t('netconfig.ltcomm.roamingZone'), value: RoamingZone.label(r.roamingZone, lang) },
              { label: t('netconfig.ltcomm.dataLimit'), value: r.dataEnabled ? dataLimitText(r.dataLimitMb, t) : '-' },
              { label: t('netconfig.ltcomm.smsLimit'), value: r.smsEnabled ? limitText(r.smsLimit, '', t) : '-' },
              { label: t('netconfig.ltcomm.speedLimitKbps'), value: r.dataEnabled ? limitText(r.speedLimitKbps, 'kbps', t) : '-' },
              { label: t('netconfig.ltcomm.billingDay'), value: t('netconfig.ltcomm.billingDayValue', { day: r.billingDay }) },
              {
                label: t('netconfig.ltcomm.copiedFrom'),
                value: r.copiedFrom ? <a onClick={() => navigate(`/operator/ltcomm/config/detail/${r.copiedFrom}`)}>#{r.copiedFrom}</a> : '-',
              },
              { label: t('netconfig.ltcomm.createdBy'), value: r.createdBy },
              { label: withZoneLabel(t('common.createdAt')), value: formatDateTime(r.createdAt) },
              { label: withZoneLabel(t('common.updatedAt')), value: formatDateTime(r.updatedAt) },
              { label: t('netconfig.ltcomm.description'), value: r.description || '-' },
            ]
          : []
      }
    />
  );
}
