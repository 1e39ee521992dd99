// Enums of the card catalogue (issue 5): card types (spec /card/cardtype/list, "card product").
import { defineEnum } from './define.ts';

/** Physical form of a card type: plug-in sizes, the soldered MFF2 chip, or an eSIM profile on an eUICC. */
export const CardFormFactor = defineEnum({
  Mini2FF: { value: 1, zh: '插拔卡 2FF（标准卡）', en: 'Plug-in 2FF (mini)' },
  Micro3FF: { value: 2, zh: '插拔卡 3FF（Micro）', en: 'Plug-in 3FF (micro)' },
  Nano4FF: { value: 3, zh: '插拔卡 4FF（Nano）', en: 'Plug-in 4FF (nano)' },
  TripleCut: { value: 4, zh: '三切卡（2FF/3FF/4FF）', en: 'Triple cut (2FF/3FF/4FF)' },
  Mff2: { value: 5, zh: '贴片卡 MFF2', en: 'MFF2 chip (soldered)' },
  Esim: { value: 6, zh: 'eSIM（eUICC）', en: 'eSIM (eUICC)' },
});

/** Environmental grade of a card type; each comes with its usual operating temperature range. */
export const CardGrade = defineEnum({
  Consumer: { value: 1, zh: '消费级', en: 'Consumer grade' },
  Industrial: { value: 2, zh: '工业级', en: 'Industrial grade' },
  Automotive: { value: 3, zh: '车规级', en: 'Automotive grade' },
});

/** The usual operating temperature range of each grade (°C), offered as the default on the form. */
export const CARD_GRADE_TEMPERATURE: Readonly<Record<number, { min: number; max: number }>> = {
  [CardGrade.Consumer]: { min: -25, max: 85 },
  [CardGrade.Industrial]: { min: -40, max: 105 },
  [CardGrade.Automotive]: { min: -40, max: 125 },
};
