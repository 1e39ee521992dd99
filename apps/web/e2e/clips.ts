/**
 * The clip detector the screens spec runs inside the page (serialised by page.evaluate: no imports, no closures).
 *
 * A text is reported when a user would see it cut:
 * - its box (or a box inside it) is narrower or lower than its text and the text is not meant to be shortened: a
 *   data value (table cell, description) may end in an ellipsis when the full text is in a title; a header, a menu
 *   label, a tab, a form label or a button never;
 * - a header, tab or button takes more than one line;
 * - a word of letters or digits ("2,048", "2026-11-25", "Actions") is broken across two lines anywhere.
 */
export interface Clip {
  kind: string;
  text: string;
  why: string;
}

/** `shell`: also check the side menu and the page tabs (once per sign-in is enough: they do not change per page) */
export function findClips(shell: boolean): Clip[] {
  const KINDS: [kind: string, selector: string, oneLine: boolean, mayEllipsis: boolean][] = [
    ['header', '.lx-page th.ant-table-cell', true, false],
    ['cell', '.lx-page td.ant-table-cell', false, true],
    // a long menu label may take two lines (it is not cut), but no word of it may break
    ['menu', '.lx-sider .ant-menu-title-content', false, false],
    ['tab', '.lx-page .ant-tabs-tab-btn', true, false],
    ['page tab', '.lx-tabbar .lx-tab-title', true, true],
    ['form label', '.lx-page .ant-form-item-label > label', false, false],
    ['description label', '.lx-page .ant-descriptions-item-label', false, false],
    ['description', '.lx-page .ant-descriptions-item-content', false, true],
    ['button', '.lx-page .ant-btn, .lx-header .ant-btn', true, false],
  ];
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    return (el as HTMLElement).checkVisibility?.({ visibilityProperty: true, opacityProperty: true } as never) ?? true;
  };
  const textNodes = (el: Element) => {
    const out: Text[] = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.textContent?.trim()) out.push(n as Text);
    return out;
  };
  /** the vertical centres of the lines a range covers */
  const lineCount = (rects: DOMRectList | DOMRect[]) => {
    const centres: number[] = [];
    for (const r of Array.from(rects)) {
      if (r.width < 1) continue;
      const c = r.top + r.height / 2;
      if (!centres.some((x) => Math.abs(x - c) < Math.max(4, r.height / 2))) centres.push(c);
    }
    return centres.length;
  };
  /** the browser shows the nearest title of the element or its ancestors on hover */
  const titled = (from: Element) => from.closest('[title]:not([title=""])') !== null || from.querySelector('[title]:not([title=""])') !== null;
  const ellipsised = (from: Element, to: Element) => {
    for (let e: Element | null = from; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.textOverflow === 'ellipsis' || (cs.webkitLineClamp && cs.webkitLineClamp !== 'none')) return true;
      if (e.classList.contains('ant-typography-ellipsis')) return true;
      if (e === to) break;
    }
    return false;
  };
  const clips: Clip[] = [];
  const seen = new Set<Element>();
  for (const [kind, selector, oneLine, mayEllipsis] of KINDS) {
    if (!shell && (kind === 'menu' || kind === 'page tab')) continue;
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (seen.has(el) || !shown(el)) continue;
      seen.add(el);
      // form controls and switches hold their own texts
      if (el.closest('input, textarea, .ant-select-selector, .ant-picker, .ant-input-number')) continue;
      const text = ((el as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim();
      if (!text) continue;
      const report = (why: string) => clips.push({ kind, text: text.slice(0, 80), why });
      const nodes = textNodes(el).filter((n) => !n.parentElement?.closest('.ant-switch, .ant-select, .ant-picker, svg, .ant-table-filter-trigger'));
      // 1. a box that cuts its text (overflow not visible and content larger), or text reaching out of the element
      let cut: string | null = null;
      const boxes = new Set<Element>();
      for (const n of nodes) for (let b = n.parentElement; b; b = b.parentElement) {
        boxes.add(b);
        if (b === el) break;
      }
      for (const box of boxes) {
        const cs = getComputedStyle(box);
        if (cs.display === 'inline' || cs.display === 'contents') continue;
        const clipsX = cs.overflowX !== 'visible' && box.scrollWidth > box.clientWidth + 1;
        const clipsY = cs.overflowY !== 'visible' && box.scrollHeight > box.clientHeight + 1;
        if (!clipsX && !clipsY) continue;
        if (mayEllipsis && ellipsised(box, el) && titled(box)) continue;
        cut = `cut off (${clipsX ? `${box.scrollWidth}>${box.clientWidth} px wide` : `${box.scrollHeight}>${box.clientHeight} px high`}${ellipsised(box, el) ? ', an ellipsis without the full text in a title' : ''})`;
        break;
      }
      if (!cut) {
        const edge = el.getBoundingClientRect();
        for (const n of nodes) {
          // a text inside a box that clips it was judged above (an intended ellipsis, say)
          if ([...boxes].some((b) => b.contains(n) && getComputedStyle(b).overflowX !== 'visible')) continue;
          const r = document.createRange();
          r.selectNodeContents(n);
          const out = Array.from(r.getClientRects()).find((t) => t.width > 0 && (t.right > edge.right + 1 || t.left < edge.left - 1));
          if (out) {
            cut = `spills out of its box (${Math.round(out.right - edge.left)}>${Math.round(edge.width)} px)`;
            break;
          }
        }
      }
      if (cut) {
        report(cut);
        continue;
      }
      // 2. one-line texts that wrap
      if (oneLine) {
        const rects: DOMRect[] = [];
        for (const n of nodes) {
          const r = document.createRange();
          r.selectNodeContents(n);
          rects.push(...Array.from(r.getClientRects()));
        }
        const lines = lineCount(rects);
        if (lines > 1) {
          report(`wraps onto ${lines} lines`);
          continue;
        }
      }
      // 3. a word of letters or digits broken across lines (prose may break after a hyphen: "X-Forwarded-\nFor")
      for (const n of nodes) {
        const s = n.textContent ?? '';
        for (const m of s.matchAll(/[A-Za-z0-9][A-Za-z0-9.,:;/@_%+\-()]*[A-Za-z0-9%)]/g)) {
          const r = document.createRange();
          r.setStart(n, m.index!);
          r.setEnd(n, m.index! + m[0].length);
          if (lineCount(r.getClientRects()) < 2) continue;
          const hyphenated = /^[A-Za-z]+(-[A-Za-z]+)+$/.test(m[0]);
          if (hyphenated) continue;
          report(`"${m[0]}" is broken across lines`);
          break;
        }
      }
    }
  }
  return clips;
}
