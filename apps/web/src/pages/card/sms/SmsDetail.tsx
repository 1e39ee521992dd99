import { Descriptions, Drawer, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, sms, withZoneLabel } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { SmsStateTag } from './shared.tsx';

const dt = (v: string | null | undefined) => (v ? formatDateTime(v) : '-');

/** One message with its delivery report (opened from the SMS list). */
export function SmsDetail({ target, onClose }: { target: { iccid: string; smsId: string } | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const F = (k: string) => t(`sms.f.${k}`);
  const q = useQuery({
    queryKey: [sms.getSmsDetail.name, target],
    queryFn: ({ signal }) => call(sms.getSmsDetail, target!, { signal }),
    enabled: !!target,
  });
  const d = q.data;
  return (
    <Drawer open={!!target} onClose={onClose} title={t('sms.detail.title')} size="large" destroyOnHidden>
      {!d ? <Skeleton active /> : (
        <Descriptions column={1} bordered size="small" data-testid="sms-detail">
          <Descriptions.Item label="ICCID"><Link to={`/card/card-list/detail/${d.iccid}`} translate="no">{d.iccid}</Link></Descriptions.Item>
          <Descriptions.Item label="MSISDN">{d.msisdn ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={F('direction')}>{sms.SmsDirection.label(d.direction, lang)}</Descriptions.Item>
          <Descriptions.Item label={F('status')}><SmsStateTag row={d} /></Descriptions.Item>
          <Descriptions.Item label={F('content')}><span style={{ whiteSpace: 'pre-wrap' }}>{d.content}</span></Descriptions.Item>
          <Descriptions.Item label={F('encoding')}>{d.encoding ? sms.SmsEncoding.label(d.encoding, lang) : '-'}</Descriptions.Item>
          <Descriptions.Item label={F('source')}>{sms.SmsSource.label(d.source, lang)}</Descriptions.Item>
          <Descriptions.Item label={withZoneLabel(F('createdAt'))}>{dt(d.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={withZoneLabel(F('submittedAt'))}>{dt(d.submittedAt)}</Descriptions.Item>
          <Descriptions.Item label={F('messageId')}><span translate="no">{d.messageId ?? '-'}</span></Descriptions.Item>
          <Descriptions.Item label={F('reportCode')}><span translate="no">{d.reportCode ?? '-'}</span></Descriptions.Item>
          <Descriptions.Item label={withZoneLabel(F('reportAt'))}>{dt(d.reportAt)}</Descriptions.Item>
          <Descriptions.Item label={F('failReason')}>{d.failReason ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={F('account')}>{d.operAccountName ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={F('batch')}>
            {d.batchId ? <Link to={`/card/batchoperate/detail/${d.batchId}/all`} translate="no">{d.batchId.slice(0, 8)}</Link> : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={F('createdBy')}>{d.createdBy ?? '-'}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
