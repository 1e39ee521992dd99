/**
 * The SMTP server the platform sends e-mail through (issue 15; docs/data-push.md "E-mail"). All from the environment,
 * like config.ts; none is required: without CMP_SMTP_HOST the platform sends no e-mail and each attempt is recorded as
 * failed with "no mail server is configured".
 *
 * | variable | default | meaning |
 * | CMP_SMTP_HOST | — | SMTP server host name or address |
 * | CMP_SMTP_PORT | 465 when secure, else 587 | port |
 * | CMP_SMTP_SECURE | off | `on`: TLS from the first byte (port 465); off: STARTTLS when the server offers it |
 * | CMP_SMTP_USER / CMP_SMTP_PASSWORD | — | sign-in (both or neither) |
 * | CMP_SMTP_FROM | `Lynx CMP <noreply@<host>>` | the From address |
 * | CMP_SMTP_TLS_VERIFY | on | `off` accepts a self-signed certificate (a test or in-house server) |
 */
export interface MailConfig {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  from: string;
  tlsVerify: boolean;
}

const flag = (v: string | undefined, fallback: boolean) => (v === undefined || v === '' ? fallback : !['off', 'false', '0', 'no'].includes(v.toLowerCase()));

/** Reads the variables above; null when no SMTP host is configured. Throws a message naming a bad value. */
export function loadMailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig | null {
  const host = env.CMP_SMTP_HOST?.trim();
  if (!host) return null;
  const secure = flag(env.CMP_SMTP_SECURE, false);
  const port = env.CMP_SMTP_PORT ? Number(env.CMP_SMTP_PORT) : secure ? 465 : 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`CMP_SMTP_PORT: "${env.CMP_SMTP_PORT}" is not a port (1-65535)`);
  const user = env.CMP_SMTP_USER || null;
  const password = env.CMP_SMTP_PASSWORD || null;
  if (Boolean(user) !== Boolean(password)) throw new Error('CMP_SMTP_USER and CMP_SMTP_PASSWORD go together: set both or neither');
  return { host, port, secure, user, password, from: env.CMP_SMTP_FROM || `Lynx CMP <noreply@${host}>`, tlsVerify: flag(env.CMP_SMTP_TLS_VERIFY, true) };
}
