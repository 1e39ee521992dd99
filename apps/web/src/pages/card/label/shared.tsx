import { Space, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { cardcat } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';

export const LABEL_LIST_PATH = '/card/label/list';

/** A label as a coloured tag. */
export function LabelTag({ name, colour }: { name: string; colour: string }) {
  return <Tag color={colour} style={{ marginInlineEnd: 4 }}>{name}</Tag>;
}

/** A card's labels as tags ("-" when none). */
export function LabelTags({ labels }: { labels: { labelId: number; name: string; colour: string }[] }) {
  if (!labels.length) return <>-</>;
  return <Space size={[0, 4]} wrap>{labels.map((l) => <LabelTag key={l.labelId} name={l.name} colour={l.colour} />)}</Space>;
}

/** Every label the signed-in user may use (platform labels first), for pickers; empty without a code that allows it. */
export function useLabelOptions() {
  const allowed = usePerm([cardcat.CardCatalogPerm.Labels, cardcat.CardCatalogPerm.CardList, cardcat.CardCatalogPerm.BatchOperations]);
  return useQuery({
    queryKey: [cardcat.getLabelOptions.name],
    queryFn: ({ signal }) => call(cardcat.getLabelOptions, {}, { signal, silent: true }),
    enabled: allowed,
    staleTime: 30_000,
  });
}

/** Options for a label select: the tag itself as the option's face, the name for typing to search. */
export function labelSelectOptions(labels: { labelId: number; name: string; colour: string }[] | null | undefined) {
  return (labels ?? []).map((l) => ({ value: l.labelId, name: l.name, label: <LabelTag name={l.name} colour={l.colour} /> }));
}

/** Every card type (id and both names), for pickers and for showing a card's type in the reader's language. */
export function useCardTypeOptions() {
  const allowed = usePerm([cardcat.CardCatalogPerm.CardTypes, cardcat.CardCatalogPerm.CardList, cardcat.CardCatalogPerm.ImportInfo]);
  return useQuery({
    queryKey: [cardcat.getCardTypeOptions.name],
    queryFn: ({ signal }) => call(cardcat.getCardTypeOptions, {}, { signal, silent: true }),
    enabled: allowed,
    staleTime: 30_000,
  });
}

export const cardTypeName = (t: { nameZh: string; nameEn: string } | null | undefined, lang: 'zh' | 'en') => (t ? (lang === 'zh' ? t.nameZh : t.nameEn) : null);
