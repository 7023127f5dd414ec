import {
  ChangeDetectionStrategy,
  Component,
  computed,
  inject,
  input,
  SecurityContext,
  ViewEncapsulation,
} from '@angular/core';
import { DomSanitizer } from '@angular/platform-browser';
// The self-contained build: the same code in the browser bundle and in jest (which cannot load the
// package's ESM-only dependencies), with the package's own types.
import MarkdownIt from 'markdown-it/browser';

/** Links a reply may carry; anything else (javascript:, data:, relative…) stays text. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * One parser of our own: CommonMark with GitHub's tables and strikethrough, line breaks kept as
 * the replies were shown before, bare URLs as links. Raw HTML in a reply is shown as the text it
 * is, never passed through (`html: false`); an image is its description (no request leaves for a
 * URL a model wrote); a link opens in a new tab, and only http(s) and mailto are links at all.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true });
markdown.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());
markdown.renderer.rules['image'] = (tokens, index): string =>
  markdown.utils.escapeHtml(tokens[index]?.content ?? '');
markdown.renderer.rules['link_open'] = (tokens, index, options, _env, self): string => {
  const token = tokens[index];
  token?.attrSet('target', '_blank');
  token?.attrSet('rel', 'noopener noreferrer');
  return self.renderToken(tokens, index, options);
};

/** Markdown as HTML, then through Angular's sanitizer (a second line of defence after the renderer). */
export function renderMarkdown(text: string, sanitizer: DomSanitizer): string {
  const html = markdown.render(text);
  return sanitizer.sanitize(SecurityContext.HTML, html) ?? '';
}

/**
 * An agent's reply as formatted text: its "- " bullets a list, its **bold** bold, its headings,
 * code and links as such (a recap with "Tier 1 (auto-archive)" lines reads as a list, not as
 * Markdown source).
 */
@Component({
  selector: 'app-markdown-text',
  template: `<div class="markdown" [innerHTML]="html()"></div>`,
  // Not encapsulated: the elements come from innerHTML, which Angular's emulated encapsulation
  // never marks, so scoped rules would miss them. Every rule starts at this component's tag.
  encapsulation: ViewEncapsulation.None,
  styles: `
    app-markdown-text {
      display: block;
      min-width: 0;
      overflow-wrap: anywhere;
    }
    app-markdown-text .markdown > :first-child {
      margin-top: 0;
    }
    app-markdown-text .markdown > :last-child {
      margin-bottom: 0;
    }
    app-markdown-text :is(p, ul, ol, pre, blockquote, table) {
      margin: 0 0 var(--space-2);
    }
    app-markdown-text :is(h1, h2, h3, h4, h5, h6) {
      margin: var(--space-3) 0 var(--space-1);
      font-size: 1rem;
    }
    app-markdown-text :is(ul, ol) {
      padding-left: 1.25rem;
    }
    /* Inside the chat's own list, a list would otherwise take the nested bullet (a circle). */
    app-markdown-text ul {
      list-style: disc;
    }
    app-markdown-text li + li {
      margin-top: var(--space-1);
    }
    app-markdown-text code {
      font-family: var(--font-mono);
      font-size: 0.875em;
    }
    app-markdown-text pre {
      overflow-x: auto;
      padding: var(--space-2) var(--space-3);
      border-radius: calc(var(--radius) - 4px);
      background: var(--color-hover);
    }
    app-markdown-text blockquote {
      padding-left: var(--space-3);
      border-left: 3px solid var(--color-border-strong);
      color: var(--color-muted);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MarkdownTextComponent {
  private readonly sanitizer = inject(DomSanitizer);
  readonly text = input.required<string>();
  protected readonly html = computed(() => renderMarkdown(this.text(), this.sanitizer));
}
