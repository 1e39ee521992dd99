import { pgTable, integer, smallint, text, numeric, uuid, boolean, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const operators = pgTable('operators', {
  operatorId: smallint('operator_id').primaryKey(),
  code: text('code').notNull(),
  nameZh: text('name_zh').notNull(),
  nameEn: text('name_en').notNull(),
  billingDay: smallint('billing_day').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const customers = pgTable('customers', {
  custId: integer('cust_id').primaryKey().generatedByDefaultAsIdentity(),
  parentCustId: integer('parent_cust_id'),
  rootCustId: integer('root_cust_id').notNull(),
  level: smallint('level').notNull(),
  custName: text('cust_name').notNull(),
  status: smallint('status').notNull().default(1),
  businessUnit: text('business_unit'),
  adminName: text('admin_name').notNull(),
  adminEmail: text('admin_email').notNull(),
  adminPhone: text('admin_phone').notNull(),
  businessLicense: text('business_license'),
  website: text('website'),
  // read and written as an exact decimal string
  registeredCapital: numeric('registered_capital', { precision: 16, scale: 2 }),
  invoiceType: smallint('invoice_type'),
  taxNumber: text('tax_number'),
  bankName: text('bank_name'),
  bankAccount: text('bank_account'),
  industryLevel1: text('industry_level1'),
  industryLevel2: text('industry_level2'),
  industryAttribute: text('industry_attribute'),
  paymentModel: smallint('payment_model'),
  salesName: text('sales_name'),
  salesPhone: text('sales_phone'),
  salesEmail: text('sales_email'),
  remark: text('remark'),
  // the balances live in the ledger's projection, customer_balances (0027_ledger.sql, modules/money)
  logoFileId: uuid('logo_file_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const roles = pgTable('roles', {
  roleId: integer('role_id').primaryKey(),
  roleCode: text('role_code').notNull(),
  roleName: text('role_name').notNull(),
  roleNameEn: text('role_name_en'),
  roleType: smallint('role_type').notNull(),
  description: text('description'),
  permissions: integer('permissions').array().notNull(),
  builtIn: boolean('built_in').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const accounts = pgTable('accounts', {
  accountId: integer('account_id').primaryKey().generatedByDefaultAsIdentity(),
  loginName: text('login_name').notNull(),
  userName: text('user_name').notNull(),
  roleId: integer('role_id').notNull(),
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
  phone: text('phone'),
  email: text('email'),
  status: smallint('status').notNull().default(1),
  mustResetPassword: boolean('must_reset_password').notNull().default(false),
  passwordHash: text('password_hash').notNull(),
  remark: text('remark'),
  lastLoginAt: ts('last_login_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const accountFreezeRecords = pgTable('account_freeze_records', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  accountId: integer('account_id').notNull(),
  loginName: text('login_name').notNull(),
  action: smallint('action').notNull(),
  reason: text('reason').notNull(),
  operatorLoginName: text('operator_login_name').notNull(),
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const registerApplies = pgTable('register_applies', {
  applyId: integer('apply_id').primaryKey().generatedByDefaultAsIdentity(),
  loginName: text('login_name').notNull(),
  passwordHash: text('password_hash').notNull(),
  custName: text('cust_name').notNull(),
  adminName: text('admin_name').notNull(),
  adminPhone: text('admin_phone').notNull(),
  adminEmail: text('admin_email').notNull(),
  businessLicense: text('business_license'),
  website: text('website'),
  remark: text('remark'),
  auditStatus: smallint('audit_status').notNull().default(0),
  auditReason: text('audit_reason'),
  auditBy: text('audit_by'),
  auditAt: ts('audit_at'),
  custId: integer('cust_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
