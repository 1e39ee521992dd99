import type { ReactNode } from 'react';
import { Descriptions, Empty, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';

export interface DetailItem {
  label: string;
  value: ReactNode;
  span?: number;
}

/** A record's detail: loading, not found (also for records outside the tenant), or labelled fields. */
export function DetailPage({ loading, error, title, items, extra, children }: {
  loading: boolean; error?: unknown; title: ReactNode; items: DetailItem[]; extra?: ReactNode; children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (loading) return <div className="lx-card"><Skeleton active /></div>;
  if (error) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  if (!items.length) return <div className="lx-card"><Empty /></div>;
  return (
    <>
      <div className="lx-card">
        <Descriptions title={title} extra={extra} bordered column={{ xs: 1, sm: 1, md: 2, xl: 3 }} items={items.map((i, k) => ({ key: k, label: i.label, children: i.value ?? '-', span: i.span }))} />
      </div>
      {children}
    </>
  );
}
