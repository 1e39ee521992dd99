import { eq } from 'drizzle-orm';
import { Operator } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { issueSimulatorCredentials } from '../../../operators/simulator.ts';
import type { SecretBox } from './secrets.ts';
import { credentialsPurpose } from './service.ts';
import { operatorAccounts } from './tables.ts';

/**
 * Demo access configurations: one per operator on the built-in network simulator, with credentials it issued
 * (sealed like any other), so that in the demo every card change, SMS and usage pull really goes through an
 * operator gateway. Staff can test, edit or replace them under Operator → Access configuration.
 */
export async function seedSimulatorAccess(tx: Executor, box: SecretBox): Promise<void> {
  const accounts = [
    { operatorId: Operator.ChinaMobile, accountName: '移动 OneLink 仿真', endpointUrl: 'https://onelink.simulator.lynx.local/openapi' },
    { operatorId: Operator.ChinaUnicom, accountName: '联通 Jasper 仿真', endpointUrl: 'https://cmp.simulator.lynx.local/openapi' },
    { operatorId: Operator.ChinaTelecom, accountName: '电信 CTWing 仿真', endpointUrl: 'https://ctwing.simulator.lynx.local/openapi' },
  ];
  for (const a of accounts) {
    const [row] = await tx
      .insert(operatorAccounts)
      .values({
        ...a, apiVersion: 'v2', adapter: 'simulator', credentialsSealed: 'pending', simFailureRate: 0,
        remark: '演示数据：内置网络仿真器 / demo data: the built-in network simulator', createdBy: 'admin',
      })
      .returning({ id: operatorAccounts.operAccountId });
    const creds = issueSimulatorCredentials();
    await tx
      .update(operatorAccounts)
      .set({ credentialsSealed: box.sealJson(creds, credentialsPurpose(row.id)) })
      .where(eq(operatorAccounts.operAccountId, row.id));
  }
}
