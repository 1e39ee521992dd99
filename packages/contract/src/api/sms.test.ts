import { describe, expect, it } from 'vitest';
import { SmsEncoding, smsLength } from './sms.ts';

describe('SMS length (one part: 160 GSM 7-bit, 70 UCS-2)', () => {
  it.each([
    ['', SmsEncoding.Gsm7, 0, true],
    ['a'.repeat(160), SmsEncoding.Gsm7, 160, true],
    ['a'.repeat(161), SmsEncoding.Gsm7, 161, false],
    // GSM extension characters take an escape and the character: two septets each
    ['€'.repeat(80), SmsEncoding.Gsm7, 160, true],
    ['€'.repeat(81), SmsEncoding.Gsm7, 162, false],
    ['{}[]~^|\\', SmsEncoding.Gsm7, 16, true],
    ['Ärger über Öl', SmsEncoding.Gsm7, 13, true],
    ['line\nbreak', SmsEncoding.Gsm7, 10, true],
    // one character outside the GSM alphabet makes the whole message UCS-2
    ['中'.repeat(70), SmsEncoding.Ucs2, 70, true],
    ['中'.repeat(71), SmsEncoding.Ucs2, 71, false],
    [`${'a'.repeat(69)}中`, SmsEncoding.Ucs2, 70, true],
    ['ç', SmsEncoding.Ucs2, 1, true],
    // a character outside the basic plane is two UTF-16 units
    ['😀'.repeat(35), SmsEncoding.Ucs2, 70, true],
    ['😀'.repeat(36), SmsEncoding.Ucs2, 72, false],
  ])('%j', (text, encoding, units, fits) => {
    expect(smsLength(text)).toMatchObject({ encoding, units, fits, max: encoding === SmsEncoding.Gsm7 ? 160 : 70 });
  });
});
