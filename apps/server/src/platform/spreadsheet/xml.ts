import { markupTooLarge } from './limits.ts';

/*
 * A small streaming XML tokenizer, enough for the parts of an xlsx: elements with attributes, text, comments,
 * CDATA, declarations. Text reaches the handler only while it asks for it (`keep`); all other text is dropped
 * as it passes, so memory holds at most one unfinished tag (at most `maxToken` characters) and what the
 * handler keeps. Element and attribute names lose their namespace prefix (`x:row` is `row`).
 */

export interface XmlHandler {
  /** whether text at this point is wanted; read before every piece of text */
  readonly keep: boolean;
  open(name: string, attrs: string): void;
  close(name: string): void;
  /** raw text, entities not yet decoded (decodeXml), possibly in several pieces */
  text(raw: string): void;
  /** the handler has all it needs: the rest of the part is dropped unparsed */
  readonly done?: boolean;
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

export class XmlStream {
  private pending = '';

  constructor(
    private readonly h: XmlHandler,
    private readonly maxToken: number,
  ) {}

  write(chunk: string) {
    if (this.h.done) return;
    const s = this.pending + chunk;
    this.pending = '';
    const n = s.length;
    let i = 0;
    while (i < n) {
      const lt = s.indexOf('<', i);
      if (lt < 0) {
        if (this.h.keep) this.h.text(s.slice(i));
        return;
      }
      if (lt > i && this.h.keep) this.h.text(s.slice(i, lt));
      const end = tokenEnd(s, lt);
      if (end < 0) {
        this.pending = s.slice(lt);
        if (this.pending.length > this.maxToken) throw markupTooLarge();
        return;
      }
      if (end - lt > this.maxToken) throw markupTooLarge();
      this.token(s, lt, end);
      if (this.h.done) return;
      i = end;
    }
  }

  /** no unfinished tag is waiting for the next piece */
  get idle(): boolean {
    return this.pending === '';
  }

  /** The document is complete: an unfinished tag at the end is dropped, as a lenient reader would. */
  end() {
    this.pending = '';
  }

  /** s[from, to) is one complete token starting with '<'. */
  private token(s: string, from: number, to: number) {
    const second = s.charCodeAt(from + 1);
    if (second === 0x21 /* ! */) {
      if (s.startsWith('<![CDATA[', from) && this.h.keep) this.h.text(s.slice(from + 9, to - 3).replace(/&/g, '&amp;'));
      return;
    }
    if (second === 0x3f /* ? */) return;
    if (second === 0x2f /* / */) {
      this.h.close(localName(s.slice(from + 2, to - 1).trim()));
      return;
    }
    const selfClosing = s.charCodeAt(to - 2) === 0x2f;
    const body = s.slice(from + 1, selfClosing ? to - 2 : to - 1);
    const m = /[\s/]/.exec(body);
    const name = localName(m ? body.slice(0, m.index) : body);
    this.h.open(name, m ? body.slice(m.index) : '');
    if (selfClosing) this.h.close(name);
  }
}

/** The index just past the token that starts at `lt`, or -1 when it is not complete in `s`. */
function tokenEnd(s: string, lt: number): number {
  if (s.charCodeAt(lt + 1) === 0x21) {
    // '<!' : wait until it is clear whether this is a comment or CDATA
    if (s.length - lt < 9) return -1;
    if (s.startsWith('<!--', lt)) {
      const e = s.indexOf('-->', lt + 4);
      return e < 0 ? -1 : e + 3;
    }
    if (s.startsWith('<![CDATA[', lt)) {
      const e = s.indexOf(']]>', lt + 9);
      return e < 0 ? -1 : e + 3;
    }
  }
  // '>' may stand unescaped inside a quoted attribute value
  let quote = 0;
  for (let j = lt + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return j + 1;
  }
  return -1;
}

/** XML whitespace: space, tab, line feed, carriage return */
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * The attributes of a tag by local name, values decoded. One pass over the characters (name, optional
 * whitespace, '=', optional whitespace, quoted value); anything malformed is stepped over, never retried
 * from a later start, so the time is linear in the tag's length whatever it holds (a backtracking regex
 * took seconds on `<row aaaa…>`).
 */
export function attrsOf(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  const n = raw.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
    const nameStart = i;
    while (i < n) {
      const c = raw.charCodeAt(i);
      if (c === 0x3d /* = */ || isSpace(c)) break;
      i++;
    }
    const nameEnd = i;
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
    if (i >= n || raw.charCodeAt(i) !== 0x3d /* = */) continue; // a name without a value: the next name starts here
    i++;
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
    const quote = raw.charCodeAt(i);
    if (quote !== 0x22 && quote !== 0x27) continue; // an unquoted value: read on as if it were a name
    const close = raw.indexOf(quote === 0x22 ? '"' : "'", i + 1);
    if (close < 0) break;
    if (nameEnd > nameStart) out[localName(raw.slice(nameStart, nameEnd))] = decodeXml(raw.slice(i + 1, close));
    i = close + 1;
  }
  return out;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text as XML means it: line ends as \n, the five named entities and numeric character references decoded. */
export function decodeXml(raw: string): string {
  const s = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, e: string) => {
    if (e[0] !== '#') return NAMED[e] ?? whole;
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? whole : String.fromCodePoint(code);
  });
}
