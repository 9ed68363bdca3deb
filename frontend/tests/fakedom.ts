// A very small stand-in for the DOM, enough for modules that build elements with h() (dom.ts):
// createElement, attributes, dataset, classList, children and textContent. Setting innerHTML throws,
// so a test fails if any code path tries to render text as markup.
export class FakeText {
  constructor(public data: string) {}
  get textContent(): string { return this.data; }
  set textContent(v: string) { this.data = String(v); }
}

export class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly dataset: Record<string, string> = {};
  children: (FakeElement | FakeText)[] = [];
  title = "";
  hidden = false;
  disabled = false;
  parentElement: FakeElement | null = null;
  private readonly listeners = new Map<string, (() => void)[]>();
  readonly style: Record<string, string> = {};
  get childNodes(): (FakeElement | FakeText)[] { return this.children; }
  constructor(readonly tagName: string) {}

  setAttribute(k: string, v: string): void {
    this.attributes.set(k, String(v));
    if (k.startsWith("data-")) this.dataset[k.slice(5).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = String(v);
  }
  getAttribute(k: string): string | null { return this.attributes.get(k) ?? null; }
  get className(): string { return this.getAttribute("class") ?? ""; }
  set className(v: string) { this.setAttribute("class", v); }
  get classList() {
    const el = this;
    const list = () => el.className.split(/\s+/).filter(Boolean);
    return {
      add: (...c: string[]) => { el.className = [...new Set([...list(), ...c])].join(" "); },
      remove: (...c: string[]) => { el.className = list().filter((x) => !c.includes(x)).join(" "); },
      contains: (c: string) => list().includes(c),
      toggle: (c: string, on?: boolean) => {
        const want = on ?? !list().includes(c);
        if (want) el.classList.add(c); else el.classList.remove(c);
        return want;
      },
    };
  }
  get textContent(): string { return this.children.map((c) => c.textContent).join(""); }
  set textContent(v: string) { this.children = [new FakeText(String(v))]; }
  set innerHTML(_v: string) { throw new Error("innerHTML must not be used for chat text"); }
  private adopt(c: FakeElement | FakeText): void {
    if (c instanceof FakeElement) {
      if (c.parentElement && c.parentElement !== this) c.parentElement.children = c.parentElement.children.filter((x) => x !== c);
      else if (c.parentElement === this) this.children = this.children.filter((x) => x !== c);
      c.parentElement = this;
    }
  }
  appendChild<T extends FakeElement | FakeText>(c: T): T { this.adopt(c); this.children.push(c); return c; }
  append(...cs: (FakeElement | FakeText | string)[]): void {
    for (const c of cs) this.appendChild(typeof c === "string" ? new FakeText(c) : c);
  }
  replaceChildren(...cs: (FakeElement | FakeText)[]): void {
    for (const c of this.children) if (c instanceof FakeElement && c.parentElement === this) c.parentElement = null;
    this.children = [];
    for (const c of cs) this.appendChild(c);
  }
  insertBefore<T extends FakeElement | FakeText>(c: T, before: FakeElement | FakeText | null): T {
    this.adopt(c);
    const i = before ? this.children.indexOf(before) : -1;
    if (i < 0) this.children.push(c); else this.children.splice(i, 0, c);
    return c;
  }
  get firstChild(): FakeElement | FakeText | null { return this.children[0] ?? null; }
  addEventListener(type: string, fn: () => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  /** A click as a person's: nothing happens on a disabled button. */
  click(): void {
    if (this.disabled) return;
    for (const fn of this.listeners.get("click") ?? []) fn();
  }
  querySelector(sel: string): FakeElement | null {
    const cls = /^\.([\w-]+)$/.exec(sel);
    const id = /^#([\w-]+)$/.exec(sel);
    return this.all().find((e) => (cls ? e.classList.contains(cls[1]) : id ? e.getAttribute("id") === id[1] : false)) ?? null;
  }
  /** Every element below this one (depth first). */
  all(): FakeElement[] {
    return this.children.flatMap((c) => (c instanceof FakeElement ? [c, ...c.all()] : []));
  }
  find(cls: string): FakeElement | undefined {
    return this.all().find((e) => e.classList.contains(cls));
  }
}

export function installFakeDocument(): void {
  (globalThis as unknown as { document: unknown }).document = {
    createElement: (tag: string) => new FakeElement(tag.toUpperCase()),
    createElementNS: (_ns: string, tag: string) => new FakeElement(tag),
    createTextNode: (t: string) => new FakeText(t),
  };
}
