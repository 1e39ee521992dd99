import { pgTable, integer, text, uuid, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const sessions = pgTable('sessions', {
  tokenHash: text('token_hash').primaryKey(),
  accountId: integer('account_id').notNull(),
  ip: text('ip'),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
});

/** One row per lower-cased login name: failed (and in-flight) attempts of the current streak. */
export const loginAttempts = pgTable('login_attempts', {
  loginName: text('login_name').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: ts('last_failure_at').notNull().defaultNow(),
});

export const captchas = pgTable('captchas', {
  captchaKey: uuid('captcha_key').primaryKey(),
  codeHash: text('code_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
});
