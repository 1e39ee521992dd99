import type { ColumnsType } from 'antd/es/table';

/**
 * Column widths that never squeeze a header (issue 12: "Action s", "Standard price (CN…" at 1440 px). A column's
 * configured width is a wish; it grows to what its title needs on one line (the header text, the cell padding and
 * the sorter or filter icons), and the table's scroll width grows with it, so a wide list scrolls sideways.
 */
export type MeasureText = (text: string) => number;

/** cell padding (antd: 16 px a side) and what a sorter or a filter icon takes beside the title */
const PADDING = 32;
const ICON = 26;

export function fitHeaderWidths<Row>(columns: ColumnsType<Row>, measure: MeasureText | null): ColumnsType<Row> {
  if (!measure) return columns;
  return columns.map((c) => {
    if (typeof c.title !== 'string' || typeof c.width !== 'number') return c;
    const icons = (c.sorter ? ICON : 0) + ('filters' in c && c.filters ? ICON : 0);
    const need = Math.ceil(measure(c.title)) + PADDING + icons + 2;
    return need > c.width ? { ...c, width: need } : c;
  });
}

/** A numeric scroll width grows by what the columns grew; 'max-content' stays. */
export function fitScrollX<Row>(scrollX: number | undefined, before: ColumnsType<Row>, after: ColumnsType<Row>): number | undefined {
  if (scrollX === undefined) return undefined;
  const sum = (cs: ColumnsType<Row>) => cs.reduce((n, c) => n + (typeof c.width === 'number' ? c.width : 0), 0);
  return scrollX + Math.max(0, sum(after) - sum(before));
}

let canvas: CanvasRenderingContext2D | null | undefined;
/** The width of a header text in the table header's font (semibold 14 px), or null where nothing can measure (tests). */
export function headerTextMeasure(): MeasureText | null {
  if (canvas === undefined) {
    try {
      canvas = typeof document === 'undefined' || /jsdom/i.test(navigator.userAgent) ? null : document.createElement('canvas').getContext('2d');
    } catch {
      canvas = null;
    }
  }
  const ctx = canvas;
  if (!ctx) return null;
  ctx.font = `600 14px ${getComputedStyle(document.body).fontFamily}`;
  return (text) => ctx.measureText(text).width;
}
