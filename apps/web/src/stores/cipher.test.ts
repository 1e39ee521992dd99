import { describe, it, expect } from 'vitest';
import { decryptCodes, encryptCodes } from './cipher.ts';

describe('permission list encryption', () => {
  it('round-trips with the same token and fails with another or when edited', () => {
    const sealed = encryptCodes([1000000, 2010000], 'token-a');
    expect(sealed).not.toContain('1000000');
    expect(decryptCodes(sealed, 'token-a')).toEqual([1000000, 2010000]);
    expect(decryptCodes(sealed, 'token-b')).toBeNull();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('00') ? '11' : '00');
    expect(decryptCodes(tampered, 'token-a')).toBeNull();
    expect(decryptCodes('garbage', 'token-a')).toBeNull();
  });
  it('uses a fresh nonce each time', () => {
    expect(encryptCodes([1], 't')).not.toBe(encryptCodes([1], 't'));
  });
});
