import { Tag } from 'antd';
import type { EnumHelpers } from '@lynx/contract';
import { useTranslation } from 'react-i18next';

/** A coloured label for an enum value from the contract, in the current language. */
export function StatusTag({ enumOf, value, colors = {} }: { enumOf: EnumHelpers<number>; value: number | null | undefined; colors?: Record<number, string> }) {
  const { i18n } = useTranslation();
  if (value === null || value === undefined) return <>-</>;
  return <Tag color={colors[value]}>{enumOf.label(value, i18n.language === 'en' ? 'en' : 'zh')}</Tag>;
}
