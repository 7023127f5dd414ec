import { TestBed } from '@angular/core/testing';

import { MarkdownTextComponent } from './markdown-text.component';

function render(text: string): HTMLElement {
  const fixture = TestBed.createComponent(MarkdownTextComponent);
  fixture.componentRef.setInput('text', text);
  fixture.detectChanges();
  return fixture.nativeElement as HTMLElement;
}

describe('MarkdownTextComponent', () => {
  it('shows a recap’s "- " bullets as a list and **bold** as bold, not as Markdown source', () => {
    const element = render(
      'Here is the plan:\n\n- **Tier 1 (auto-archive)**: newsletters\n- Tier 2: receipts',
    );
    const items = Array.from(element.querySelectorAll('ul > li')).map((li) => li.textContent);
    expect(items).toEqual(['Tier 1 (auto-archive): newsletters', 'Tier 2: receipts']);
    expect(element.querySelector('strong')?.textContent).toBe('Tier 1 (auto-archive)');
    expect(element.textContent).not.toContain('**');
    expect(element.textContent).not.toMatch(/^- /m);
  });

  it('keeps single line breaks, as the plain text did', () => {
    const element = render('First line\nsecond line');
    expect(element.querySelector('br')).not.toBeNull();
  });

  it('shows raw HTML as text: no element, script or handler of a reply’s own reaches the page', () => {
    const element = render('Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> <b>bold</b>');
    expect(element.querySelector('img, script, b')).toBeNull();
    expect(element.textContent).toContain('<b>bold</b>');
    expect(element.querySelector('[onerror]')).toBeNull();
  });

  it('makes only http(s) and mailto links, opening in a new tab; others are their words', () => {
    const element = render(
      '[docs](https://example.com/a) and [bad](javascript:alert(1)) and ![pic](https://t.example/p.png)',
    );
    const links = Array.from(element.querySelectorAll('a'));
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute('href')).toBe('https://example.com/a');
    expect(links[0]!.getAttribute('target')).toBe('_blank');
    expect(links[0]!.getAttribute('rel')).toBe('noopener noreferrer');
    expect(element.textContent).toContain('bad');
    expect(element.querySelector('img')).toBeNull();
    expect(element.textContent).toContain('pic');
  });
});
