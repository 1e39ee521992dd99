import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@lynx/contract';
import { LogicError } from '../../../../request/http.ts';
import { fieldOfRefusal, saveWithNameConfirm } from './saveFlow.ts';

const nameExists = () => new LogicError('A retail plan named "X" already exists for this customer. Continue?', ErrorCode.RetailNameExists, { field: 'retailName' });

describe('saveWithNameConfirm', () => {
  it('saves at once, without asking, when the name is free', async () => {
    const send = vi.fn(async () => ({ retailId: 7 }));
    const ask = vi.fn(async () => true);
    expect(await saveWithNameConfirm(send, ask)).toEqual({ saved: true, value: { retailId: 7 } });
    expect(send.mock.calls).toEqual([[false]]);
    expect(ask).not.toHaveBeenCalled();
  });

  it('asks with the server message and resends with the confirmation flag on "continue"', async () => {
    const send = vi.fn(async (confirm: boolean) => {
      if (!confirm) throw nameExists();
      return { retailId: 8 };
    });
    const ask = vi.fn(async () => true);
    expect(await saveWithNameConfirm(send, ask)).toEqual({ saved: true, value: { retailId: 8 } });
    expect(ask).toHaveBeenCalledWith('A retail plan named "X" already exists for this customer. Continue?');
    expect(send.mock.calls).toEqual([[false], [true]]);
  });

  it('sends nothing more when the user cancels', async () => {
    const send = vi.fn(async () => {
      throw nameExists();
    });
    expect(await saveWithNameConfirm(send, async () => false)).toEqual({ saved: false, reason: 'cancelled' });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('hands back other refusals, before or after the confirmation, without asking again', async () => {
    const price = new LogicError('Retail price must be greater…', ErrorCode.RetailPriceNotAboveBasic, { field: 'price' });
    const ask = vi.fn(async () => true);
    expect(await saveWithNameConfirm(async () => Promise.reject(price), ask)).toEqual({ saved: false, reason: 'refused', error: price });
    expect(ask).not.toHaveBeenCalled();
    const send = vi.fn(async (confirm: boolean) => {
      throw confirm ? price : nameExists();
    });
    expect(await saveWithNameConfirm(send, ask)).toEqual({ saved: false, reason: 'refused', error: price });
    expect(ask).toHaveBeenCalledTimes(1);
  });
});

describe('fieldOfRefusal', () => {
  const fields = ['retailName', 'price'];
  it('names the form field the server named', () => {
    expect(fieldOfRefusal(new LogicError('x', ErrorCode.RetailPriceNotAboveBasic, { field: 'price' }), fields)).toBe('price');
  });
  it('ignores fields the form does not have and errors that are not refusals', () => {
    expect(fieldOfRefusal(new LogicError('x', ErrorCode.Validation, { field: 'filters.x' }), fields)).toBeNull();
    expect(fieldOfRefusal(new LogicError('x', ErrorCode.NotFound, null), fields)).toBeNull();
    expect(fieldOfRefusal(new Error('network'), fields)).toBeNull();
  });
});
