import type { ReactNode } from 'react';
import { Typography } from 'antd';

/** A titled card of a page (the home overview's sections, a customer's detail): a title, actions on the right, content. */
export function Section({ title, extra, children, testId }: { title: ReactNode; extra?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="lx-card" data-testid={testId}>
      <div style={{ display: 'flex', alignItems: 'center', marginBottom: 12, gap: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{title}</Typography.Title>
        <div style={{ marginLeft: 'auto' }}>{extra}</div>
      </div>
      {children}
    </div>
  );
}
