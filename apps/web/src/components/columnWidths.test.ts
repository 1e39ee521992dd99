import { describe, expect, it } from 'vitest';
import type { ColumnsType } from 'antd/es/table';
import { fitHeaderWidths, fitScrollX } from './columnWidths.ts';

// 8 px a character: "Standard price (CNY)" (20) needs 160 + 32 padding + 2
const measure = (s: string) => s.length * 8;
type Row = { a: number };

describe('header widths', () => {
  it('widens a column whose title would not fit on one line, counting its sorter icon', () => {
    const cols: ColumnsType<Row> = [
      { title: 'Standard price (CNY)', dataIndex: 'a', width: 130 },
      { title: 'Actions', key: 'x', width: 60, sorter: true },
    ];
    const fitted = fitHeaderWidths(cols, measure);
    expect(fitted.map((c) => c.width)).toEqual([194, 7 * 8 + 32 + 26 + 2]);
  });
  it('keeps columns that fit, have no numeric width or no text title, and everything when nothing can measure', () => {
    const cols: ColumnsType<Row> = [
      { title: 'ICCID', dataIndex: 'a', width: 200 },
      { title: 'Name', dataIndex: 'a' },
      { title: 'Quite a long title here', dataIndex: 'a', width: '20%' },
    ];
    expect(fitHeaderWidths(cols, measure)).toEqual(cols);
    const narrow: ColumnsType<Row> = [{ title: 'Standard price (CNY)', dataIndex: 'a', width: 10 }];
    expect(fitHeaderWidths(narrow, null)).toBe(narrow);
  });
  it('grows a numeric scroll width by what the columns grew, and leaves none alone', () => {
    const before: ColumnsType<Row> = [{ title: 'Standard price (CNY)', dataIndex: 'a', width: 130 }, { title: 'A', dataIndex: 'a', width: 100 }];
    const after = fitHeaderWidths(before, measure);
    expect(fitScrollX(1000, before, after)).toBe(1064);
    expect(fitScrollX(undefined, before, after)).toBeUndefined();
  });
});
