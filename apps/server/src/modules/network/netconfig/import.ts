import ExcelJS from 'exceljs';
import type { Cells } from '../../../platform/spreadsheet.ts';
import { OperatorGoodsType, QuotaUnit, moneyToFen, netconfig, toMoneyText, type Lang } from '@lynx/contract';

const { GOODS_IMPORT_COLUMNS, IMPORT_MAX_ROWS } = netconfig;
type GoodsImportColumn = netconfig.GoodsImportColumn;

/*
 * Checking every row of the operator's rate plan file (xlsx or csv, read by platform/spreadsheet.ts), and its
 * template. Pure: the service adds the checks that need the database (codes already imported).
 */

export interface ParsedGoods {
  row: number;
  goodsCode: string;
  goodsName: string;
  operatorId: number;
  goodsType: number;
  quota: number;
  quotaUnit: number;
  quotaBase: number;
  validityDays: number;
  /** money text ('1.50') */
  price: string;
}

export interface RowError {
  row: number;
  column: string;
  reason: string;
}

export interface OperatorName {
  operatorId: number;
  code: string;
  nameZh: string;
  nameEn: string;
}


const columnTitle = (key: GoodsImportColumn | null, lang: Lang) => {
  const c = GOODS_IMPORT_COLUMNS.find((x) => x.key === key);
  return c ? c[lang] : '-';
};

/** Header cell → column key; titles are matched in both languages, ignoring case and spaces. */
function mapHeader(header: Cells): { map: (GoodsImportColumn | null)[]; missing: GoodsImportColumn[] } {
  const norm = (s: string) => s.toLowerCase().replace(/[\s（）()]/g, '');
  const map = header.map((h) => {
    if (!h) return null;
    const c = GOODS_IMPORT_COLUMNS.find((x) => norm(x.zh) === norm(h!) || norm(x.en) === norm(h!) || norm(x.key) === norm(h!));
    return c ? c.key : null;
  });
  const missing = GOODS_IMPORT_COLUMNS.map((c) => c.key).filter((k) => !map.includes(k));
  return { map, missing };
}

const R = {
  required: { zh: '必填', en: 'is required' },
  tooLong: (n: number) => ({ zh: `不能超过 ${n} 个字符`, en: `must be at most ${n} characters` }),
  codeFormat: { zh: '只能包含字母、数字、-、_ 和 .', en: 'may only contain letters, digits, -, _ and .' },
  unknownOperator: { zh: '未知的运营商（中国移动 / 中国联通 / 中国电信）', en: 'unknown operator (China Mobile / China Unicom / China Telecom)' },
  unknownType: { zh: '应为 流量 / 短信 / 语音', en: 'must be Data, SMS or Voice' },
  number: { zh: '应为大于 0 的数字', en: 'must be a number greater than 0' },
  decimals: (n: number) => ({ zh: `最多 ${n} 位小数`, en: `at most ${n} decimal places` }),
  integer: { zh: '应为正整数', en: 'must be a whole number greater than 0' },
  unit: (allowed: string) => ({ zh: `该类型的单位应为 ${allowed}`, en: `for this plan type the unit must be ${allowed}` }),
  price: { zh: '应为不小于 0 的金额，最多 2 位小数', en: 'must be an amount of at least 0 with at most 2 decimals' },
  duplicateInFile: (row: number) => ({ zh: `与第 ${row} 行重复`, en: `duplicates row ${row}` }),
  tooBig: (max: number) => ({ zh: `不能大于 ${max}`, en: `must not be greater than ${max}` }),
  missingColumn: { zh: '文件缺少此列，请使用导入模板', en: 'the file lacks this column; use the import template' },
};

const UNIT_ALIASES: Record<string, number> = {
  mb: QuotaUnit.Mb, m: QuotaUnit.Mb, gb: QuotaUnit.Gb, g: QuotaUnit.Gb,
  条: QuotaUnit.Items, messages: QuotaUnit.Items, message: QuotaUnit.Items, sms: QuotaUnit.Items, items: QuotaUnit.Items,
  分钟: QuotaUnit.Minutes, minutes: QuotaUnit.Minutes, minute: QuotaUnit.Minutes, min: QuotaUnit.Minutes, mins: QuotaUnit.Minutes,
};
const UNITS_OF_TYPE: Record<number, number[]> = {
  [OperatorGoodsType.Data]: [QuotaUnit.Mb, QuotaUnit.Gb],
  [OperatorGoodsType.Sms]: [QuotaUnit.Items],
  [OperatorGoodsType.Voice]: [QuotaUnit.Minutes],
};
/** spec §5: sizes in base 1024 */
export const toBase = (quota: number, unit: number) => (unit === QuotaUnit.Gb ? quota * 1024 : quota);

const QUOTA_MAX = 10_000_000;
const VALIDITY_MAX = 3660;
const PRICE_MAX = 1_000_000;
const CODE_RE = /^[A-Za-z0-9_.-]+$/;

const decimalsOf = (s: string) => (s.includes('.') ? s.split('.')[1].length : 0);
const NUMBER_RE = /^\d+(\.\d+)?$/;

/**
 * Checks every row and collects every problem (row number, column, reason in the caller's language); an
 * empty error list means every row is good. Blank rows are skipped.
 */
export function checkRows(cells: Cells[], operatorList: OperatorName[], lang: Lang): { rows: ParsedGoods[]; errors: RowError[]; dataRows: number } {
  const errors: RowError[] = [];
  const rows: ParsedGoods[] = [];
  const [header = [], ...body] = cells;
  const { map, missing } = mapHeader(header);
  if (missing.length) {
    return { rows, errors: missing.map((k) => ({ row: 1, column: columnTitle(k, lang), reason: R.missingColumn[lang] })), dataRows: 0 };
  }
  const opByName = new Map<string, number>();
  for (const o of operatorList) for (const n of [o.code, o.nameZh, o.nameEn, String(o.operatorId)]) opByName.set(n.toLowerCase().replace(/\s/g, ''), o.operatorId);
  const typeByName = new Map<string, number>();
  for (const v of OperatorGoodsType.values) for (const l of ['zh', 'en'] as const) typeByName.set(OperatorGoodsType.label(v, l).toLowerCase(), v);
  typeByName.set('flow', OperatorGoodsType.Data).set('流量包', OperatorGoodsType.Data).set('语音包', OperatorGoodsType.Voice).set('短信包', OperatorGoodsType.Sms);

  const firstRowOfCode = new Map<string, number>();
  let dataRows = 0;
  body.forEach((raw, i) => {
    const rowNo = i + 2;
    if (raw.every((c) => c === null)) return;
    dataRows++;
    const get = (k: GoodsImportColumn) => raw[map.indexOf(k)] ?? null;
    const bad = (k: GoodsImportColumn, reason: { zh: string; en: string }) => errors.push({ row: rowNo, column: columnTitle(k, lang), reason: reason[lang] });
    const before = errors.length;

    const code = get('goodsCode');
    if (!code) bad('goodsCode', R.required);
    else if (code.length > 64) bad('goodsCode', R.tooLong(64));
    else if (!CODE_RE.test(code)) bad('goodsCode', R.codeFormat);

    const name = get('goodsName');
    if (!name) bad('goodsName', R.required);
    else if ([...name].length > 100) bad('goodsName', R.tooLong(100));

    const opText = get('operator');
    const operatorId = opText ? opByName.get(opText.toLowerCase().replace(/\s/g, '')) : undefined;
    if (!opText) bad('operator', R.required);
    else if (operatorId === undefined) bad('operator', R.unknownOperator);

    const typeText = get('goodsType');
    const goodsType = typeText ? typeByName.get(typeText.toLowerCase()) : undefined;
    if (!typeText) bad('goodsType', R.required);
    else if (goodsType === undefined) bad('goodsType', R.unknownType);

    const quotaText = get('quota');
    let quota = NaN;
    if (!quotaText) bad('quota', R.required);
    else if (!NUMBER_RE.test(quotaText) || Number(quotaText) <= 0) bad('quota', R.number);
    else if (decimalsOf(quotaText) > 3) bad('quota', R.decimals(3));
    else if (Number(quotaText) > QUOTA_MAX) bad('quota', R.tooBig(QUOTA_MAX));
    else quota = Number(quotaText);

    const unitText = get('quotaUnit');
    const unit = unitText ? UNIT_ALIASES[unitText.toLowerCase()] : undefined;
    const allowed = goodsType !== undefined ? UNITS_OF_TYPE[goodsType] : undefined;
    const allowedText = allowed?.map((u) => QuotaUnit.label(u, lang)).join(' / ') ?? 'MB / GB';
    if (!unitText) bad('quotaUnit', R.required);
    else if (unit === undefined || (allowed && !allowed.includes(unit))) bad('quotaUnit', R.unit(allowedText));
    else if (unit !== QuotaUnit.Mb && unit !== QuotaUnit.Gb && Number.isFinite(quota) && !Number.isInteger(quota)) bad('quota', R.integer);

    const validityText = get('validityDays');
    if (!validityText) bad('validityDays', R.required);
    else if (!/^\d+$/.test(validityText) || Number(validityText) < 1) bad('validityDays', R.integer);
    else if (Number(validityText) > VALIDITY_MAX) bad('validityDays', R.tooBig(VALIDITY_MAX));

    const priceText = get('price');
    if (!priceText) bad('price', R.required);
    else if (!NUMBER_RE.test(priceText) || decimalsOf(priceText) > 2) bad('price', R.price);
    else if ((moneyToFen(priceText) ?? 0n) > BigInt(PRICE_MAX) * 100n) bad('price', R.tooBig(PRICE_MAX));

    if (code && operatorId !== undefined) {
      const key = `${operatorId}:${code.toLowerCase()}`;
      const first = firstRowOfCode.get(key);
      if (first !== undefined) bad('goodsCode', R.duplicateInFile(first));
      else firstRowOfCode.set(key, rowNo);
    }
    if (errors.length === before) {
      rows.push({
        row: rowNo, goodsCode: code!, goodsName: name!.trim(), operatorId: operatorId!, goodsType: goodsType!, quota, quotaUnit: unit!,
        quotaBase: toBase(quota, unit!), validityDays: Number(validityText), price: toMoneyText(priceText)!,
      });
    }
  });
  return { rows, errors, dataRows };
}

export const MAX_ROWS = IMPORT_MAX_ROWS;
export const importColumnTitle = columnTitle;

/** The template: the header row in the caller's language and one example row. */
export async function templateXlsx(lang: Lang): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(lang === 'zh' ? '运营商套餐' : 'Operator plans');
  ws.columns = GOODS_IMPORT_COLUMNS.map((c) => ({ header: c[lang], key: c.key, width: Math.max(16, c[lang].length * 2 + 4) }));
  ws.getRow(1).font = { bold: true };
  ws.addRow(Object.fromEntries(GOODS_IMPORT_COLUMNS.map((c) => [c.key, exampleOf(c.key, lang)])));
  const notes = wb.addWorksheet(lang === 'zh' ? '填写说明' : 'How to fill in');
  for (const line of HELP[lang]) notes.addRow([line]);
  notes.getColumn(1).width = 100;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function templateCsv(lang: Lang): string {
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const header = GOODS_IMPORT_COLUMNS.map((c) => quote(c[lang])).join(',');
  const example = GOODS_IMPORT_COLUMNS.map((c) => quote(exampleOf(c.key, lang))).join(',');
  return `\ufeff${header}\r\n${example}\r\n`;
}

function exampleOf(key: GoodsImportColumn, lang: Lang): string {
  const en: Partial<Record<GoodsImportColumn, string>> = { goodsName: 'China Unicom 1 GB monthly', operator: 'China Unicom', goodsType: 'Data' };
  const c = GOODS_IMPORT_COLUMNS.find((x) => x.key === key)!;
  return lang === 'en' ? (en[key] ?? c.example) : c.example;
}

const HELP: Record<Lang, string[]> = {
  zh: [
    '每行一个运营商套餐，第 1 行为表头（中文或英文表头均可），请勿修改列名。',
    '运营商：中国移动 / 中国联通 / 中国电信（或 CMCC / CUCC / CTCC）。',
    '套餐类型：流量 / 短信 / 语音。额度单位：流量为 MB 或 GB（1 GB = 1024 MB），短信为 条，语音为 分钟。',
    '有效期为正整数天数；价格单位为元，最多 2 位小数。',
    `同一运营商下套餐编码唯一；一次最多 ${IMPORT_MAX_ROWS} 行。任一行有误时不导入任何数据，并逐行列出错误。`,
  ],
  en: [
    'One operator plan per row; row 1 is the header (Chinese or English titles), do not rename the columns.',
    'Operator: China Mobile / China Unicom / China Telecom (or CMCC / CUCC / CTCC).',
    'Plan type: Data / SMS / Voice. Quota unit: MB or GB for data (1 GB = 1024 MB), messages for SMS, minutes for voice.',
    'Validity is a whole number of days; the price is in CNY with at most 2 decimals.',
    `Plan codes are unique per operator; at most ${IMPORT_MAX_ROWS} rows per file. If any row is wrong nothing is imported and every error is listed.`,
  ],
};
