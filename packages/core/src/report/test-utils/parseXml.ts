/**
 * A tiny strict XML reader for tests: parses the subset an SVG chart uses (elements, attributes,
 * text, entities) into a tree and throws on anything not well-formed, so tests can assert that a
 * rendered document would load in a browser.
 */

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own decoded text (not its descendants'). */
  readonly text: string;
}

interface MutableElement {
  name: string;
  attrs: Record<string, string>;
  children: MutableElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.:-]*';
const ATTR = new RegExp(`\\s+(${NAME})="([^"<]*)"`, 'gy');
const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

function decode(raw: string, where: string): string {
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(raw)) {
    throw new Error(`bare & in ${where}: ${raw}`);
  }
  return raw.replace(ENTITY, (_, e: string) => {
    const map: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return map[e] ?? '';
  });
}

function parseTag(
  source: string,
  at: number,
): { el: MutableElement; end: number; selfClosing: boolean } {
  const head = new RegExp(`<(${NAME})`, 'y');
  head.lastIndex = at;
  const m = head.exec(source);
  if (!m?.[1]) throw new Error(`bad tag at ${at}`);
  const el: MutableElement = { name: m[1], attrs: {}, children: [], text: '' };
  let pos = head.lastIndex;
  for (;;) {
    ATTR.lastIndex = pos;
    const a = ATTR.exec(source);
    if (!a?.[1]) break;
    if (a[1] in el.attrs) throw new Error(`duplicate attribute ${a[1]} on <${el.name}>`);
    el.attrs[a[1]] = decode(a[2] ?? '', `attribute ${a[1]}`);
    pos = ATTR.lastIndex;
  }
  const close = /\s*(\/?)>/y;
  close.lastIndex = pos;
  const c = close.exec(source);
  if (!c) throw new Error(`malformed tag <${el.name}> at ${at}: ${source.slice(at, at + 80)}`);
  return { el, end: close.lastIndex, selfClosing: c[1] === '/' };
}

/** Parse a document with exactly one root element; throws with a position on malformed input. */
export function parseXml(source: string): XmlElement {
  const stack: MutableElement[] = [];
  let root: MutableElement | undefined;
  let pos = 0;
  while (pos < source.length) {
    const lt = source.indexOf('<', pos);
    const text = source.slice(pos, lt === -1 ? source.length : lt);
    if (text.trim() !== '') {
      const top = stack[stack.length - 1];
      if (!top) throw new Error(`text outside the root element at ${pos}`);
      top.text += decode(text, `text of <${top.name}>`);
    }
    if (lt === -1) break;
    if (source.startsWith('</', lt)) {
      const m = new RegExp(`</(${NAME})\\s*>`, 'y');
      m.lastIndex = lt;
      const found = m.exec(source);
      const open = stack.pop();
      if (!found || open?.name !== found[1]) throw new Error(`mismatched closing tag at ${lt}`);
      pos = m.lastIndex;
      continue;
    }
    const { el, end, selfClosing } = parseTag(source, lt);
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else if (root) throw new Error('more than one root element');
    else root = el;
    if (!selfClosing) stack.push(el);
    pos = end;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element in the tree (depth first, including the root) that matches `predicate`. */
export function findAll(root: XmlElement, predicate: (el: XmlElement) => boolean): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (el: XmlElement): void => {
    if (predicate(el)) out.push(el);
    el.children.forEach(visit);
  };
  visit(root);
  return out;
}

/** Elements carrying `class` among their classes. */
export function byClass(root: XmlElement, cls: string): XmlElement[] {
  return findAll(root, (el) => (el.attrs.class ?? '').split(/\s+/).includes(cls));
}
