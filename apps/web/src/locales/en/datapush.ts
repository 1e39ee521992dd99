import type zh from '../zh/datapush.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  title: 'File push tasks',
  intro: 'Each task pushes one CSV file a day at its push time ({{tz}}) to an SFTP server: the customer\'s card list or each card\'s usage of the day before. The file is written under a temporary name and renamed when complete, so a reader never sees half a file. Passwords and private keys are stored encrypted and never shown again.',
  emptyHint: 'No file push tasks yet. Click "Add task" to push the card list or the daily usage to your SFTP server every day.',
  f: {
    customer: 'Customer', name: 'Task name', fileType: 'File type', host: 'SFTP address', port: 'Port', account: 'Account', authType: 'Sign-in',
    password: 'Password', privateKey: 'Private key', passphrase: 'Key passphrase', path: 'Path', pushTime: 'Push time', open: 'State', lastRun: 'Last push',
    updatedBy: 'Last changed by', secretKept: 'Stored; leave empty to keep it', hostKey: 'Server host key fingerprint (SHA-256)',
  },
  help: {
    fileType: 'Card list: every card of the customer (a first-level customer\'s includes its second-level customers\' cards). Daily usage: each card\'s usage on the day before.',
    path: 'An absolute directory on the SFTP server, e.g. /upload/cmp; the account must be allowed to write there.',
    pushTime: 'The time of day the file is pushed ({{tz}}). After adding, switching on or changing the time, the task pushes from the next time it comes.',
    privateKey: 'The whole private key, OpenSSH or PEM format.',
  },
  ph: { name: 'e.g. Daily card list', host: 'e.g. sftp.example.com or 10.0.0.8', path: 'e.g. /upload/cmp', customer: 'Choose a customer' },
  action: { add: 'Add task', edit: 'Edit', delete: 'Delete', test: 'Test connection', pushNow: 'Push now', runs: 'Push history', on: 'Switch on', off: 'Switch off' },
  form: { addTitle: 'Add a file push task', editTitle: 'Edit a file push task', required: 'Please select or enter', pushTimeRequired: 'Choose the push time' },
  test: { running: 'Connecting…', ok: 'Connected', failed: 'Connection failed', took: 'took {{ms}} ms' },
  hostKey: {
    none: 'Not pinned yet: test the connection and save to pin the fingerprint shown; without a test the first push pins it',
    pinned: 'Pinned. A push to a server presenting another key is refused.',
    willPin: 'Saving pins this fingerprint: check it with the server\'s administrator (on the server: ssh-keygen -lf <host public key file>); a server presenting another key then receives no file.',
    changedTitle: 'The server\'s host key has changed',
    changed: 'The task accepted {{pinned}}; the server now presents {{presented}}. Unless the server\'s administrator replaced the key on purpose, someone may be intercepting the connection; once checked, save the task to accept the new key.',
  },
  confirm: {
    deleteTitle: 'Delete this file push task?', deleteContent: 'The task "{{name}}" will push no more; a push waiting to start is cancelled.',
    onTitle: 'Switch this task on?', onContent: 'The task "{{name}}" pushes from the next time its time comes (daily at {{time}}).',
    offTitle: 'Switch this task off?', offContent: 'The task "{{name}}" will no longer push on schedule; you can still push it by hand.',
    pushTitle: 'Push now?', pushContent: 'The file of "{{name}}" is made now and pushed to {{host}}:{{path}}.',
  },
  done: { deleted: 'Task deleted', on: 'Task switched on', off: 'Task switched off', pushed: 'Push started; see the push history for the outcome' },
  runs: {
    title: 'Push history: {{name}}', empty: 'No pushes yet: they appear here when the push time comes or after "Push now".',
    time: 'Time', trigger: 'How', day: 'Day', file: 'File name', size: 'Size (bytes)', rows: 'Rows', state: 'Outcome', error: 'Reason', attempts: 'Tries', by: 'By',
  },
};
export default en;
