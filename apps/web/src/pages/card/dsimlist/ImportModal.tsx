import { ErrorCode, dsim, pathOf, type ResponseOf } from '@lynx/contract';
import { upload } from '../../../request/http.ts';
import { FileImportModal } from '../../../components/FileImportModal.tsx';

type Batch = ResponseOf<typeof dsim.importDsims>;

/** Upload of a super SIM file: templates, the file, a remark; a refused file lists its wrong rows (nothing was stored). */
export function DsimImportModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (b: Batch) => void }) {
  return (
    <FileImportModal<Batch>
      open={open} onClose={onClose} onDone={onDone} ns="dsim.import" testId="dsim" width={760} layout="headings"
      templatePath={pathOf(dsim.downloadDsimImportTemplate)} maxBytes={dsim.DSIM_IMPORT_MAX_BYTES} maxRows={dsim.DSIM_IMPORT_MAX_ROWS}
      send={(file, remark) => upload(dsim.importDsims, file, { remark: remark || undefined }, { silent: true })}
      doneValues={(r) => ({ sims: r.simCount, cards: r.cardCount })}
      remarkMax={64} rules={3} rowErrors={{ code: ErrorCode.DsimImportInvalid, idTitle: 'SN', idKey: 'sn' }}
    />
  );
}
