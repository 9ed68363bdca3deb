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
  appendChild<T extends FakeElement | FakeText>(c: T): T { this.children.push(c); return c; }
  append(...cs: (FakeElement | FakeText | string)[]): void {
    for (const c of cs) this.children.push(typeof c === "string" ? new FakeText(c) : c);
  }
  replaceChildren(...cs: (FakeElement | FakeText)[]): void { this.children = [...cs]; }
  insertBefore<T extends FakeElement | FakeText>(c: T, before: FakeElement | FakeText | null): T {
    const i = before ? this.children.indexOf(before) : -1;
    if (i < 0) this.children.push(c); else this.children.splice(i, 0, c);
    return c;
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
    createTextNode: (t: string) => new FakeText(t),
  };
}
