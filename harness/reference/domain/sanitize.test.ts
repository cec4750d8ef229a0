// The allowlist signature sanitizer (2.2 "HTML, sanitized on save").
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';

describe('sanitizeHtml', () => {
  it('keeps ordinary signature HTML', () => {
    const sig = '<p>Best,<br>Ada <b>Lovelace</b></p><a href="https://example.test/?a=1&amp;b=2" title="site">site</a> <a href="mailto:ada@example.test">mail</a><img src="https://example.test/l.png" alt="logo" width="80">';
    expect(sanitizeHtml(sig)).toBe('<p>Best,<br>Ada <b>Lovelace</b></p><a href="https://example.test/?a=1&amp;b=2" title="site">site</a> <a href="mailto:ada@example.test">mail</a><img src="https://example.test/l.png" alt="logo" width="80">');
  });

  it('drops scripts and other active elements with their content', () => {
    for (const bad of ['<script>alert(1)</script>', '<SCRIPT src=x></SCRIPT>', '<style>*{}</style>', '<iframe src="https://x"></iframe>', '<svg><script>1</script></svg>', '<object data=x></object>', '<script>never closed']) {
      expect(sanitizeHtml(`a${bad}b`), bad).toMatch(/^a(b)?$/);
    }
  });

  it('drops event handlers, javascript: and other unsafe URLs, unsafe styles', () => {
    const out = sanitizeHtml(
      '<p onclick="x()" ONMOUSEOVER=y>p</p><a href="javascript:alert(1)">1</a><a href=" JaVaScRiPt:alert(1)">2</a>' +
        '<a href="jav&#x09;ascript:alert(1)">3</a><a href="java&#115;cript:alert(1)">4</a><a href="vbscript:x">5</a>' +
        '<img src="data:text/html;base64,xx"><div style="background:url(javascript:x)">6</div><span style="width: expression(alert(1))">7</span>',
    );
    expect(out).toBe('<p>p</p><a>1</a><a>2</a><a>3</a><a>4</a><a>5</a><img><div>6</div><span>7</span>');
    expect(out.toLowerCase()).not.toMatch(/javascript|vbscript|on\w+=|expression/);
  });

  it('unwraps unknown elements, drops comments, escapes stray brackets, handles broken markup', () => {
    expect(sanitizeHtml('<custom-x data-a="1">kept</custom-x><!-- <script>1</script> -->')).toBe('kept');
    expect(sanitizeHtml('1 < 2 > 0')).toBe('1 &lt; 2 &gt; 0');
    expect(sanitizeHtml('<scr<script>ipt>alert(1)</script>')).not.toContain('<script');
    expect(sanitizeHtml('ok <a href="x" onclick="y"')).toBe('ok ');
    expect(sanitizeHtml('<a href="x" title=\'a"b\' target=_blank>t</a>')).toBe('<a href="x" title="a&quot;b" target="_blank" rel="noopener noreferrer">t</a>');
  });
});
