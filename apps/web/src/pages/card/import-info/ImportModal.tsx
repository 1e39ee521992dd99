import { useTranslation } from 'react-i18next';
import { carddata, pathOf, type ResponseOf } from '@lynx/contract';
import { upload } from '../../../request/http.ts';
import { FileImportModal } from '../../../components/FileImportModal.tsx';

type Batch = ResponseOf<typeof carddata.importCards>;

const REMARK_MAX = 100;

/** Upload of a card file: template downloads, the file, an optional remark; calls onDone with the import. */
export function ImportModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (b: Batch) => void }) {
  const { t } = useTranslation();
  const I = (k: string) => t(`carddata.import.${k}`);
  return (
    <FileImportModal<Batch>
      open={open} onClose={onClose} onDone={onDone} ns="carddata.import" testId="card" width={720} layout="steps"
      templatePath={pathOf(carddata.downloadCardImportTemplate)} maxBytes={carddata.CARD_IMPORT_MAX_BYTES} maxRows={carddata.CARD_IMPORT_MAX_ROWS}
      send={(file, remark) => upload(carddata.importCards, file, { remark }, { silent: true })}
      doneValues={(r) => ({ success: r.successRows, failed: r.failedRows })}
      remarkMax={REMARK_MAX} remarkPlaceholder={`${I('remark')}: ${I('remarkHint')}`} rules={4}
    />
  );
}
