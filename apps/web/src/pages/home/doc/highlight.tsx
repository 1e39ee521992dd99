import { Fragment } from 'react';

/** Case-insensitive substring test; an empty keyword matches everything. */
export function matches(text: string, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  return !k || text.toLowerCase().includes(k);
}

/** The text with every case-insensitive occurrence of the keyword marked. */
export function Highlight({ text, keyword }: { text: string; keyword: string }) {
  const k = keyword.trim().toLowerCase();
  if (!k) return <>{text}</>;
  const parts: { s: string; hit: boolean }[] = [];
  const lower = text.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(k); at !== -1; at = lower.indexOf(k, from)) {
    if (at > from) parts.push({ s: text.slice(from, at), hit: false });
    parts.push({ s: text.slice(at, at + k.length), hit: true });
    from = at + k.length;
  }
  if (from < text.length) parts.push({ s: text.slice(from), hit: false });
  return (
    <>
      {parts.map((p, i) => (p.hit ? <mark key={i} style={{ padding: 0, background: '#ffe58f' }}>{p.s}</mark> : <Fragment key={i}>{p.s}</Fragment>))}
    </>
  );
}
