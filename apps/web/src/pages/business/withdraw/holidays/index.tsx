import { useEffect, useState } from 'react';
import { Alert, App, Button, DatePicker, Empty, Form, Input, Modal, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CalendarDayType, ErrorCode, Perm, STAFF_ROLE_TYPES, businessToday, formatDateTime, withZoneLabel, withdraw, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { pickerToDay } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';

type Day = ResponseOf<typeof withdraw.getCalendarDays>[number];
interface DayForm { day: Dayjs | null; kind: number; name: string; nameEn?: string }

const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

/** Add or edit one day of the calendar (the date of an existing day is fixed: delete it and add another). */
function DayModal({ open, record, onClose, onSaved }: { open: boolean; record: Day | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<DayForm>();
  const { busy, save } = useFormSave(form, { [ErrorCode.CalendarDayExists]: 'day', [ErrorCode.CalendarMakeUpNotWeekend]: 'kind' });
  const C = (k: string, o?: Record<string, unknown>) => t(`withdraw.calendar.${k}`, o);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(record
      ? { day: dayjs(record.day), kind: record.kind, name: record.name, nameEn: record.nameEn ?? '' }
      : { day: null, kind: CalendarDayType.Holiday, name: '', nameEn: '' });
  }, [open, record, form]);
  const submit = async () => {
    let v: DayForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { day: record ? record.day : pickerToDay(v.day!), kind: v.kind, name: v.name.trim(), ...(v.nameEn?.trim() ? { nameEn: v.nameEn.trim() } : {}) };
    const ok = await save(() => call(record ? withdraw.updateCalendarDay : withdraw.addCalendarDay, body, { silent: true }));
    if (ok) {
      onSaved();
      onClose();
    }
  };
  return (
    <Modal open={open} title={record ? C('editTitle', { day: record.day }) : C('addTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy}
      okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" disabled={busy}>
        <Form.Item name="day" label={C('day')} rules={[{ required: true, message: t('common.required') }]}>
          <DatePicker disabled={!!record} style={{ width: '100%' }} data-testid="calendar-day" />
        </Form.Item>
        <Form.Item name="kind" label={C('kind')} rules={[{ required: true }]}>
          <Radio.Group options={CalendarDayType.options(i18n.language === 'en' ? 'en' : 'zh')} optionType="button" />
        </Form.Item>
        <Form.Item name="name" label={C('name')} rules={[{ required: true, whitespace: true, message: t('common.required') }, { max: withdraw.CALENDAR_NAME_MAX }]}>
          <Input maxLength={withdraw.CALENDAR_NAME_MAX} />
        </Form.Item>
        <Form.Item name="nameEn" label={C('nameEn')} rules={[{ max: withdraw.CALENDAR_NAME_MAX }]}>
          <Input maxLength={withdraw.CALENDAR_NAME_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /business/withdraw/holidays: the working-day calendar of a year (holidays and make-up working days). Everyone with
 * the withdrawal or top-up page reads it; staff with the review code add, edit and delete days (audited).
 */
export default function WorkingDays() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canEdit = usePerm([withdraw.WithdrawPerm.Review, Perm.BusinessRechargeAudit]) && staff;
  const thisYear = Number(businessToday().slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const [editing, setEditing] = useState<{ record: Day | null } | null>(null);
  const C = (k: string, o?: Record<string, unknown>) => t(`withdraw.calendar.${k}`, o);
  const weekdays = C('weekdays').split(',');
  const q = useQuery({
    queryKey: [withdraw.getCalendarDays.name, year],
    queryFn: ({ signal }) => call(withdraw.getCalendarDays, { year }, { signal }),
  });

  const remove = (d: Day) => modal.confirm({
    title: t('common.delete'),
    content: C('deleteConfirm', { day: d.day, name: lang === 'en' && d.nameEn ? d.nameEn : d.name }),
    okButtonProps: { danger: true },
    okText: t('common.delete'),
    cancelText: t('common.cancel'),
    onOk: async () => {
      await call(withdraw.deleteCalendarDay, { day: d.day });
      message.success(C('deleted'));
      void q.refetch();
    },
  });

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/business/withdraw/list')}>{t('withdraw.title')}</Button>
      </Space>
      <Typography.Paragraph type="secondary">{C('intro')}</Typography.Paragraph>
      {!canEdit && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={C('staffOnly')} />}
      {q.isError && <Alert type="error" showIcon style={{ marginBottom: 12 }} title={(q.error as Error).message} />}
      <div style={{ display: 'flex', alignItems: 'center', marginBottom: 12, gap: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{C('title')}</Typography.Title>
        <Select value={year} onChange={setYear} style={{ width: 110 }} aria-label={C('year')} data-testid="calendar-year"
          options={[thisYear - 1, thisYear, thisYear + 1, thisYear + 2].map((y) => ({ value: y, label: String(y) }))} />
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} style={{ marginLeft: 'auto' }} onClick={() => setEditing({ record: null })} data-testid="calendar-add">{C('add')}</Button>
        )}
      </div>
      <Table<Day>
        size="small"
        rowKey="day"
        loading={q.isFetching}
        dataSource={q.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={C('empty')} /> }}
        columns={[
          { title: C('day'), dataIndex: 'day', width: 120 },
          { title: C('weekday'), key: 'weekday', width: 80, render: (_: unknown, d) => weekdays[weekdayOf(d.day)] },
          {
            title: C('kind'), dataIndex: 'kind', width: 160,
            render: (v: number, d) => (
              <Space size={4}>
                <StatusTag enumOf={CalendarDayType} value={v} colors={{ [CalendarDayType.Holiday]: 'red', [CalendarDayType.MakeUpWorkday]: 'blue' }} />
                {d.provisional && <Tag color="warning">{C('provisional')}</Tag>}
              </Space>
            ),
          },
          { title: C('name'), dataIndex: 'name', ellipsis: true, render: (v: string, d) => (lang === 'en' && d.nameEn ? d.nameEn : v) },
          { title: C('updatedBy'), dataIndex: 'updatedBy', width: 110, render: (v: string | null) => v ?? '-' },
          { title: withZoneLabel(C('updatedAt')), dataIndex: 'updatedAt', width: 170, render: (v: string) => formatDateTime(v) },
          ...(canEdit ? [{
            title: t('common.actions'), key: 'actions', width: 130,
            render: (_: unknown, d: Day) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing({ record: d })}>{t('common.edit')}</Button>
                <Button type="link" size="small" danger onClick={() => remove(d)}>{t('common.delete')}</Button>
              </Space>
            ),
          }] : []),
        ]}
      />
      <DayModal open={!!editing} record={editing?.record ?? null} onClose={() => setEditing(null)} onSaved={() => void q.refetch()} />
    </>
  );
}
