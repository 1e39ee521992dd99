import { SIZE_UNITS, formatSize } from '@lynx/contract';

/**
 * Sizes on a chart axis: the values are drawn in the largest base-1024 unit the data reaches, so the axis steps are
 * round numbers of that unit (0, 0.5, 1 GB, all in one unit on purpose); labels and tooltips show each value's own
 * scaled size (formatSize).
 */
export function sizeScale(values: number[]) {
  const max = Math.max(0, ...values);
  let k = 0;
  while (k < SIZE_UNITS.length - 1 && max >= 1024 ** (k + 1)) k++;
  const div = 1024 ** k;
  return {
    data: values.map((bytes) => ({ value: bytes / div, bytes })),
    axis: { type: 'value', axisLabel: { formatter: (v: number) => `${Number(v.toFixed(2))} ${SIZE_UNITS[k]}`, hideOverlap: true }, splitLine: { lineStyle: { type: 'dashed' } } },
  };
}

/** An ECharts tooltip of one size point: its category name and its size. */
export const tooltipSize = (p: unknown) => {
  const x = (Array.isArray(p) ? p[0] : p) as { name: string; data: { bytes: number }; marker?: string };
  return `${x.name}<br/>${x.marker ?? ''}${formatSize(x.data.bytes)}`;
};
