import { carddata, type Lang } from '@lynx/contract';
import { sheetColumnTitle, sheetTemplateCsv, sheetTemplateXlsx, type Bilingual, type Cells } from '../../../platform/spreadsheet.ts';

/*
 * Reading a card file (ICCID, MSISDN, IMSI, operator, card type, batch/remark) and checking every row. Pure: the
 * service adds the check that needs the database (cards that already exist are never overwritten).
 */

const { CARD_IMPORT_COLUMNS, CARD_IMPORT_MAX_ROWS, ICCID_RE, IMSI_RE, MSISDN_RE } = carddata;
type Column = carddata.CardImportColumn;

export type { Bilingual } from '../../../platform/spreadsheet.ts';

export interface ParsedCard {
  row: number;
  iccid: string;
  msisdn: string;
  imsi: string;
  operatorId: number;
  /** the card type named in the file (either language), null when the column is absent or blank */
  cardTypeId: number | null;
  batchNo: string | null;
}

/** One problem of one row: the column key and the reason in both languages (stored, shown per reader). */
export interface CardRowError {
  row: number;
  iccid: string | null;
  msisdn: string | null;
  imsi: string | null;
  column: Column;
  reason: Bilingual;
}

export interface OperatorName {
  operatorId: number;
  code: string;
  nameZh: string;
  nameEn: string;
}

/** A card type's names, as the card type column may give them. */
export interface CardTypeName {
  cardTypeId: number;
  nameZh: string;
  nameEn: string;
}

export const columnTitle = (key: string, lang: Lang) => sheetColumnTitle(CARD_IMPORT_COLUMNS, key, lang);

export const REASON = {
  required: { zh: '必填', en: 'is required' },
  iccid: { zh: '应为 19-20 位数字', en: 'must be 19-20 digits' },
  msisdn: { zh: '应为 5-15 位数字', en: 'must be 5-15 digits' },
  imsi: { zh: '应为 15 位数字', en: 'must be 15 digits' },
  unknownOperator: { zh: '未知的运营商（中国移动 / 中国联通 / 中国电信）', en: 'unknown operator (China Mobile / China Unicom / China Telecom)' },
  tooLong: (n: number) => ({ zh: `不能超过 ${n} 个字符`, en: `must be at most ${n} characters` }),
  duplicateInFile: (row: number) => ({ zh: `与第 ${row} 行重复`, en: `duplicates row ${row}` }),
  exists: { zh: '卡已存在，未覆盖', en: 'the card already exists and was not overwritten' },
  unknownCardType: { zh: '未知的卡类型（请使用“卡类型”中已有的名称）', en: 'unknown card type (use a name listed under Card types)' },
} satisfies Record<string, Bilingual | ((n: number) => Bilingual)>;

const norm = (s: string) => s.toLowerCase().replace(/[\s/（）()]/g, '');

/** Header cell → column key; titles in either language (or the key itself), ignoring case, spaces and slashes. */
export function mapHeader(header: Cells): { map: (Column | null)[]; missing: Column[] } {
  const map = header.map((h) => {
    if (!h) return null;
    const c = CARD_IMPORT_COLUMNS.find((x) => [x.zh, x.en, x.key].some((t) => norm(t) === norm(h)));
    return c ? c.key : null;
  });
  const missing = CARD_IMPORT_COLUMNS.filter((c) => c.required && !map.includes(c.key)).map((c) => c.key);
  return { map, missing };
}

/**
 * Checks every row: digits and lengths, a known operator, and no ICCID, MSISDN or IMSI twice in the file.
 * Blank rows are skipped. A row with any problem is not imported; the others are.
 */
export function checkCardRows(
  cells: Cells[], operatorList: OperatorName[], cardTypeList: CardTypeName[] = [],
): { rows: ParsedCard[]; errors: CardRowError[]; dataRows: number; missing: Column[] } {
  const errors: CardRowError[] = [];
  const rows: ParsedCard[] = [];
  const [header = [], ...body] = cells;
  const { map, missing } = mapHeader(header);
  if (missing.length) return { rows, errors, dataRows: 0, missing };
  const idx = Object.fromEntries(CARD_IMPORT_COLUMNS.map((c) => [c.key, map.indexOf(c.key)])) as Record<Column, number>;
  const opByName = new Map<string, number>();
  for (const o of operatorList) for (const n of [o.code, o.nameZh, o.nameEn, String(o.operatorId)]) opByName.set(norm(n), o.operatorId);
  // card type names are unique across both languages (the card type screen enforces it)
  const typeByName = new Map<string, number>();
  for (const t of cardTypeList) for (const n of [t.nameZh, t.nameEn]) typeByName.set(n.trim().toLowerCase(), t.cardTypeId);

  const firstRow = { iccid: new Map<string, number>(), msisdn: new Map<string, number>(), imsi: new Map<string, number>() };
  let dataRows = 0;
  for (let i = 0; i < body.length; i++) {
    const raw = body[i];
    if (!raw || raw.every((c) => c === null)) continue;
    dataRows++;
    if (dataRows > CARD_IMPORT_MAX_ROWS) continue;
    const rowNo = i + 2;
    const get = (k: Column) => (idx[k] >= 0 ? (raw[idx[k]] ?? null) : null);
    const iccid = get('iccid');
    const msisdn = get('msisdn');
    const imsi = get('imsi');
    let bad = false;
    const fail = (column: Column, reason: Bilingual) => {
      bad = true;
      errors.push({ row: rowNo, iccid, msisdn, imsi, column, reason });
    };
    const unique = (column: 'iccid' | 'msisdn' | 'imsi', v: string) => {
      const first = firstRow[column].get(v);
      if (first !== undefined) fail(column, REASON.duplicateInFile(first));
      else firstRow[column].set(v, rowNo);
    };

    if (!iccid) fail('iccid', REASON.required);
    else if (!ICCID_RE.test(iccid)) fail('iccid', REASON.iccid);
    else unique('iccid', iccid);

    if (!msisdn) fail('msisdn', REASON.required);
    else if (!MSISDN_RE.test(msisdn)) fail('msisdn', REASON.msisdn);
    else unique('msisdn', msisdn);

    if (!imsi) fail('imsi', REASON.required);
    else if (!IMSI_RE.test(imsi)) fail('imsi', REASON.imsi);
    else unique('imsi', imsi);

    const opText = get('operator');
    const operatorId = opText ? opByName.get(norm(opText)) : undefined;
    if (!opText) fail('operator', REASON.required);
    else if (operatorId === undefined) fail('operator', REASON.unknownOperator);

    const typeText = get('cardType');
    const cardTypeId = typeText ? (typeByName.get(typeText.trim().toLowerCase()) ?? null) : null;
    if (typeText && cardTypeId === null) fail('cardType', REASON.unknownCardType);

    const batchNo = get('batchNo');
    if (batchNo && [...batchNo].length > 64) fail('batchNo', REASON.tooLong(64));

    if (!bad) rows.push({ row: rowNo, iccid: iccid!, msisdn: msisdn!, imsi: imsi!, operatorId: operatorId!, cardTypeId, batchNo });
  }
  return { rows, errors, dataRows, missing };
}

/** The template: the header row in the caller's language, one example row, ICCID/MSISDN/IMSI as text. */
export const cardTemplateXlsx = (lang: Lang): Promise<Buffer> =>
  sheetTemplateXlsx(CARD_IMPORT_COLUMNS, lang, (k) => exampleOf(k, lang), { sheet: lang === 'zh' ? '卡导入' : 'Card import', width: 24, help: HELP[lang] });

export const cardTemplateCsv = (lang: Lang): string => sheetTemplateCsv(CARD_IMPORT_COLUMNS, lang, (k) => exampleOf(k, lang));

const exampleOf = (key: Column, lang: Lang) => (key === 'operator' && lang === 'en' ? 'China Unicom' : CARD_IMPORT_COLUMNS.find((c) => c.key === key)!.example);

const HELP: Record<Lang, string[]> = {
  zh: [
    '每行一张卡，第 1 行为表头（中文或英文表头均可），请勿修改列名。',
    'ICCID 为 19-20 位数字；MSISDN 为 5-15 位数字；IMSI 为 15 位数字。请将这些列设为文本格式，避免 Excel 丢失位数。',
    '运营商：中国移动 / 中国联通 / 中国电信（或 CMCC / CUCC / CTCC）。批次/备注可不填，最多 64 个字符。',
    '卡类型可不填；填写时须为“卡类型”页面中已有的名称（中文或英文名称均可），否则该行不导入。',
    `一次最多 ${CARD_IMPORT_MAX_ROWS} 行。合格的行会导入，有误的行和已存在的卡会逐行列出（已存在的卡不会被覆盖）。`,
    '导入的卡为“初始”状态，属于平台库存，之后可划拨给客户。',
  ],
  en: [
    'One card per row; row 1 is the header (Chinese or English titles), do not rename the columns.',
    'ICCID: 19-20 digits; MSISDN: 5-15 digits; IMSI: 15 digits. Format these columns as text so Excel keeps every digit.',
    'Operator: China Mobile / China Unicom / China Telecom (or CMCC / CUCC / CTCC). Batch / remark is optional, at most 64 characters.',
    'Card type is optional; when given it must be a name listed under Card types (Chinese or English name), otherwise the row is not imported.',
    `At most ${CARD_IMPORT_MAX_ROWS} rows per file. Valid rows are imported; bad rows and cards that already exist are listed row by row (existing cards are never overwritten).`,
    'Imported cards are in the "Start" state in the platform stock and can then be allocated to customers.',
  ],
};
