import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

// only the parts the console draws: bar and line charts on a grid with tooltips, on canvas
echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface EChartProps {
  option: EChartsCoreOption;
  height: number;
  /** what the chart shows, for screen readers */
  label: string;
  testId?: string;
  /** a click on a data item (a bar), by its index in the series */
  onItemClick?: (dataIndex: number) => void;
}

/** One ECharts instance bound to a div: resized with its box (also when a cached tab is shown again), disposed on unmount. */
export default function EChartImpl({ option, height, label, testId, onItemClick }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const click = useRef(onItemClick);
  click.current = onItemClick;
  useEffect(() => {
    const el = box.current!;
    const c = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = c;
    c.on('click', (p) => click.current?.((p as { dataIndex: number }).dataIndex));
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => c.resize());
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);
  return <div ref={box} style={{ width: '100%', height }} role="img" aria-label={label} data-testid={testId} />;
}
