// The eUICC import file (docs/euicc.md "Import"): xlsx, csv or txt, headers in either language, one row per eUICC
// (EID), profile (ICCID + operator) or profile bound to an eUICC (both). The file's rows are checked on their own first
// (formats, repeats, operator) and every wrong row is listed (21362, nothing stored); the rows then go through the same
// all-or-nothing transaction as the JSON import (`batchInsert`: existing EIDs / ICCIDs, the owner, the ES2+ orders).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, euicc as api, type BodyOf, type Lang } from '@lynx/contract';
import { AppError, invalid } from '../../platform/errors.ts';
import { sendDownload } from '../../platform/files.ts';
import type { SessionContext } from '../../platform/context.ts';
import {
  checkSheetRows, looseName, readImportUpload, sheetTemplateCsv, sheetTemplateXlsx, wrongRowsError, type Bilingual as B, type Cells,
  type SheetImportSpec,
} from '../../platform/spreadsheet.ts';

const COLUMNS = api.EUICC_IMPORT_COLUMNS;
type Key = (typeof COLUMNS)[number]['key'];
const MAX_ROWS = api.EUICC_BATCH_MAX;
const EID_RE = new RegExp(api.EID_PATTERN);
const ICCID_RE = new RegExp(api.PROFILE_ICCID_PATTERN);
const b = (zh: string, en: string): B => ({ zh, en });
const OPERATORS: Record<string, number> = {
  '1': 1, 中国移动: 1, 移动: 1, chinamobile: 1, cmcc: 1, '2': 2, 中国联通: 2, 联通: 2, chinaunicom: 2, cucc: 2,
  '3': 3, 中国电信: 3, 电信: 3, chinatelecom: 3, ctcc: 3,
};

export type ImportRow = BodyOf<typeof api.batchInsert>['rows'][number];
export interface EuiccRowError { row: number; eid: string | null; iccid: string | null; column: Key; reason: B }

const FILE: SheetImportSpec<Key> = {
  // a file needs an EID or an ICCID column; which rows need which is checked per row
  columns: COLUMNS, required: [], maxBytes: api.EUICC_IMPORT_MAX_BYTES, maxRows: MAX_ROWS,
  codes: { missingColumns: ErrorCode.EuiccImportMissingColumns, empty: ErrorCode.EuiccImportEmpty },
  tooMany: (count) => new AppError(ErrorCode.BatchTooMany, { count, max: MAX_ROWS }),
  limits: { minColumns: 1 },
};

const REASON = {
  eidOrIccid: b('请填写 EID 或 ICCID', 'enter an EID or an ICCID'),
  eidFormat: b('应为 32 位数字', 'must be 32 digits'),
  iccidFormat: b('应为 19-20 位数字或字母', 'must be 19-20 digits or letters'),
  operator: b('请填写运营商（中国移动、中国联通、中国电信，或 1、2、3）', 'give the operator (China Mobile, China Unicom, China Telecom, or 1, 2, 3)'),
  repeated: b('与文件中前面的行重复', 'repeats an earlier row of the file'),
  address: b('最多 128 个字符', 'at most 128 characters'),
};

/** The file's rows checked on their own; an EID or ICCID column must be there. */
export function checkEuiccRows(cells: Cells[]): { rows: ImportRow[]; errors: EuiccRowError[]; dataRows: number; missing: Key[] } {
  const seenEid = new Set<string>();
  const seenIccid = new Set<string>();
  const out = checkSheetRows(cells, COLUMNS, [], (get, row, errors: EuiccRowError[]): ImportRow => {
    const eid = get('eid');
    const iccid = get('iccid');
    const err = (column: Key, reason: B) => errors.push({ row, eid: eid || null, iccid: iccid || null, column, reason });
    if (!eid && !iccid) err('eid', REASON.eidOrIccid);
    if (eid && !EID_RE.test(eid)) err('eid', REASON.eidFormat);
    else if (eid && !iccid) {
      if (seenEid.has(eid)) err('eid', REASON.repeated);
      seenEid.add(eid);
    }
    let operatorId: number | undefined;
    if (iccid) {
      if (!ICCID_RE.test(iccid)) err('iccid', REASON.iccidFormat);
      else if (seenIccid.has(iccid)) err('iccid', REASON.repeated);
      else seenIccid.add(iccid);
      operatorId = OPERATORS[looseName(get('operator'))];
      if (!operatorId) err('operator', REASON.operator);
    }
    const smdpAddress = get('smdpAddress');
    if (smdpAddress.length > 128) err('smdpAddress', REASON.address);
    return { ...(eid ? { eid } : {}), ...(iccid ? { iccid, operatorId } : {}), ...(smdpAddress ? { smdpAddress } : {}) };
  });
  // neither an EID nor an ICCID column: the file is not an eUICC import
  const header = (cells[0] ?? []).map((h) => looseName(h ?? ''));
  const has = (k: Key) => COLUMNS.some((c) => c.key === k && [c.zh, c.en, c.key].some((t) => header.includes(looseName(t))));
  if (!has('eid') && !has('iccid')) return { rows: [], errors: [], dataRows: 0, missing: ['eid', 'iccid'] };
  return out;
}

/**
 * Reads the upload; answers the rows for `batchInsert` and the customer named (staff), or refuses the wrong rows. A .txt
 * file is read as CSV (the earlier console took "eid,iccid,operator" text files).
 */
export async function readEuiccUpload(req: FastifyRequest, ctx: SessionContext): Promise<{ rows: ImportRow[]; custId: number | undefined; remark: string | null }> {
  // readImportUpload reads .xlsx and .csv (judged by name and bytes); a .txt upload is the same text as a .csv
  const { fields, checked } = await readImportUpload(txtAsCsv(req), api.importEuiccFile, FILE, ctx.lang, checkEuiccRows);
  if (checked.errors.length) {
    throw wrongRowsError(ErrorCode.EuiccImportInvalid, checked.errors, api.EUICC_IMPORT_ERRORS_LISTED, COLUMNS, ctx.lang, (e) => ({ eid: e.eid, iccid: e.iccid, id: e.iccid ?? e.eid }));
  }
  const custId = fields.custId?.trim() ? Number(fields.custId.trim()) : undefined;
  if (custId !== undefined && !(Number.isInteger(custId) && custId > 0)) throw invalid('custId', { zh: '客户不存在', en: 'no such customer' });
  return { rows: checked.rows, custId, remark: fields.remark?.trim() || null };
}

/** The request with its uploaded file's `.txt` name read as `.csv` (the multipart reader reports the name as given). */
function txtAsCsv(req: FastifyRequest): FastifyRequest {
  const parts = (req as unknown as { parts?: (...a: unknown[]) => AsyncIterable<{ type: string; filename?: string }> }).parts;
  if (parts) {
    (req as unknown as { parts: typeof parts }).parts = (...a: unknown[]) => {
      const it = parts.apply(req, a);
      return (async function* () {
        for await (const part of it) {
          if (part.type === 'file' && part.filename && /\.txt$/i.test(part.filename)) part.filename = part.filename.replace(/\.txt$/i, '.csv');
          yield part;
        }
      })();
    };
  }
  return req;
}

export async function euiccTemplate(q: BodyOf<typeof api.downloadEuiccTemplate>, ctx: SessionContext, reply: FastifyReply) {
  const lang = q.templateLang ?? ctx.lang;
  const base = lang === 'zh' ? 'eUICC导入模板' : 'euicc-import-template';
  const example = (k: Key) => (k === 'operator' && lang === 'en' ? 'China Mobile' : COLUMNS.find((c) => c.key === k)!.example);
  if (q.format === 'csv') return sendDownload(reply, `${base}.csv`, sheetTemplateCsv(COLUMNS, lang, example));
  const sheet = lang === 'zh' ? 'eUICC导入' : 'eUICC import';
  return sendDownload(reply, `${base}.xlsx`, await sheetTemplateXlsx(COLUMNS, lang, example, { sheet, width: 36, help: HELP[lang] }));
}

const HELP: Record<Lang, string[]> = {
  zh: [
    '每行一条，第 1 行为表头（中文或英文表头均可），请勿修改列名；请将 EID 与 ICCID 列设为文本格式。',
    '只填 EID：导入一个 eUICC（32 位数字）。填 ICCID 与运营商：导入一个未绑定的 Profile。两者都填：导入绑定到该 eUICC 的 Profile（在 SM-DP+ 下单并确认）。',
    '运营商填“中国移动”“中国联通”“中国电信”或 1、2、3；SM-DP+ 地址可不填（默认平台的 SM-DP+）。',
    `一次最多 ${MAX_ROWS} 行。全部行正确才会导入；任何一行有误，都不导入，并逐行列出错误。`,
  ],
  en: [
    'One entry per row; row 1 is the header (Chinese or English titles), do not rename the columns. Format the EID and ICCID columns as text.',
    'EID only: an eUICC (32 digits). ICCID and operator: an unbound profile. Both: a profile bound to that eUICC (ordered and confirmed at the SM-DP+).',
    'Operator: China Mobile, China Unicom, China Telecom, or 1, 2, 3; the SM-DP+ address is optional (default: the platform\'s SM-DP+).',
    `At most ${MAX_ROWS} rows per file. All rows or nothing: if any row is wrong, nothing is imported and every wrong row is listed.`,
  ],
};
