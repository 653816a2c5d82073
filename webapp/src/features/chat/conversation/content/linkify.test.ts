import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

describe('linkify', () => {
  it('makes http(s) URLs links and leaves trailing punctuation out', () => {
    expect(linkify('see https://kj.example/a?b=1. ok')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://kj.example/a?b=1', href: 'https://kj.example/a?b=1' },
      { kind: 'text', text: '. ok' },
    ]);
  });

  it('never links other schemes and stops URLs at markup', () => {
    expect(linkify('javascript:alert(1)')).toEqual([{ kind: 'text', text: 'javascript:alert(1)' }]);
    const parts = linkify('http://x.test/<img src=x onerror=alert(1)>');
    expect(parts[0]).toEqual({ kind: 'link', text: 'http://x.test/', href: 'http://x.test/' });
    expect(parts[1]).toEqual({ kind: 'text', text: '<img src=x onerror=alert(1)>' });
  });
});
