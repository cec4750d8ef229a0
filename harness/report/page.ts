// The start of every self-contained HTML page the kit writes (the conformance report, the load
// and compare reports): one doctype, charset and viewport for all of them.
import { escapeHtml as e } from './text.ts';

/** The start of a self-contained page, up to its opened body: the title escaped, the CSS inline. */
export function pageHead(title: string, css: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${e(title)}</title>
<style>${css}</style>
</head>
<body>`;
}
