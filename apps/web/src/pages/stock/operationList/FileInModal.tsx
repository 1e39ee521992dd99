import { useState } from 'react';
import { Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorCode, Operator, StockBalanceType, pathOf, stock, type Lang, type ResponseOf } from '@lynx/contract';
import { upload } from '../../../request/http.ts';
import { FileImportModal } from '../../../components/FileImportModal.tsx';

export type Validated = ResponseOf<typeof stock.validateStockInFile>;

/**
 * Stock in from a file: templates in both languages, the form's operator (required), balance type and location (for
 * rows without their own) and remark, and the file. The server validates it (nothing changes): a file with wrong rows
 * lists them; otherwise `onDone` gets the validated batch, confirmed in the operation dialog.
 */
export function FileInModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (v: Validated) => void }) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const [operatorId, setOperatorId] = useState<number | undefined>();
  const [balanceType, setBalanceType] = useState<number>(StockBalanceType.Postpaid);
  const [location, setLocation] = useState('');
  const [missing, setMissing] = useState(false);
  const reset = () => {
    setOperatorId(undefined);
    setBalanceType(StockBalanceType.Postpaid);
    setLocation('');
    setMissing(false);
  };
  const extra = (
    <Space wrap size={16} style={{ marginBottom: 8 }}>
      <Space orientation="vertical" size={2}>
        <Typography.Text>{T('operator')}</Typography.Text>
        <Select
          id="stockFileOperator" style={{ width: 180 }} value={operatorId} options={Operator.options(lang)} status={missing ? 'error' : undefined}
          onChange={(v: number) => { setOperatorId(v); setMissing(false); }} data-testid="stock-file-operator" aria-label={T('operator')}
        />
        {missing && <Typography.Text type="danger" role="alert">{T('fileImport.operatorRequired')}</Typography.Text>}
      </Space>
      <Space orientation="vertical" size={2}>
        <Typography.Text>{T('balanceType')}</Typography.Text>
        <Select style={{ width: 140 }} value={balanceType} options={StockBalanceType.options(lang)} onChange={(v: number) => setBalanceType(v)} aria-label={T('balanceType')} />
      </Space>
      <Space orientation="vertical" size={2}>
        <Typography.Text>{T('location')}</Typography.Text>
        <Input style={{ width: 160 }} value={location} maxLength={stock.STOCK_LOCATION_MAX} onChange={(e) => setLocation(e.target.value)} data-testid="stock-file-location" aria-label={T('location')} />
      </Space>
    </Space>
  );
  return (
    <FileImportModal<Validated>
      open={open} onClose={onClose} onDone={onDone} ns="stock.fileImport" testId="stock-in" width={760} layout="headings"
      templatePath={pathOf(stock.downloadStockInTemplate)} maxBytes={stock.STOCK_IN_FILE_MAX_BYTES} maxRows={stock.STOCK_BATCH_MAX}
      send={(file, remark) => upload(stock.validateStockInFile, file, {
        operatorId: String(operatorId), balanceType: String(balanceType), location: location.trim() || undefined, remark: remark || undefined,
      }, { silent: true })}
      doneValues={(v) => ({ total: v.total, valid: v.valid })}
      remarkMax={stock.STOCK_REMARK_MAX} rules={2} extra={extra} onReset={reset}
      validate={() => { setMissing(!operatorId); return !!operatorId; }}
      rowErrors={{ code: ErrorCode.StockFileInvalid, idTitle: 'ICCID', idKey: 'iccid' }}
    />
  );
}
