// Small DOM helpers: an element from trusted markup, text escaped, events.

export function html(markup: string): HTMLElement {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return template.content.firstElementChild as HTMLElement;
}

/** Text made safe to put in markup (names are chosen by players). */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function on<K extends keyof HTMLElementEventMap>(
  target: HTMLElement,
  kind: K,
  handler: (event: HTMLElementEventMap[K]) => void | Promise<void>,
): void {
  target.addEventListener(kind, (event) => void handler(event as HTMLElementEventMap[K]));
}
