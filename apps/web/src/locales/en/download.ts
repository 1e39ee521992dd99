import type zh from '../zh/download.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  title: 'Download tasks',
  taskName: 'Task name',
  format: 'Format',
  state: 'State',
  contents: 'Rows · size',
  rowsAndSize: '{{rows}} rows · {{size}}',
  finishedAtHint: 'Finished {{time}}',
  download: 'Download',
  failedReason: 'Reason: {{error}}',
  errorPermission: 'You no longer have permission for this list',
  errorUnknown: 'Unknown error',
  autoRefresh: 'A task is in process; refreshing every 2 s',
  filters: 'Filters',
  noFilters: 'None (all)',
  downloadedAt: 'Downloaded',
  notDownloaded: 'Not yet',
  direct: 'Direct',
  directHint: 'Up to 10,000 rows: downloaded when exported',
  readyTitle: 'Export ready',
  readyText: '"{{name}}" is ready.',
  failedTitle: 'Export failed',
  failedText: '"{{name}}" could not be written; see Download tasks for the reason.',
  badgeReady: 'Download tasks: {{count}} file(s) ready to download',
  emptyHint: 'Click "Export" on any list: the export task appears here and its file can be downloaded when it is done.',
};
export default en;
