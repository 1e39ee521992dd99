import { and, eq, isNotNull } from 'drizzle-orm';
import { CardFormFactor, CardGrade, Operator } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import type { customers } from '../../account/tables.ts';
import { cards } from '../card-tables.ts';
import { cardLabels, cardTypes } from './tables.ts';

type Customer = typeof customers.$inferSelect;

/** Demo card types: China Mobile cards (华电's meters) get the first, China Unicom the second, China Telecom the third. */
export const DEMO_CARD_TYPES = [
  { nameZh: '工业级 MFF2 贴片卡', nameEn: 'Industrial MFF2 chip', formFactor: CardFormFactor.Mff2, grade: CardGrade.Industrial, tempMin: -40, tempMax: 105, description: '智能表计、工业网关' },
  { nameZh: '消费级三切卡', nameEn: 'Consumer triple-cut', formFactor: CardFormFactor.TripleCut, grade: CardGrade.Consumer, tempMin: -25, tempMax: 85, description: '车载终端、POS 机' },
  { nameZh: '车规级 MFF2 贴片卡', nameEn: 'Automotive MFF2 chip', formFactor: CardFormFactor.Mff2, grade: CardGrade.Automotive, tempMin: -40, tempMax: 125, description: '前装 T-Box' },
] as const;

/** Demo labels: two platform labels, and one of each customer's own. */
export const DEMO_LABELS = [
  { name: '重点监控', colour: '#f5222d', description: '运营方重点关注的卡', owner: null },
  { name: '待回收', colour: '#8c8c8c', description: '计划回收再利用的卡', owner: null },
  { name: '冷链运输', colour: '#13c2c2', description: '冷藏车车载终端', owner: 'zhixing' },
  { name: '华南电表', colour: '#fa8c16', description: '华南区域智能电表', owner: 'huadian' },
] as const;

/**
 * The card type and label catalogue of the demo, and card types on the demo cards (China Mobile cards are 华电's
 * meters: industrial chips; China Unicom consumer triple-cut; China Telecom automotive). Demo cards carry no labels.
 */
export async function seedCardCatalog(ex: Executor, who: { zhixing: Customer; huadian: Customer }) {
  const types = await ex.insert(cardTypes).values(DEMO_CARD_TYPES.map((t) => ({ ...t, createdBy: 'admin' }))).returning({ id: cardTypes.cardTypeId });
  for (const [i, operatorId] of [Operator.ChinaMobile, Operator.ChinaUnicom, Operator.ChinaTelecom].entries()) {
    await ex.update(cards).set({ cardTypeId: types[i].id }).where(and(eq(cards.operatorId, operatorId), isNotNull(cards.custId)));
  }
  await ex.insert(cardLabels).values(DEMO_LABELS.map((l) => {
    const c = l.owner ? who[l.owner] : null;
    return { name: l.name, colour: l.colour, description: l.description, custId: c?.custId ?? null, rootCustId: c?.rootCustId ?? null, createdBy: l.owner === 'zhixing' ? 'enterprise' : l.owner === 'huadian' ? 'channel' : 'admin' };
  }));
}
