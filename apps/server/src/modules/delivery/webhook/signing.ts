// The per-customer signing secret (sealed at rest) and the signature of one attempt (docs/webhooks.md "Verifying").
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import type { SecretBox } from '../../network/opconfig/secrets.ts';
import { rowsOf } from './rows.ts';

/** The sealed value is bound to its row: a secret copied to another customer's row does not open. */
export const secretPurpose = (custId: number) => `webhook-secret:${custId}`;

/** hex HMAC-SHA256(secret, `${timestamp}.${body}`): what X-Lynx-Signature carries. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export interface SigningKey {
  keyId: string;
  secret: string;
}

const newKeyId = () => `wk_${crypto.randomBytes(6).toString('hex')}`;
const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64url')}`;

export interface SecretRow {
  cust_id: number;
  root_cust_id: number;
  key_id: string;
  secret_sealed: string;
  secret_hint: string;
  created_at: string | Date;
  rotated_at: string | Date | null;
}

export async function secretRow(ex: Executor, custId: number): Promise<SecretRow | null> {
  const [row] = rowsOf<SecretRow>(await ex.execute(sql`select * from webhook_secrets where cust_id = ${custId}`));
  return row ?? null;
}

/** A new secret for the customer (the first, or one replacing the current): answered in clear this once. */
export async function rotateSecret(ex: Executor, box: SecretBox, cust: { custId: number; rootCustId: number }): Promise<{ keyId: string; secret: string; before: SecretRow | null }> {
  const before = rowsOf<SecretRow>(await ex.execute(sql`select * from webhook_secrets where cust_id = ${cust.custId} for update`))[0] ?? null;
  const keyId = newKeyId();
  const secret = newSecret();
  const sealed = box.seal(secret, secretPurpose(cust.custId));
  await ex.execute(sql`insert into webhook_secrets (cust_id, root_cust_id, key_id, secret_sealed, secret_hint)
    values (${cust.custId}, ${cust.rootCustId}, ${keyId}, ${sealed}, ${secret.slice(-4)})
    on conflict (cust_id) do update set key_id = excluded.key_id, secret_sealed = excluded.secret_sealed,
      secret_hint = excluded.secret_hint, root_cust_id = excluded.root_cust_id, rotated_at = now()`);
  return { keyId, secret, before };
}

/**
 * The key a delivery is signed with: the customer's secret, made on the spot when it has none yet (a customer who set a
 * callback address before fetching a secret; rotating gives it one it can read). Two workers making one at once agree
 * on the first (insert … on conflict do nothing, then read).
 */
export async function signingKeyFor(ex: Executor, box: SecretBox, cust: { custId: number; rootCustId: number }): Promise<SigningKey> {
  let row = await secretRow(ex, cust.custId);
  if (!row) {
    const secret = newSecret();
    await ex.execute(sql`insert into webhook_secrets (cust_id, root_cust_id, key_id, secret_sealed, secret_hint)
      values (${cust.custId}, ${cust.rootCustId}, ${newKeyId()}, ${box.seal(secret, secretPurpose(cust.custId))}, ${secret.slice(-4)})
      on conflict (cust_id) do nothing`);
    row = (await secretRow(ex, cust.custId))!;
  }
  return { keyId: row.key_id, secret: box.open(row.secret_sealed, secretPurpose(cust.custId)) };
}
