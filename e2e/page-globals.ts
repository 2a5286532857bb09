/**
 * The browser objects that the flows' in-page callbacks use, typed: the e2e tsconfig has no DOM
 * library (the flows themselves run in Node), so these name just what the callbacks rely on.
 * Read them as `globalThis as unknown as PageGlobals` inside a callback; types only, as a
 * callback runs in the page and can reach nothing of this file.
 */
export interface PageElement {
  parentElement: PageElement | null;
  clientWidth: number;
  placeholder: string;
  closest(selector: string): PageElement | null;
  checkVisibility(options: { visibilityProperty: boolean; opacityProperty: boolean }): boolean;
}

export interface PageStyle {
  color: string;
  backgroundColor: string;
  fontWeight: string;
  fontSize: string;
  fontFamily: string;
  paddingLeft: string;
  paddingRight: string;
}

export interface PageTextNode {
  parentElement: PageElement | null;
  textContent: string | null;
}

export interface PageGlobals {
  getComputedStyle(el: PageElement): PageStyle;
  dispatchEvent(event: object): boolean;
  CustomEvent: new (type: string, init: { detail: unknown }) => object;
  NodeFilter: { SHOW_TEXT: number };
  document: {
    body: PageElement;
    createTreeWalker(root: PageElement, whatToShow: number): { nextNode(): PageTextNode | null };
    createElement(tag: 'canvas'): {
      getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } };
    };
  };
}
