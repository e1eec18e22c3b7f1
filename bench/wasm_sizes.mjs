// Where the page's wasm bytes go: reads a .wasm built with names kept (bench/wasm_sizes.sh builds one:
// the web preset's flags plus --profiling-funcs) and prints, per source area, the code bytes of the
// functions it owns, the data bytes, and a gzip -9 estimate (each area's bodies compressed together).
// Usage: node bench/wasm_sizes.mjs build/webprof/site/index.wasm [--top N] [--area NAME] [--objects BUILD_DIR]
// (the build dir's objects, default the .wasm's build dir, map functions to their source files)
// The raw figures are exact (sums of function body sizes from the code section); the per-area gzip figure
// is an estimate: areas compressed on their own lose the context they share inside the whole file.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';

const args = process.argv.slice(2);
const file = args[0];
if (!file) {
  console.error('usage: node bench/wasm_sizes.mjs INDEX.wasm [--top N] [--area NAME]');
  process.exit(2);
}
const topCount = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 0;
const onlyArea = args.includes('--area') ? args[args.indexOf('--area') + 1] : null;
const wasm = fs.readFileSync(file);
const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;

// --- a minimal reader for the sections this needs ---
let pos = 0;
const u32 = () => {
  let result = 0;
  let shift = 0;
  for (;;) {
    const byte = wasm[pos++];
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return result;
  }
};
const name = () => {
  const n = u32();
  const s = wasm.toString('utf8', pos, pos + n);
  pos += n;
  return s;
};

pos = 8;
const sections = [];
let importedFunctions = 0;
const bodies = [];  // {index, start, size}
const names = new Map();
const dataSegments = [];
while (pos < wasm.length) {
  const header = pos;
  const id = wasm[pos++];
  const size = u32();
  const start = pos;
  let label = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code',
    'data', 'datacount'][id] ?? `id ${id}`;
  if (id === 0) {
    const custom = name();
    label = `custom "${custom}"`;
    if (custom === 'name') {
      while (pos < start + size) {
        const sub = wasm[pos++];
        const subSize = u32();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const count = u32();
          for (let i = 0; i < count; ++i) {
            const index = u32();
            names.set(index, name());
          }
        }
        pos = subEnd;
      }
    }
  } else if (id === 2) {
    const count = u32();
    for (let i = 0; i < count; ++i) {
      name();
      name();
      const kind = wasm[pos++];
      if (kind === 0) u32();
      else if (kind === 1) { pos++; const flags = u32(); u32(); if (flags & 1) u32(); }
      else if (kind === 2) { const flags = u32(); u32(); if (flags & 1) u32(); }
      else if (kind === 3) { pos += 2; }
      if (kind === 0) ++importedFunctions;
    }
  } else if (id === 10) {
    const count = u32();
    for (let i = 0; i < count; ++i) {
      const bodySize = u32();
      bodies.push({ index: importedFunctions + i, start: pos, size: bodySize });
      pos += bodySize;
    }
  } else if (id === 11) {
    const count = u32();
    for (let i = 0; i < count; ++i) {
      const flags = u32();
      if (flags === 2) u32();
      if (flags !== 1) {  // an offset expression up to `end`
        while (wasm[pos] !== 0x0b) ++pos;
        ++pos;
      }
      const length = u32();
      dataSegments.push({ start: pos, size: length });
      pos += length;
    }
  }
  sections.push({ label, size, start, header });
  pos = start + size;
}

// --- names: demangle the C++ ones in one llvm-cxxfilt call ---
const rawNames = bodies.map((b) => names.get(b.index) ?? `func${b.index}`);
let demangled = rawNames;
try {
  demangled = execFileSync('llvm-cxxfilt', { input: rawNames.join('\n'), maxBuffer: 1 << 28 }).toString().split('\n');
} catch {
  // no llvm-cxxfilt: the names stay mangled and the patterns below still match most of them
}

// --- areas. A function defined (not as a template or inline copy) in one of our objects belongs to that
// source file: the build's LLVM bitcode objects are listed with llvm-nm. The rest (inline and template
// code, libc, libc++, compiler-rt) is sorted by name, first match wins.
const objectOf = new Map();  // demangled name -> source area
const buildDir = args.includes('--objects') ? args[args.indexOf('--objects') + 1] : file.replace(/\/site\/[^/]+$/, '');
const areaOfObject = (path) => {
  const m = path.match(/CMakeFiles\/([^/]+)\.dir\/(.+)\.o$/);
  if (!m) return null;
  const source = m[2].replace(/^.*third_party\/imgui\//, 'imgui/').replace(/^.*\/(imgui_app|web|core)\//, '$1/');
  if (m[1] === 'imgui') return source.startsWith('imgui/') ? source : `imgui/${source}`;
  if (m[1] === 'llm_memory_core') return `core/${source.replace(/^core\//, '')}`;
  if (m[1] === 'llm_memory_ui') return source.includes('embedded_font') ? 'imgui_app/embedded_font (generated)' : `imgui_app/${source.replace(/^imgui_app\//, '')}`;
  if (m[1] === 'llm_memory_web') return `web/${source.replace(/^web\//, '')}`;
  return null;
};
try {
  const objects = execFileSync('find', [buildDir, '-name', '*.o', '-path', '*CMakeFiles*'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim().split('\n').filter(Boolean);
  for (const object of objects) {
    const area = areaOfObject(object);
    if (!area) continue;
    let listing = '';
    try {
      listing = execFileSync('llvm-nm', ['--defined-only', '--demangle', object], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    } catch {
      continue;  // not bitcode or object code llvm-nm reads
    }
    for (const line of listing.split('\n')) {
      const m = line.match(/^\S+\s+([TtDdBbRr])\s+(.+)$/);
      if (m && !objectOf.has(m[2])) objectOf.set(m[2], area);
    }
  }
} catch {
  // no objects or no llvm-nm: names only
}
const AREAS = [
  ['nlohmann-json (templates)', /nlohmann/],
  ['libc++ iostream/locale', /locale|ios_base|basic_ios|streambuf|istream|ostream|ctype|codecvt|numpunct|num_get|num_put|moneypunct|money_|time_get|time_put|collate|facet/],
  ['libc++ templates and library', /std::/],
  ['libc printf/scanf/strtod', /printf|fmt_fp|fmt_u|pop_arg|^out$|^pad$|getint|scanf|floatscan|intscan|decfloat|hexfloat|scanexp|strto|__shgetc|__shlim|__uflow|__toread|__towrite|__fwritex|wctomb|wcrtomb|store_int|string_read|sn_write/],
  ['compiler-rt (128-bit float/int)', /^__(add|sub|mul|div|extend|trunc|float|fix|lt|le|ge|gt|eq|ne|unord|ashl|ashr|lshr|udiv|umod|div|mod|mul)[a-z]*[tdsfi][fi]?[23]$|^__(u?divti3|multi3|umodti3|modti3|ashlti3|lshrti3|ashrti3)$/],
  ['libc math', /^(sin|cos|tan|asin|acos|atan|atan2|exp|exp2|log|log2|log10|pow|sqrt|fmod|floor|ceil|round|lround|trunc|frexp|ldexp|scalbn|copysign|fabs|modf|hypot|cbrt)[fl]?$|__rem_pio2|__sindf|__cosdf|__tandf|__math_|fp_barrier|zeroinfnan|checkint/],
  ['libc malloc (emmalloc)', /malloc|free|realloc|emmalloc|claim_more_memory|attempt_allocate|sbrk|memalign|operator new|operator delete/],
  ['libc++abi/RTTI', /__cxxabiv1|__cxa_|type_info/],
  ['libc other', /^(mem|str|is|to|qsort|sift|trinkle|cycle|shl|shr|pntz|a_ctz|wmem|f[a-z]+|__stdio|__lock|__unlock|__wasi|__errno|stack|emscripten|__wasm|__)/],
];
const areaOf = (n) => {
  if (/nlohmann/.test(n)) return AREAS[0][0];
  const own = objectOf.get(n);
  if (own) return own;
  for (const [area, re] of AREAS) if (re.test(n)) return area;
  return 'unattributed (inline copies)';
};

const byArea = new Map();
const functions = bodies.map((b, i) => ({ ...b, name: demangled[i] || rawNames[i], area: areaOf(demangled[i] || rawNames[i]) }));
for (const f of functions) {
  const row = byArea.get(f.area) ?? { area: f.area, count: 0, bytes: 0, chunks: [] };
  row.count += 1;
  row.bytes += f.size;
  row.chunks.push(wasm.subarray(f.start, f.start + f.size));
  byArea.set(f.area, row);
}
const dataBytes = dataSegments.reduce((s, d) => s + d.size, 0);
const dataGz = gz(Buffer.concat(dataSegments.map((d) => wasm.subarray(d.start, d.start + d.size))));

const codeSection = sections.find((s) => s.label === 'code');
const pad = (s, n) => String(s).padEnd(n);
const num = (n) => String(n).padStart(9);
console.log(`${file}: ${wasm.length} bytes, ${functions.length} functions (${importedFunctions} imported)`);
console.log('\nSections (bytes):');
for (const s of sections) console.log(`  ${pad(s.label, 28)}${num(s.size)}`);
console.log(`\n${pad('Area', 36)}${num('functions')}${num('code B')}${num('gzip B')}   share of code`);
const rows = [...byArea.values()].sort((a, b) => b.bytes - a.bytes);
for (const r of rows) {
  console.log(`${pad(r.area, 36)}${num(r.count)}${num(r.bytes)}${num(gz(Buffer.concat(r.chunks)))}   ${(100 * r.bytes / codeSection.size).toFixed(1)}%`);
}
console.log(`${pad('data segments (strings, tables, font)', 36)}${num(dataSegments.length)}${num(dataBytes)}${num(dataGz)}`);
console.log(`${pad('whole file', 36)}${num('')}${num(wasm.length)}${num(gz(wasm))}`);
// The same file without its custom sections (the names): what the release page's wasm weighs.
const kept = [wasm.subarray(0, 8)];
for (const s of sections) if (!s.label.startsWith('custom')) kept.push(wasm.subarray(s.header, s.start + s.size));
const stripped = Buffer.concat(kept);
console.log(`${pad('without the name section', 36)}${num('')}${num(stripped.length)}${num(gz(stripped))}`);

if (topCount > 0) {
  console.log(`\nLargest ${topCount} functions${onlyArea ? ` in ${onlyArea}` : ''}:`);
  functions.filter((f) => !onlyArea || f.area === onlyArea).sort((a, b) => b.size - a.size).slice(0, topCount)
    .forEach((f) => console.log(`${num(f.size)}  ${pad(f.area, 30)} ${f.name.slice(0, 140)}`));
}
