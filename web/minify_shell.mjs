// Size: node web/minify_shell.mjs SHELL.html OUT.html writes the page shell with its stylesheet minified and the
// indentation between tags dropped. Every visitor loads the shell (index.html, the single file), and Debian's
// Emscripten has no HTML minifier (-sMINIFY_HTML=0). The stylesheet loses its comments, the whitespace around
// { } ; , > and after a colon, and each rule's last semicolon; a space before a colon stays (it is a descendant
// combinator there: `#text-view :focus-visible`). Between tags, a line break and its indentation become one line
// break, which a browser renders as the same single space. Nothing else changes; a shell without a stylesheet is an
// error, so a renamed tag cannot pass through unminified.
import fs from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!output) throw new Error('usage: node web/minify_shell.mjs SHELL.html OUT.html');
const shell = fs.readFileSync(input, 'utf8');
const STYLE = /<style>([\s\S]*?)<\/style>/;
if (!STYLE.test(shell)) throw new Error(`${input} has no <style> block`);
const css = (text) => text
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s+/g, ' ')
  .replace(/\s*([{};,>])\s*/g, '$1')
  .replace(/:\s+/g, ':')
  .replace(/;}/g, '}')
  .trim();
const out = shell
  .replace(STYLE, (_, text) => `<style>${css(text)}</style>`)
  .replace(/>\n[ \t]+</g, '>\n<');
fs.writeFileSync(output, out);
