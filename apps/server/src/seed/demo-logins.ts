// The demo logins are shown once: at the end of the start-up output and in a file in DATA_DIR that only the owner
// may read, written when the demo data is created (also with DATABASE_URL, where DATA_DIR holds nothing else of the
// database). The passwords are never stored anywhere else in clear.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface DemoLogin {
  loginName: string;
  roleId: number;
  password: string;
}

export const DEMO_LOGINS_FILE = 'demo-logins.txt';

/** One line per login, as printed and as written to the file. */
export const demoLoginLines = (logins: DemoLogin[]): string[] =>
  logins.map((l) => `  ${l.loginName.padEnd(12)} role ${l.roleId}  password ${l.password}`);

/**
 * Writes the logins to DATA_DIR/demo-logins.txt with mode 0600: a private temporary file renamed over the target,
 * so the passwords are never readable by others, not even when an older file of wider mode was there.
 */
export function writeDemoLogins(dataDir: string, logins: DemoLogin[], now = new Date()): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DEMO_LOGINS_FILE);
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const text = [
    `# Lynx CMP demo logins, created ${now.toISOString()} with the demo data.`,
    '# Only this file and the first start-up output hold them: keep them, or change the passwords and delete this file.',
    ...demoLoginLines(logins),
    '',
  ].join('\n');
  try {
    fs.writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return file;
}

/** The start-up block that ends the output of the start that created the demo data: the logins are its last lines. */
export function demoLoginBlock(seed: { logins: DemoLogin[]; loginsFile: string | null; loginsFileError: string | null }): string[] {
  const where = seed.loginsFile
    ? `also written to ${seed.loginsFile}, readable only by you`
    : `could not be written to a file${seed.loginsFileError ? ` (${seed.loginsFileError})` : ''}: copy them now`;
  return ['Demo data created. Demo logins (shown only this once; keep them):', `  (${where})`, ...demoLoginLines(seed.logins)];
}
