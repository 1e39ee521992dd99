import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { sms, type ResponseOf } from '@lynx/contract';
import { StatusTag } from '../../../components/StatusTag.tsx';

export type SmsRow = ResponseOf<typeof sms.getSmsListPage>['list'][number];

const { SmsStatus, SmsDirection } = sms;

export const SMS_STATUS_COLORS: Record<number, string> = {
  [SmsStatus.Sending]: 'processing', [SmsStatus.Submitted]: 'blue', [SmsStatus.Sent]: 'success', [SmsStatus.SendFailed]: 'error', [SmsStatus.SubmitFailed]: 'error',
};

/** A message's state: the five states of spec §4 for messages to the device; a message from the device is "received". */
export function SmsStateTag({ row }: { row: Pick<SmsRow, 'direction' | 'status'> }) {
  const { t } = useTranslation();
  if (row.direction === SmsDirection.FromDevice) return <Tag color="cyan">{t('sms.received')}</Tag>;
  return <StatusTag enumOf={SmsStatus} value={row.status} colors={SMS_STATUS_COLORS} />;
}

/** A live length counter: characters in the message's encoding against its one-part limit. */
export function smsCounter(content: string, t: TFunction, lang: 'zh' | 'en') {
  const len = sms.smsLength(content);
  return { ...len, text: t('sms.counter', { n: len.units, max: len.max, encoding: sms.SmsEncoding.label(len.encoding, lang) }) };
}
