import type zh from '../zh/download.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  title: 'Download tasks',
  taskName: 'Task name',
  source: 'Source list',
  format: 'Format',
  state: 'State',
  rowCount: 'Rows',
  fileSize: 'File size',
  createdAt: 'Created',
  finishedAt: 'Finished',
  download: 'Download',
  failedReason: 'Reason: {{error}}',
  errorPermission: 'You no longer have permission for this list',
  errorUnknown: 'Unknown error',
  autoRefresh: 'A task is in process; refreshing every 2 s',
  emptyHint: 'Click "Export" on any list: the export task appears here and its file can be downloaded when it is done.',
};
export default en;
