import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Skeleton, Typography } from 'antd';
import type { EChartProps } from './EChartImpl.tsx';

// ECharts loads with the first chart shown, in a chunk of its own: no page that draws none pays for it
const EChartImpl = lazy(() => import('./EChartImpl.tsx'));

class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** A chart (ECharts option), loaded lazily; `errorText` is shown if the chart code cannot be loaded. */
export function Chart({ errorText, ...props }: EChartProps & { errorText: string }) {
  return (
    <ChartBoundary fallback={<Typography.Text type="secondary">{errorText}</Typography.Text>}>
      <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height }} />}>
        <EChartImpl {...props} />
      </Suspense>
    </ChartBoundary>
  );
}

export type { EChartProps };
