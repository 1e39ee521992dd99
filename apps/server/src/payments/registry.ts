import { PAYMENT_ADAPTERS, type Lang, type PaymentAdapterCode } from '@lynx/contract';
import type { PaymentGateway } from './gateway.ts';

/**
 * Installed payment adapters. Extension point: an adapter implements PaymentGateway in payments/<code>.ts, is
 * installed here under its code from PAYMENT_ADAPTERS and flips `available` there; until then an online top-up
 * through it is refused with "not installed" (20826). The simulator is installed by the recharge routes, which
 * own its notification delivery.
 */
export class PaymentRegistry {
  private installed = new Map<string, PaymentGateway>();

  install(gateway: PaymentGateway): void {
    this.installed.set(gateway.code, gateway);
  }

  isInstalled(code: string): boolean {
    return this.installed.has(code) && PAYMENT_ADAPTERS.some((a) => a.code === code && a.available);
  }

  /** The gateway of an adapter code, or null when it is not installed in this build. */
  get(code: string): PaymentGateway | null {
    return this.isInstalled(code) ? this.installed.get(code)! : null;
  }

  /** Every listed adapter and whether it is installed (the online top-up dialog's channels). */
  list(lang: Lang) {
    return PAYMENT_ADAPTERS.map((a) => ({ code: a.code as PaymentAdapterCode, channel: a.channel as number, installed: this.isInstalled(a.code), name: a[lang] }));
  }
}

export const adapterName = (code: string, lang: Lang): string => PAYMENT_ADAPTERS.find((a) => a.code === code)?.[lang] ?? code;
