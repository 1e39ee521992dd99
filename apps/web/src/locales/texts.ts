/** Every text of a locale tree as [key, text], keys joined with dots (`card.list.title`). */
export const flatTexts = (tree: object, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'object' && v ? flatTexts(v as object, `${prefix}${k}.`) : [[`${prefix}${k}`, String(v)] as [string, string]]);

/** Chinese, Japanese and Korean characters, CJK punctuation and full-width forms: never on an English screen. */
export const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/;
