import { GATEWAY_ADAPTERS, type GatewayAdapterCode } from '@lynx/contract';
import type { GatewayAccount, GatewayFactory, OperatorGateway, SuperSimGateway } from './gateway.ts';
import { createSuperSimSimulator } from './simulator-supersim.ts';
import { createSimulatorGateway } from './simulator.ts';

/**
 * Installed gateway adapters. Extension point: a carrier adapter implements OperatorGateway in its own
 * module (operators/<code>.ts), is added here under its code from GATEWAY_ADAPTERS, and flips `available`
 * there. Until then the access configuration refuses that code with a clear message.
 */
const installed: Partial<Record<GatewayAdapterCode, GatewayFactory>> = {
  simulator: createSimulatorGateway,
};

export const isInstalledAdapter = (code: string): boolean => code in installed && GATEWAY_ADAPTERS.some((a) => a.code === code && a.available);

/** The gateway of one account, or null when its adapter is not installed in this build. */
export function gatewayFor(adapter: string, account: GatewayAccount): OperatorGateway | null {
  const factory = isInstalledAdapter(adapter) ? installed[adapter as GatewayAdapterCode] : undefined;
  return factory ? factory(account) : null;
}

/**
 * The super SIM vendor platform (docs/super-sim.md). Only the built-in simulator ships; a real vendor adapter
 * implements SuperSimGateway and is returned here instead.
 */
let superSim: SuperSimGateway | null = null;
export function superSimGateway(): SuperSimGateway {
  superSim ??= createSuperSimSimulator();
  return superSim;
}
