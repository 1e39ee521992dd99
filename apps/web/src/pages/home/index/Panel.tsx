import type { ReactNode } from 'react';
import { Typography } from 'antd';

/**
 * A titled box of the overview (a chart, a short list), filling its grid cell. `flush` drops the card's bottom
 * margin where the row below keeps its own distance (fleet health).
 */
export function Panel({ title, extra, children, testId, flush }: {
  title: ReactNode; extra?: ReactNode; children: ReactNode; testId: string; flush?: boolean;
}) {
  return (
    <div className="lx-card" data-testid={testId} style={{ height: '100%', ...(flush ? { marginBottom: 0 } : {}) }}>
      <div style={{ display: 'flex', alignItems: 'center', marginBottom: 8, gap: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{title}</Typography.Title>
        <div style={{ marginLeft: 'auto' }}>{extra}</div>
      </div>
      {children}
    </div>
  );
}
