import { and, desc, eq } from 'drizzle-orm';
import { account } from '@lynx/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { denied } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, type SessionContext } from '../../platform/context.ts';
import { FileStore, publicFileUrl, readMultipart } from '../../platform/files.ts';
import { files } from '../../platform/tables.ts';
import { customers } from './tables.ts';
import type { CustomerService } from './customers.ts';

/**
 * Logos: one per customer, shown on the login page and in the header. Staff without a customer set the
 * platform logo; a second-level customer sets its own; others fall back to their parent's, then the platform's.
 */
export class LogoService {
  constructor(
    private db: Db,
    private store: FileStore,
    private customers: CustomerService,
  ) {}

  async upload(req: FastifyRequest, ctx: SessionContext) {
    const { fields, file } = await readMultipart(req, account.uploadLogo);
    const actor = ctx.actor;
    const raw = fields.custId?.trim();
    // a named customer outside the caller's scope is refused by visible() below, never replaced by its own
    const custId: number | null = raw ? Number(raw) : actor.custId;
    if (custId === null && !isStaff(actor)) throw denied();
    this.store.check(custId === null ? 'platformLogo' : 'logo', file);
    return this.db.transaction(async (tx) => {
      const cust = custId === null ? null : await this.customers.visible(tx, actor, custId);
      const row = await this.store.save(tx, cust ? 'logo' : 'platformLogo', file!, actor, {
        custId: cust?.custId ?? null, rootCustId: cust?.rootCustId ?? null,
      });
      if (cust) await tx.update(customers).set({ logoFileId: row.fileId, updatedAt: new Date() }).where(eq(customers.custId, cust.custId));
      await audit(tx, ctx, {
        entity: cust ? 'customerLogo' : 'platformLogo', entityId: cust?.custId ?? null,
        before: { logoFileId: cust?.logoFileId ?? null }, after: { logoFileId: row.fileId },
        custId: cust?.custId ?? null, rootCustId: cust?.rootCustId ?? null,
      });
      return { logoUrl: publicFileUrl(row.fileId) };
    });
  }

  async find(custId: number | null | undefined): Promise<string | null> {
    let id = custId ?? null;
    for (let hops = 0; id !== null && hops < 2; hops++) {
      const [c] = await this.db.select({ logo: customers.logoFileId, parent: customers.parentCustId }).from(customers).where(eq(customers.custId, id));
      if (!c) break;
      if (c.logo) return publicFileUrl(c.logo);
      id = c.parent;
    }
    const [platform] = await this.db
      .select({ fileId: files.fileId })
      .from(files)
      .where(and(eq(files.use, 'platformLogo')))
      .orderBy(desc(files.createdAt))
      .limit(1);
    return platform ? publicFileUrl(platform.fileId) : null;
  }
}
