// A minimal document for unit tests of the page's DOM builders under Node
// (vitest runs in 'node': no jsdom in the project). It holds what
// file-table.js uses: elements with children, classes, dataset, attributes
// as properties, text nodes, and innerHTML kept as the raw string it was
// given, so a test can see what went through it (names are untrusted:
// docs/security.md, they must only ever reach textContent).

class FakeText {
  /** @param {FakeDocument} doc @param {string} text */
  constructor(doc, text) {
    this.ownerDocument = doc;
    this.nodeType = 3;
    this.data = String(text);
    /** @type {FakeElement | null} */
    this.parentNode = null;
  }

  get textContent() {
    return this.data;
  }
}

class FakeClassList {
  /** @param {FakeElement} el */
  constructor(el) {
    this.el = el;
  }

  get list() {
    return this.el.className.split(/\s+/).filter(Boolean);
  }

  /** @param {...string} names */
  add(...names) {
    const l = this.list;
    for (const n of names) if (!l.includes(n)) l.push(n);
    this.el.className = l.join(' ');
  }

  /** @param {...string} names */
  remove(...names) {
    this.el.className = this.list.filter((n) => !names.includes(n)).join(' ');
  }

  /** @param {string} name */
  contains(name) {
    return this.list.includes(name);
  }
}

export class FakeElement {
  /** @param {FakeDocument} doc @param {string} tag */
  constructor(doc, tag) {
    this.ownerDocument = doc;
    this.nodeType = 1;
    this.tagName = tag.toUpperCase();
    /** @type {(FakeElement | FakeText)[]} */
    this.childNodes = [];
    /** @type {FakeElement | null} */
    this.parentNode = null;
    this.className = '';
    this.classList = new FakeClassList(this);
    /** @type {Record<string, string>} */
    this.dataset = {};
    /** Inline style as the CSSOM sets it (properties, and custom ones through setProperty). @type {Record<string, any>} */
    this.style = {
      /** @param {string} k @param {string} v */
      setProperty(k, v) {
        this[k] = v;
      },
    };
    this.title = '';
    this.hidden = false;
    this.colSpan = 1;
    /** innerHTML as given (never parsed). */
    this.rawHTML = '';
    /** @type {Record<string, Function[]>} */
    this.listeners = {};
  }

  set innerHTML(html) {
    this.rawHTML = String(html);
    this.ownerDocument.htmlWritten.push(this.rawHTML);
    this.childNodes = [];
  }

  get innerHTML() {
    return this.rawHTML;
  }

  get children() {
    return /** @type {FakeElement[]} */ (this.childNodes.filter((n) => n.nodeType === 1));
  }

  /** @returns {string} */
  get textContent() {
    return this.childNodes.map((n) => n.textContent).join('');
  }

  set textContent(text) {
    this.childNodes = [];
    if (text !== '' && text != null) this.appendChild(new FakeText(this.ownerDocument, String(text)));
  }

  get nextElementSibling() {
    const sibs = this.parentNode?.children ?? [];
    return sibs[sibs.indexOf(this) + 1] ?? null;
  }

  /** @param {FakeElement | FakeText} node */
  appendChild(node) {
    if (node.parentNode) node.parentNode.childNodes = node.parentNode.childNodes.filter((n) => n !== node);
    node.parentNode = this;
    this.childNodes.push(node);
    return node;
  }

  /** @param {...(FakeElement | FakeText | string)} nodes */
  append(...nodes) {
    for (const n of nodes) this.appendChild(typeof n === 'string' ? new FakeText(this.ownerDocument, n) : n);
  }

  /** @param {...(FakeElement | FakeText | string)} nodes */
  replaceChildren(...nodes) {
    this.childNodes = [];
    this.rawHTML = '';
    this.append(...nodes);
  }

  /** @param {string} type @param {Function} fn */
  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }

  /** @param {string} type */
  dispatch(type) {
    for (const fn of this.listeners[type] ?? []) fn({ type, target: this });
  }

  /**
   * Descendants matching a simple selector: `tag`, `.class`, `tag.class`
   * (several classes allowed), or `[data-x="v"]` after them.
   * @param {string} sel @returns {FakeElement[]}
   */
  querySelectorAll(sel) {
    const m = /^([a-z]*)((?:\.[\w-]+)*)(?:\[data-([\w-]+)="([^"]*)"\])?$/i.exec(sel.trim());
    if (!m) throw new Error(`fake-dom: selector ${sel} not supported`);
    const [, tag, cls, dataKey, dataVal] = m;
    const classes = cls.split('.').filter(Boolean);
    const key = dataKey?.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    /** @type {FakeElement[]} */
    const out = [];
    const walk = (/** @type {FakeElement} */ el) => {
      for (const c of el.children) {
        if ((!tag || c.tagName === tag.toUpperCase()) && classes.every((k) => c.classList.contains(k)) && (!key || c.dataset[key] === dataVal)) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }

  /** @param {string} sel */
  querySelector(sel) {
    return this.querySelectorAll(sel)[0] ?? null;
  }
}

export class FakeDocument {
  constructor() {
    /** Every string given to an innerHTML, in order. @type {string[]} */
    this.htmlWritten = [];
  }

  /** @param {string} tag */
  createElement(tag) {
    return new FakeElement(this, tag);
  }

  /** @param {string} text */
  createTextNode(text) {
    return new FakeText(this, text);
  }
}

/** A fresh document and an element of it (a container the builders fill). @param {string} [tag] */
export function fakeContainer(tag = 'div') {
  const doc = new FakeDocument();
  return { doc, el: doc.createElement(tag) };
}
