import { describe, expect, it } from 'vitest';
import { CustomerStatus, InvoiceType } from '@lynx/contract';
import { customerBody, customerFormValues } from './body.ts';

const base = { custName: '  Acme IoT ', adminName: 'Li', adminPhone: '13800138000', adminEmail: 'a@b.cn' };

describe('customerBody', () => {
  it('trims text and leaves blank optional fields out when creating', () => {
    expect(customerBody({ ...base, website: '  ', remark: ' hi ', status: CustomerStatus.Online, parentCustId: 3 }, 'create')).toEqual({
      custName: 'Acme IoT', adminName: 'Li', adminPhone: '13800138000', adminEmail: 'a@b.cn', remark: 'hi',
      status: CustomerStatus.Online, parentCustId: 3,
    });
  });

  it('sends blank optional text as empty strings when updating, so the server clears them', () => {
    const body = customerBody({ ...base, website: '', taxNumber: 'T1' }, 'update');
    expect(body.website).toBe('');
    expect(body.salesEmail).toBe('');
    expect(body.taxNumber).toBe('T1');
  });

  it('never sends the parent customer on update, nor empty numbers', () => {
    const body = customerBody({ ...base, parentCustId: 3, registeredCapital: null, invoiceType: InvoiceType.Special }, 'update');
    expect(body).not.toHaveProperty('parentCustId');
    expect(body).not.toHaveProperty('registeredCapital');
    expect(body.invoiceType).toBe(InvoiceType.Special);
  });

  it('keeps 0 as a real registered capital, as an exact decimal string', () => {
    expect(customerBody({ ...base, registeredCapital: '0' }, 'create').registeredCapital).toBe('0');
    expect(customerBody({ ...base, registeredCapital: '5000000.10' }, 'create').registeredCapital).toBe('5000000.10');
  });

  it('leaves a blank required field out so the form, not the server, reports it', () => {
    expect(customerBody({ ...base, adminName: '   ' }, 'create')).not.toHaveProperty('adminName');
  });
});

describe('customerFormValues', () => {
  it('drops nulls and keeps the editable fields only', () => {
    const v = customerFormValues({
      ...base, custId: 9, parentCustId: null, parentCustName: null, level: 1, status: 2, businessUnit: null, businessLicense: 'L',
      website: null, registeredCapital: '0.00', invoiceType: null, taxNumber: null, bankName: null, bankAccount: null,
      industryLevel1: null, industryLevel2: null, industryAttribute: null, paymentModel: 1, salesName: null, salesPhone: null,
      salesEmail: null, remark: null, preDeposit: '1.00', grants: '0.00', contractPayment: '0.00', credit: '0.00', withdrawHold: '0.00', available: '1.00', logoUrl: null,
      createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
    });
    expect(v).toEqual({ ...base, status: 2, businessLicense: 'L', registeredCapital: '0.00', paymentModel: 1 });
  });
});
