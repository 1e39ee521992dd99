import ExcelJS from 'exceljs';
import { carddata, channelbill, type Lang } from '@lynx/contract';
import type { Cells } from '../../../platform/spreadsheet.ts';

/*
 * Reading a channel bill file (ICCID, period, data in KB or MB, SMS, amount) and checking every line. Pure: no
 * database. A file with any bad line is refused as a whole (a bill reconciled on part of its lines would say less than
 * it seems to); the errors name the line, the column and the reason in both languages.
 */

const { CHANNEL_BILL_COLUMNS, CHANNEL_BILL_ERRORS_KEPT, CHANNEL_BILL_MAX_LINES } = channelbill;
type Column = (typeof CHANNEL_BILL_COLUMNS)[number]['key'];

export interface Bilingual {
  zh: string;
  en: string;
}

/** One checked line: bytes from KB or MB, the amount as an exact decimal text. */
export interface BillLine {
  lineNo: number;
  iccid: string;
  bytes: number;
  sms: number;
  amount: string;
}

export interface LineError {
  lineNo: number;
  iccid: string | null;
  column: Column | 'file';
  reason: Bilingual;
}

export interface CheckedFile {
  lines: BillLine[];
  /** the first CHANNEL_BILL_ERRORS_KEPT errors */
  errors: LineError[];
  /** lines with an error (all of them, kept or not) */
  badLines: number;
  dataLines: number;
  /** the sum of the amounts in fen */
  amountFen: bigint;
}

export const columnTitle = (key: string, lang: Lang): string => {
  if (key === 'file') return lang === 'zh' ? '文件' : 'File';
  const c = CHANNEL_BILL_COLUMNS.find((x) => x.key === key);
  return c ? c[lang] : key;
};

export const REASON = {
  required: { zh: '必填', en: 'is required' },
  iccid: { zh: '应为 19-20 位数字', en: 'must be 19-20 digits' },
  period: (want: string) => ({ zh: `应为本账单的账期 ${want}`, en: `must be this bill's period ${want}` }),
  data: { zh: '应为不小于 0 的数字，最多 3 位小数', en: 'must be a number of at least 0 with at most 3 decimals' },
  sms: { zh: '应为不小于 0 的整数', en: 'must be a whole number of at least 0' },
  amount: { zh: '应为不小于 0 的金额，最多 2 位小数', en: 'must be an amount of at least 0 with at most 2 decimals' },
  duplicate: (line: number) => ({ zh: `与第 ${line} 行的卡重复（每张卡一行）`, en: `repeats the card of line ${line} (one line a card)` }),
  missingColumns: (cols: string) => ({ zh: `缺少必填列：${cols}`, en: `required columns missing: ${cols}` }),
  oneDataColumn: { zh: '需要且只能有一列流量：流量(KB) 或 流量(MB)', en: 'needs exactly one data column: Data (KB) or Data (MB)' },
  empty: { zh: '文件中没有账单行', en: 'the file has no bill lines' },
  tooMany: { zh: `最多 ${CHANNEL_BILL_MAX_LINES} 行`, en: `at most ${CHANNEL_BILL_MAX_LINES} lines` },
  unreadable: { zh: '文件无法读取（已丢失或已损坏），请重新导入', en: 'the file cannot be read (lost or damaged); import it again' },
} satisfies Record<string, Bilingual | ((x: never) => Bilingual)>;

const norm = (s: string) => s.toLowerCase().replace(/[\s/（）()]/g, '');
const TITLES = new Map<string, Column>();
for (const c of CHANNEL_BILL_COLUMNS) for (const t of [c.zh, c.en, c.key]) TITLES.set(norm(t), c.key);
// what operators' own files call the same columns
for (const [t, k] of [['iccid号', 'iccid'], ['卡号', 'iccid'], ['月份', 'period'], ['billingperiod', 'period'], ['流量kb', 'dataKb'], ['usagekb', 'dataKb'],
  ['流量mb', 'dataMb'], ['usagemb', 'dataMb'], ['短信', 'sms'], ['短信条数', 'sms'], ['smscount', 'sms'], ['金额', 'amount'], ['费用元', 'amount'], ['amount', 'amount'], ['feecny', 'amount']] as const) {
  TITLES.set(norm(t), k);
}

const DECIMAL3 = /^(\d{1,13})(?:\.(\d{1,3}))?$/;
const MONEY = /^(\d{1,12})(?:\.(\d{1,2}))?$/;
const INT = /^\d{1,9}$/;

/** '12.5' KB → 12800 bytes: exact, rounded half up to the byte. */
export function bytesOf(text: string, unit: number): number | null {
  const m = DECIMAL3.exec(text.replace(/,/g, ''));
  if (!m) return null;
  const frac = m[2] ? Math.round((Number(m[2].padEnd(3, '0')) * unit) / 1000) : 0;
  const v = Number(m[1]) * unit + frac;
  return Number.isSafeInteger(v) ? v : null;
}

/** A period cell as 'YYYY-MM' ('2026-10', '202610', '2026/10', '2026年10月'); null when it is none. */
export function periodOf(text: string): string | null {
  const m = /^(\d{4})\s*(?:[-/.年])?\s*(\d{1,2})\s*月?$/.exec(text);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return null;
  return `${m[1]}-${m[2].padStart(2, '0')}`;
}

/** Checks the whole file against the bill's period. Blank rows are skipped. */
export function checkBillFile(cells: Cells[], periodKey: string): CheckedFile {
  const errors: LineError[] = [];
  const lines: BillLine[] = [];
  let badLines = 0;
  let amountFen = 0n;
  const out = { lines, errors, badLines, dataLines: 0, amountFen };
  const fileError = (reason: Bilingual) => {
    errors.push({ lineNo: 0, iccid: null, column: 'file', reason });
    return { ...out, badLines: 1 };
  };
  const [header = [], ...body] = cells;
  const idx: Partial<Record<Column, number>> = {};
  header.forEach((h, i) => {
    const k = h ? TITLES.get(norm(h)) : undefined;
    if (k && idx[k] === undefined) idx[k] = i;
  });
  const missing = CHANNEL_BILL_COLUMNS.filter((c) => c.required && idx[c.key] === undefined);
  if (missing.length) return fileError(REASON.missingColumns(missing.map((c) => `${c.zh} / ${c.en}`).join(', ')));
  if ((idx.dataKb === undefined) === (idx.dataMb === undefined)) return fileError(REASON.oneDataColumn);
  const dataKey: Column = idx.dataKb !== undefined ? 'dataKb' : 'dataMb';
  const unit = dataKey === 'dataKb' ? 1024 : 1024 * 1024;
  const at = (raw: Cells, k: Column) => (idx[k] === undefined ? null : (raw[idx[k]!] ?? null));
  const firstLine = new Map<string, number>();
  let dataLines = 0;
  for (let i = 0; i < body.length; i++) {
    const raw = body[i];
    if (!raw || raw.every((c) => c === null)) continue;
    dataLines++;
    if (dataLines > CHANNEL_BILL_MAX_LINES) return fileError(REASON.tooMany);
    const lineNo = i + 2;
    const iccid = at(raw, 'iccid');
    let bad = false;
    const fail = (column: Column, reason: Bilingual) => {
      if (!bad) badLines++;
      bad = true;
      if (errors.length < CHANNEL_BILL_ERRORS_KEPT) errors.push({ lineNo, iccid, column, reason });
    };
    if (!iccid) fail('iccid', REASON.required);
    else if (!carddata.ICCID_RE.test(iccid)) fail('iccid', REASON.iccid);
    else {
      const first = firstLine.get(iccid);
      if (first !== undefined) fail('iccid', REASON.duplicate(first));
      else firstLine.set(iccid, lineNo);
    }
    const period = at(raw, 'period');
    if (period && periodOf(period) !== periodKey) fail('period', REASON.period(periodKey));
    const dataText = at(raw, dataKey);
    const bytes = dataText === null ? null : bytesOf(dataText, unit);
    if (dataText === null) fail(dataKey, REASON.required);
    else if (bytes === null) fail(dataKey, REASON.data);
    const smsText = at(raw, 'sms');
    if (smsText !== null && !INT.test(smsText)) fail('sms', REASON.sms);
    const amountText = at(raw, 'amount');
    const m = amountText === null ? null : MONEY.exec(amountText.replace(/,/g, ''));
    if (amountText === null) fail('amount', REASON.required);
    else if (!m) fail('amount', REASON.amount);
    if (bad) continue;
    const cents = m![2] ? m![2].padEnd(2, '0') : '00';
    amountFen += BigInt(m![1]) * 100n + BigInt(cents);
    lines.push({ lineNo, iccid: iccid!, bytes: bytes!, sms: smsText === null ? 0 : Number(smsText), amount: `${BigInt(m![1])}.${cents}` });
  }
  if (dataLines === 0) return fileError(REASON.empty);
  return { lines, errors, badLines, dataLines, amountFen };
}

/** The template: the header in the caller's language (data in KB), two example lines; a sheet of notes in the xlsx. */
export function templateCsv(lang: Lang, period: string): string {
  const cols = CHANNEL_BILL_COLUMNS.filter((c) => c.key !== 'dataMb');
  const rows = [cols.map((c) => c[lang]).join(','), ...EXAMPLES(period).map((e) => cols.map((c) => e[c.key]).join(','))];
  return `\ufeff${rows.join('\r\n')}\r\n`;
}

export async function templateXlsx(lang: Lang, period: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(lang === 'zh' ? '渠道账单' : 'Channel bill');
  const cols = CHANNEL_BILL_COLUMNS.filter((c) => c.key !== 'dataMb');
  // an ICCID typed into a number cell loses digits in Excel: text
  ws.columns = cols.map((c) => ({ header: c[lang], key: c.key, width: 24, style: { numFmt: '@' } }));
  ws.getRow(1).font = { bold: true };
  for (const e of EXAMPLES(period)) ws.addRow(e);
  const notes = wb.addWorksheet(lang === 'zh' ? '填写说明' : 'How to fill in');
  for (const line of TEMPLATE_HELP[lang]) notes.addRow([line]);
  notes.getColumn(1).width = 110;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const EXAMPLES = (period: string): Record<Column, string>[] => [
  { iccid: '89860112345678901234', period, dataKb: '102400', dataMb: '100', sms: '3', amount: '5.00' },
  { iccid: '89860112345678901235', period, dataKb: '2048.5', dataMb: '2.001', sms: '0', amount: '0.80' },
];

export const TEMPLATE_HELP: Record<Lang, string[]> = {
  zh: [
    '每行一张卡，第 1 行为表头（中文或英文表头均可）。ICCID 列请设为文本格式，避免 Excel 丢失位数。',
    '必填列：ICCID、金额(元)，以及一列流量：流量(KB) 或 流量(MB)（二选一，最多 3 位小数）。账期、短信(条) 可不填。',
    '账期填写时须与导入时选择的账期一致（如 2026-10）。中国联通账期为上月 26 日至本月 25 日，其他运营商为自然月。',
    `一次最多 ${CHANNEL_BILL_MAX_LINES} 行；同一张卡只能出现一行。任意一行有误则整个文件不导入，错误逐行列出。`,
    '对账：流量差异不超过 1 MB 与平台用量 1% 中的较大者、且短信条数相同为“一致”，否则为“有差异”；平台无此卡为“平台无此卡”；平台有用量而账单中没有的卡为“渠道账单缺失”。',
  ],
  en: [
    'One card per row; row 1 is the header (Chinese or English titles). Format the ICCID column as text so Excel keeps every digit.',
    'Required: ICCID, Amount (CNY) and one data column: Data (KB) or Data (MB) (one of the two, up to 3 decimals). Period and SMS are optional.',
    'A period, when given, must be the period chosen at import (e.g. 2026-10). China Unicom periods run from the 26th to the 25th, the other operators the calendar month.',
    `At most ${CHANNEL_BILL_MAX_LINES} lines; one line per card. If any line is wrong nothing is imported and the errors are listed line by line.`,
    'Reconciliation: data within the larger of 1 MB and 1% of the platform\'s usage, with equal SMS counts, is "Matched", else "Differs"; a card the platform does not have is "Missing on platform"; a card with platform usage the bill lacks is "Missing in channel bill".',
  ],
};
