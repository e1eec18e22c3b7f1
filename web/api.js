// The page's JS bridge (linked with --post-js, so it shares the Emscripten module's scope): the
// window.llmMemory API, URL state (fragment + query, replaceState; writes throttled), localStorage, the
// practice=<ref> link of the Practice tab, model files (header only) and config.json from a drop or the
// picker, notices, the Copy link / Copy embed code buttons, idle wake-up listeners and GLFW's keyboard
// scoping.
// Every property shared with C++, the shell or other pages is QUOTED: the page is built with --closure 1.
//
// Sections (each starts with a `// ---` line): URL parsing · storage · a reload right after a change ·
//   throttled writes · the address edited by hand · notices and status · wasm calls · model files ·
//   clipboard · the text view · called by the driver · the public API · page wiring · touch · the phone
//   keyboard.
(function () {
  var STORAGE_KEY = 'llm-memory:state';
  var UNLOAD_WRITE_KEY = 'llm-memory:unload-write';  // sessionStorage: see takeUnloadWrite()
  // Page options in the URL that are not scenario settings (practice: the Practice tab's exercise).
  // view=text: the text view is shown.
  // hf=ID: a model to look up on Hugging Face (web/hub.js); opening such a link asks first.
  // lookup=ID: the lean page's look-up field asked for ID (the full build looks it up as its field would).
  // paste=command|log: the lean page's "Paste a command" / "Paste a log" (the full build opens those boxes).
  // hf, lookup, paste and the engine keys load the full build (web/page_loader.mjs); lookup and paste are
  // dropped from the address once used.
  var PAGE_KEYS = { 'embed': 1, 'theme': 1, 'practice': 1, 'view': 1, 'hf': 1, 'lookup': 1, 'paste': 1 };
  var WRITE_INTERVAL_MS = 250;  // URL and storage are written at most once per this interval
  var doc = document;
  var canvas = Module['canvas'];
  var readyResolve;
  var readyReject;
  var started = false;
  var lastHash = null;    // the fragment this page wrote last (to tell our writes from the user's)
  takeUnloadWrite();      // before anything reads the address
  var pageOptions = readPageOptions();
  var publishedState = null;  // the scenario the driver published last (a state string)
  var practiceRef = '';       // the exercise on the Practice tab while it is open, else ''
  var urlDue = false;         // the address bar does not show publishedState / practiceRef yet
  var storageDue = false;     // localStorage does not hold publishedState yet
  var storedState = null;     // what this page last wrote to localStorage
  var viewShown = false;      // the text view is shown (view=text in the link)
  var noWebgl = false;        // the text view stands in for the canvas
  var writeTimer = 0;          // a write is due when it fires
  var lastWriteMs = -1e9;      // performance.now() of the last write
  var applyingEdit = false;    // an edited address is being applied: writes wait until it is done
  var engines = true;          // this build has the engine models (the full build); false on the lean page
  // The keys only the full build reads: index.html's loader (web/page_loader.mjs) holds the list.
  var FULL_KEYS = Module['llmMemoryFullKeys'] || /$^/;

  // --- URL parsing: "a=1&b=2" -> [[key, value-as-written]] (values stay encoded for core) ---
  function pairs(text) {
    var out = [];
    if (!text) return out;
    if (text.charAt(0) === '#' || text.charAt(0) === '?') text = text.substring(1);
    text.split('&').forEach(function (pair) {
      if (!pair) return;
      var eq = pair.indexOf('=');
      var key = eq < 0 ? pair : pair.substring(0, eq);
      var value = eq < 0 ? '' : pair.substring(eq + 1);
      try { key = decodeURIComponent(key); } catch (e) { /* keep as written */ }
      out.push([key, value]);
    });
    return out;
  }
  function joinPairs(list) {
    return list.map(function (p) { return encodeURIComponent(p[0]) + '=' + p[1]; }).join('&');
  }
  function decodeValue(value) {
    try { return decodeURIComponent(value.replace(/\+/g, ' ')); } catch (e) { return value; }
  }
  // Page options (embed=1, theme=dark|light, practice=REF): the fragment wins over the query.
  function readPageOptions() {
    var options = {};
    pairs(location.search).concat(pairs(location.hash)).forEach(function (p) {
      if (PAGE_KEYS[p[0]]) options[p[0]] = decodeValue(p[1]);
    });
    return options;
  }
  function isEmbed() { return pageOptions['embed'] === '1' || pageOptions['embed'] === 'true'; }
  // The scenario keys of the query, then of the fragment: applied in that order, the fragment wins.
  function urlState() {
    var settings = function (p) { return !PAGE_KEYS[p[0]]; };
    var list = pairs(location.search).filter(settings).concat(pairs(location.hash).filter(settings));
    return joinPairs(list);
  }
  // This page's address for `state` (scenario keys only in the fragment, then practice=REF while the
  // Practice tab is open; page options kept).
  function pageUrl(state, withEmbed) {
    var keep = function (p) { return PAGE_KEYS[p[0]] && !/^(practice|view|hf|lookup|paste)$/.test(p[0]) && (withEmbed || p[0] !== 'embed'); };
    var query = pairs(location.search).filter(keep);
    var parts = state ? [state] : [];
    if (practiceRef) parts.push('practice=' + encodeURIComponent(practiceRef));
    var hubRef = started && Module['llmMemoryHubLinkRef'] ? Module['llmMemoryHubLinkRef']() : '';
    if (hubRef) parts.push('hf=' + encodeURIComponent(hubRef).replace(/%2F/g, '/').replace(/%3A/g, ':').replace(/%40/g, '@'));
    if (viewShown && !noWebgl) parts.push('view=text');
    var hashOptions = joinPairs(pairs(location.hash).filter(keep));
    if (hashOptions) parts.push(hashOptions);
    var fragment = parts.join('&');
    var base = location.href.split('#')[0].split('?')[0];
    return base + (query.length ? '?' + joinPairs(query) : '') + (fragment ? '#' + fragment : '');
  }
  function fullAppUrl(state) { return pageUrl(state, false); }
  function embedUrl(state) {
    var base = location.href.split('#')[0].split('?')[0];
    return base + '#' + (state ? state + '&' : '') + 'embed=1';
  }
  function embedCode(state) {
    return '<iframe src="' + embedUrl(state).replace(/&/g, '&amp;').replace(/"/g, '&quot;') +
      '" width="700" height="420" style="border:0;max-width:100%" loading="lazy" title="LLM memory estimate"></iframe>';
  }

  // --- storage (absent or throwing in sandboxed frames: then nothing is kept) ---
  function storageGet() {
    try { return window.localStorage.getItem(STORAGE_KEY); } catch (e) { return null; }
  }
  function storageSet(value) {
    try { window.localStorage.setItem(STORAGE_KEY, value); } catch (e) { /* not kept */ }
  }
  function storageRemove() {
    try { window.localStorage.removeItem(STORAGE_KEY); } catch (e) { /* nothing kept */ }
  }

  // --- a reload right after a change. A reload loads the address the page had when it was asked for, so
  // a change written after that (its throttled write still pending, made by the timer or by pagehide while
  // the reload is under way) would reload the address before it. pagehide leaves {stale, fresh} in this
  // tab's sessionStorage: the addresses this page replaced in the last RELOAD_WINDOW_MS and the one it
  // shows last. The next page of this tab, when it is a reload or a history navigation of one of the stale
  // addresses, shows the fresh one instead. Any other navigation (a typed or followed link) drops the record. ---
  var RELOAD_WINDOW_MS = 10000;
  var replacedHrefs = [];  // [{'href', 'ms'}]: addresses this page replaced lately, newest last
  function takeUnloadWrite() {
    var record = null;
    try {
      record = JSON.parse(window.sessionStorage.getItem(UNLOAD_WRITE_KEY) || 'null');
      window.sessionStorage.removeItem(UNLOAD_WRITE_KEY);
    } catch (e) { return; }
    var entries = performance.getEntriesByType ? performance.getEntriesByType('navigation') : [];
    var type = entries.length ? entries[0]['type'] : '';
    if (!record || (type !== 'reload' && type !== 'back_forward')) return;
    var stale = record['stale'];
    if (!Array.isArray(stale) || stale.indexOf(location.href) < 0 || typeof record['fresh'] !== 'string') return;
    try { history.replaceState(history.state, '', record['fresh']); } catch (e) { /* keep the address */ }
  }
  function noteReplaced(href) {
    var now = performance.now();
    replacedHrefs = replacedHrefs.filter(function (r) { return now - r['ms'] < RELOAD_WINDOW_MS; });
    replacedHrefs.push({ 'href': href, 'ms': now });
  }
  function flushOnPageHide() {
    flushWrites();
    var now = performance.now();
    var fresh = location.href;
    var stale = replacedHrefs.filter(function (r) { return now - r['ms'] < RELOAD_WINDOW_MS && r['href'] !== fresh; })
      .map(function (r) { return r['href']; });
    try {
      if (stale.length) {
        window.sessionStorage.setItem(UNLOAD_WRITE_KEY, JSON.stringify({ 'stale': stale, 'fresh': fresh }));
      } else {
        window.sessionStorage.removeItem(UNLOAD_WRITE_KEY);
      }
    } catch (e) { /* no sessionStorage: a reload may show the address before the last change */ }
  }

  // --- throttled writes: a slider drag changes the scenario every frame, and replaceState and
  // localStorage.setItem were the costliest JS of such a frame (bench/RESULTS.md). A change after a quiet
  // spell is written at once; changes within WRITE_INTERVAL_MS of a write wait for the end of that
  // interval and are written together (the last one wins). Pending writes are also made when the page
  // is hidden or left (visibilitychange, pagehide; a reload then finds them through takeUnloadWrite). ---
  function scheduleWrites() {
    if (writeTimer || applyingEdit) return;  // already due at the end of this interval, with whatever is current then
    var wait = lastWriteMs + WRITE_INTERVAL_MS - performance.now();
    if (wait <= 0) flushWrites();
    else writeTimer = setTimeout(flushWrites, wait);
  }
  function flushWrites() {
    if (writeTimer) clearTimeout(writeTimer);
    writeTimer = 0;
    if (!started || applyingEdit) return;
    // An address edited since our last write (its hashchange event may still be queued) is applied
    // first: a write computed from the page's own state would replace it and the edit would be lost.
    applyAddressEdit();
    if (publishedState === null || (!urlDue && !storageDue)) return;
    // The interval runs from the last real write: a flush that finds the address and storage already
    // current (the same scenario published again) writes nothing and starts no interval.
    var now = performance.now();
    if (urlDue) {
      urlDue = false;
      var url = pageUrl(publishedState, true);
      if (url !== location.href) {
        var replaced = location.href;
        try {
          history.replaceState(history.state, '', url);
          lastWriteMs = now;
          noteReplaced(replaced);
        } catch (e) { /* file:// in some browsers */ }
      }
      lastHash = location.hash;  // as the browser shows it (it may re-encode what was written)
    }
    if (storageDue) {
      storageDue = false;
      storedState = publishedState;
      if (!isEmbed()) {
        storageSet(publishedState);
        lastWriteMs = now;
      }
    }
  }

  // --- the address edited by hand (or by an iframe's host page, or history navigation) ---
  // Applies the fragment if it differs from what this page wrote last. The fragment is read once, and no
  // write is made until both its scenario and its practice= are applied: applying the scenario publishes
  // it, and an immediate write then would put the page's previous exercise back into the address before
  // practice= was read from it.
  function applyAddressEdit() {
    var hash = location.hash;
    if (hash === lastHash) return;
    lastHash = hash;
    // The lean page, asked for what only the full build has: load it (index.html's loader picks it).
    if (!engines && FULL_KEYS.test(hash.replace('#', '&'))) { location.reload(); return; }
    var state = urlState();
    var practice = pairs(hash).filter(function (p) { return p[0] === 'practice'; }).pop();
    applyingEdit = true;
    try {
      var result = setState(state, true);
      if (!result['ok']) notice('Ignored in the link: ' + result['error'] + '.');
      if (practice && !isEmbed() && decodeValue(practice[1]) !== practiceRef) {
        var problem = openPractice(decodeValue(practice[1]));
        if (problem) notice('Ignored in the link: ' + problem + '.');
      }
    } finally {
      applyingEdit = false;
    }
  }

  // --- notices and status (the bar under the canvas) ---
  function byId(id) { return doc.getElementById(id); }
  function notice(text) {
    var el = byId('notice');
    if (!el) return;
    byId('notice-text').textContent = text;
    el.hidden = false;
    wake();
  }
  function status(text) {
    var el = byId('status');
    if (!el) return;
    el.textContent = text;
    el.title = text;  // the bar cuts a long status with an ellipsis on narrow screens
  }

  // --- wasm calls ---
  function call(name, returnType, argTypes, args) {
    return ccall(name, returnType, argTypes, args);
  }
  function wake() {
    if (started && Module['_llm_memory_wake']) Module['_llm_memory_wake']();
  }
  function setState(state, partial) {
    return JSON.parse(call('llm_memory_set_state', 'string', ['string', 'number'], [String(state), partial ? 1 : 0]));
  }

  // --- model files: a GGUF or safetensors header (or a safetensors index) read through core's
  // ModelFileReader, one File.slice of 1 MiB at a time, each copied into wasm memory and fed until the
  // reader has the whole header; nothing beyond that chunk is read, nothing is uploaded ---
  var CHUNK_BYTES = 1 << 20;
  var MODEL_FILE_NAME = /\.(gguf|safetensors)$|\.safetensors\.index\.json$/i;
  var fileReads = 0;  // the newest read's number: an older one still awaiting a slice stops
  var filesOpening = 0;  // reads under way (idle() waits for them)
  function opening(promise) {
    filesOpening++;
    var done = function () { filesOpening--; };
    promise.then(done, done);
    return promise;
  }
  function readModelFile(file) {
    var id = ++fileReads;
    var name = String(file.name || 'model file');
    var size = file.size;
    var offset = 0;
    call('llm_memory_file_begin', null, ['number', 'string'], [size, name]);
    var finish = function (readError) {
      var result = JSON.parse(call('llm_memory_file_finish', 'string', ['string'], [readError]));
      status(result['ok'] ? 'Read ' + name + ' (header only).' : 'Could not read ' + name + ' (see the Model section).');
      refreshView();
      return result;
    };
    var next = function () {
      if (offset >= size) return Promise.resolve(finish(''));
      var end = Math.min(size, offset + CHUNK_BYTES);
      return file.slice(offset, end).arrayBuffer().then(function (buffer) {
        if (id !== fileReads) return { 'ok': false, 'error': name + ': another file was opened', 'file': null };
        var bytes = new Uint8Array(buffer);
        HEAPU8.set(bytes, Module['_llm_memory_file_buffer'](bytes.length));
        offset = end;
        return Module['_llm_memory_file_feed'](bytes.length) === 0 ? next() : finish('');
      }, function (error) {
        return id === fileReads ? finish(String(error && error.message || error)) :
          { 'ok': false, 'error': name + ': another file was opened', 'file': null };
      });
    };
    return next();
  }
  // A dropped or picked file: a model file by its name or its GGUF magic, else a config.json (at most
  // 4 MiB + 1 byte of it: core refuses a larger config.json).
  function openFile(file) {
    if (MODEL_FILE_NAME.test(file.name)) return opening(readModelFile(file));
    return opening(file.slice(0, 4).arrayBuffer().then(function (magic) {
      if (String.fromCharCode.apply(null, new Uint8Array(magic)) === 'GGUF') return readModelFile(file);
      return file.slice(0, 4 * 1024 * 1024 + 1).text().then(function (text) {
        var ok = call('llm_memory_load_config', 'number', ['string'], [text]);
        status(ok ? 'Read ' + file.name + '.' : 'Could not read ' + file.name + ' (see the Model section).');
      });
    }).catch(function () { notice('Could not read ' + file.name + '.'); }));
  }
  // Several files dropped or picked together (a model and its mmproj projector file) are read one after another,
  // in the order given, each applied as it ends.
  function openFiles(list) {
    var files = Array.prototype.slice.call(list || []);
    return files.reduce(function (previous, file) {
      return previous.then(function () { return openFile(file); }, function () { return openFile(file); });
    }, Promise.resolve());
  }
  Module['llmMemoryOpenFilePicker'] = function () { byId('model-file').click(); };

  // --- clipboard: ImGui's copies and the page buttons go through navigator.clipboard ---
  function copyText(text) {
    var done = function () { return true; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).then(done, function () { return legacyCopy(text); });
    }
    return Promise.resolve(legacyCopy(text));
  }
  // Without the async clipboard (or when it refuses): a hidden textarea and execCommand('copy'); the
  // element that had focus (the canvas, while ImGui copies) gets it back.
  function legacyCopy(text) {
    var previous = doc.activeElement;
    var area = doc.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    doc.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = doc.execCommand('copy'); } catch (e) { ok = false; }
    doc.body.removeChild(area);
    if (previous && previous.focus) previous.focus({ 'preventScroll': true });
    return ok;
  }
  Module['llmMemoryCopyText'] = function (text) { copyText(text); };


  // --- the text view: a form and tables generated from core's settings table, report and steps (the
  // page adds no figure of its own), kept in sync both ways through the same calls as the JS API ---
  var rowsByKey = null;
  var viewBuilt = false;
  function viewData() { return JSON.parse(call('llm_memory_view_json', 'string', [], [])); }
  // The settings table's rows by key (labels, kinds and choices do not change while the page runs).
  function settingRows() {
    if (!rowsByKey) {
      rowsByKey = {};
      viewData()['settings'].forEach(function (row) { rowsByKey[row['key']] = row; });
    }
    return rowsByKey;
  }
  function make(tag, attrs, text) {
    var node = doc.createElement(tag);
    for (var name in attrs) node.setAttribute(name, attrs[name]);
    if (text != null) node.textContent = text;
    return node;
  }
  function fieldOf(key) { return byId('set-' + key); }  // set-params, set-gpu, ...
  function fieldValue(key) {
    var input = fieldOf(key);
    return input.type === 'checkbox' ? (input.checked ? 'true' : 'false') : input.value.trim();
  }
  // An edit in the view: the current state with this key replaced (or dropped when empty), through setState.
  function applyField(key) {
    var value = fieldValue(key);
    var found = false;
    var list = pairs(api['getState']()).map(function (p) {
      if (p[0] !== key) return p;
      found = true;
      return [key, encodeURIComponent(value)];
    }).filter(function (p) { return p[0] !== key || value !== ''; });
    if (!found && value !== '') list.push([key, encodeURIComponent(value)]);
    // The model and text-only set N themselves: the old N would replace the new model's count.
    if (key === 'model' || key === 'text-only') list = list.filter(function (p) { return p[0] !== 'params'; });
    // An engine switch goes the canvas's way (llm_memory_set_setting): it clears what the new engine does not
    // read, where the whole state would be refused for naming the old engine's settings.
    var result = key === 'engine'
      ? JSON.parse(call('llm_memory_set_setting', 'string', ['string', 'string'], [key, value]))
      : setState(joinPairs(list), false);
    if (result['notice']) status(result['notice']);
    var input = fieldOf(key);
    input.setAttribute('aria-invalid', result['ok'] ? 'false' : 'true');
    byId('set-' + key + '-err').textContent = result['ok'] ? '' : result['error'];
    if (result['ok']) refreshView();
  }
  function buildView() {
    var form = byId('tv-settings');
    var rows = viewData()['settings'];
    rows.forEach(function (row) {
      var key = row['key'];
      var id = 'set-' + key;
      var line = make('div', { 'class': 'tv-row' });
      var label = make('label', { 'for': id }, row['label']);
      if (row['unit']) label.appendChild(make('span', { 'class': 'tv-unit' }, ' (' + row['unit'] + ')'));
      var input;
      if (row['kind'] === 'choice') {
        input = make('select', {});
        row['choices'].forEach(function (c) { input.appendChild(make('option', { 'value': c[0] }, c[1])); });
      } else if (row['kind'] === 'bool') {
        input = make('input', { 'type': 'checkbox' });
      } else {
        input = make('input', { 'type': 'text', 'autocomplete': 'off', 'spellcheck': 'false', 'translate': 'no',
                                'inputmode': row['kind'] === 'number' ? 'decimal' : 'text' });
      }
      input.id = id;
      input.name = key;
      input.setAttribute('aria-describedby', id + '-help ' + id + '-err');
      input.addEventListener('input', function () { input.setAttribute('data-dirty', '1'); });
      input.addEventListener('change', function () { input.removeAttribute('data-dirty'); applyField(key); });
      line.appendChild(label);
      line.appendChild(input);
      line.appendChild(make('small', { 'id': id + '-help' }, row['help']));
      line.appendChild(make('span', { 'id': id + '-err', 'class': 'tv-err' }));
      form.appendChild(line);
    });
    var answer = byId('tv-answer');
    var check = function () {
      call('llm_memory_practice_answer', null, ['string'], [answer.value]);
      refreshView();
    };
    byId('tv-check').addEventListener('click', check);
    answer.addEventListener('keydown', function (e) { if (e.key === 'Enter') { e.preventDefault(); check(); } });
    if (Module['llmMemoryViewBuild']) Module['llmMemoryViewBuild'](api, refreshView);  // web/engines.js (full build)
    // Look up on Hugging Face: web/hub.js's prompt and look-up in the full build; here, the full build with
    // lookup=ID (and view=text), which asks in its own text view.
    var hubRef = byId('tv-hub-ref');
    var hubGo = function () {
      var id = hubRef.value.trim();
      if (Module['llmMemoryViewHubGo']) Module['llmMemoryViewHubGo'](id, false);
      else if (id) Module['llmMemoryLoadFull']('lookup=' + encodeURIComponent(id));
      else byId('tv-hub-out').textContent = 'Type a model id (org/name) or a huggingface.co address first.';
    };
    byId('tv-hub-go').addEventListener('click', hubGo);
    hubRef.addEventListener('keydown', function (e) { if (e.key === 'Enter') { e.preventDefault(); hubGo(); } });
    if (Module['llmMemoryViewHubBuild']) Module['llmMemoryViewHubBuild']();
    viewBuilt = true;
  }
  function fillList(parent, items, tag) {
    parent.textContent = '';
    items.forEach(function (text) { parent.appendChild(make(tag, {}, text)); });
  }
  // The canvas changed the scenario (or the view did): every field but the one being typed in, the
  // results, the GPU verdict, the steps and the Practice question.
  function refreshView() {
    if (!viewShown || !started) return;
    if (!viewBuilt) buildView();
    var data = viewData();
    data['settings'].forEach(function (row) {
      var input = fieldOf(row['key']);
      if (input) input.parentNode.hidden = !!row['hidden'];  // another engine's row, as the canvas leaves it out
      if (!input || (input === doc.activeElement && input.hasAttribute('data-dirty'))) return;  // being typed in
      // Another setting decides this figure (b under a weight format): shown read-only, with why, as on the canvas.
      var decided = row['decided'];
      input.readOnly = !!decided;
      byId(input.id + '-help').textContent = decided ? row['decided_note'] : row['help'];
      if (input.type === 'checkbox') input.checked = row['value'] === 'true';
      else input.value = decided || row['value'];
      if (input.getAttribute('aria-invalid') === 'true') {
        input.setAttribute('aria-invalid', 'false');
        byId(input.id + '-err').textContent = '';
      }
    });
    fillList(byId('tv-inputs'), data['report']['inputs'], 'li');
    var model = byId('tv-model');
    model.textContent = data['model'];
    model.className = data['model_error'] ? 'tv-err' : '';
    var body = byId('tv-results').tBodies[0];
    body.textContent = '';
    data['report']['results'].forEach(function (r) {
      var tr = make('tr', { 'data-bytes': r['bytes'] });
      tr.appendChild(make('th', { 'scope': 'row' }, r['label']));
      tr.appendChild(make('td', {}, r['gb']));
      tr.appendChild(make('td', {}, r['gib']));
      body.appendChild(tr);
    });
    // The run and training verdicts lead; the full build adds the engine's per-device lines (web/engines.js).
    fillList(byId('tv-verdicts'), data['report']['verdicts'] || [], 'p');
    if (Module['llmMemoryViewRefresh']) Module['llmMemoryViewRefresh'](data);
    var gpu = data['report']['gpu'];
    fillList(byId('tv-gpu'), gpu.length ? gpu : ['No GPU chosen: pick one under GPU above to check the fit.'], 'p');
    var fit = data['fit'];
    fillList(byId('tv-fit'), fit.length ? fit : ['No GPU chosen: pick one under GPU above to see what fits.'], 'p');
    var steps = byId('tv-steps');
    steps.textContent = '';
    data['steps'].forEach(function (d) {
      steps.appendChild(make('h4', {}, d['title']));
      var list = make('ol', {});
      fillList(list, d['steps'], 'li');
      steps.appendChild(list);
    });
    var practice = data['practice'];
    var section = byId('tv-practice');
    section.hidden = !practice;
    if (practice) {
      byId('tv-exercise').textContent = practice['title'] + '. ' + practice['setup'];
      byId('tv-question').textContent = practice['question'];
      byId('tv-feedback').textContent = practice['feedback'];
    }
  }
  function showView(show) {
    viewShown = show;
    byId('text-view').hidden = !show;
    doc.documentElement.classList.toggle('text-view', show);
    var toggle = byId('text-view-toggle');
    if (toggle) toggle.setAttribute('aria-expanded', show ? 'true' : 'false');
    refreshView();
    if (started) { urlDue = true; scheduleWrites(); }
    wake();
  }

  // --- called by the driver ---
  // After every scenario change: the summary (at once), the URL (replaceState: no history entry per edit)
  // and storage (both throttled).
  Module['llmMemoryPublish'] = function (summary, state, table) {
    var el = byId('results-summary');
    if (el && el.textContent !== summary) el.textContent = summary;
    publishedState = state;
    refreshView();
    if (!started) return;
    urlDue = true;
    storageDue = state !== storedState;  // the same scenario published again is not written again
    scheduleWrites();
  };
  // The Practice tab opened (ref), changed exercise (ref) or closed (''): the link follows (throttled).
  Module['llmMemoryPractice'] = function (ref) {
    refreshView();
    if (ref === practiceRef) return;
    practiceRef = ref;
    urlDue = true;
    if (started) scheduleWrites();
  };
  Module['llmMemoryTheme'] = function (dark) {
    doc.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
  };
  // The lean page's engine selector, paste buttons and look-up field (web/lean.cpp): `pair` ("engine=vllm",
  // "paste=log", "lookup=org/name") joins the scenario in this page's address, which is then reloaded;
  // index.html's loader loads the full build for it. The address is replaced, not pushed: Back leaves the page.
  Module['llmMemoryLoadFull'] = function (pair) {
    flushWrites();
    var url = pageUrl(publishedState + (publishedState ? '&' : '') + pair, true);
    try { history.replaceState(history.state, '', url); } catch (e) { location.replace(url); return; }
    lastHash = location.hash;
    status('Loading the page\'s full build...');
    location.reload();
  };
  Module['llmMemoryOpenFullApp'] = function () {
    window.open(fullAppUrl(api['getState']()), '_blank', 'noopener');
  };
  // Once, from main(): webgl = 0 when WebGL 2 is missing (the text view shows the app).
  Module['llmMemoryStart'] = function (webgl) {
    lastHash = location.hash;  // the address being applied now is not an edit
    started = true;
    engines = !!Module['_llm_memory_engines_in_build']();
    var ignored = [];  // problems of the link, shown in one notice
    // The exercise first, so that the first write of the address already carries practice=REF.
    if (pageOptions['practice'] !== undefined && !isEmbed()) {
      var practiceProblem = openPractice(pageOptions['practice']);
      if (practiceProblem) ignored.push(practiceProblem);
    }
    var fromUrl = urlState();
    if (fromUrl) {
      var result = setState(fromUrl, true);
      if (!result['ok']) ignored.push(result['error']);
    } else if (!isEmbed()) {
      var stored = storageGet();
      if (stored) {
        var restored = setState(stored, false);
        if (!restored['ok']) {
          storageRemove();
          notice('The saved scenario could not be read and was ignored (' + restored['error'] + ').');
        }
      }
    }
    // With the text view shown, a link's hf=ID and the lean page's lookup=ID are asked for there (web/hub.js).
    var textFirst = !webgl || pageOptions['view'] === 'text';
    if (Module['llmMemoryHubInit']) {
      var hubProblem = Module['llmMemoryHubInit'](isEmbed() || textFirst ? '' : pageOptions['hf']);
      if (hubProblem) ignored.push(hubProblem);
    }
    // The lean page's look-up field and paste buttons, carried into the full build by the link.
    if (pageOptions['lookup'] && Module['llmMemoryLookUpHub'] && !isEmbed() && !textFirst) Module['llmMemoryLookUpHub'](pageOptions['lookup']);
    if (ignored.length) notice('Ignored in the link: ' + ignored.join('; ') + '.');
    if (!webgl) showFallback();
    else if (pageOptions['view'] === 'text') showView(true);
    var hubAsked = pageOptions['hf'] || pageOptions['lookup'];
    if (textFirst && hubAsked && !isEmbed() && Module['llmMemoryViewHubGo']) Module['llmMemoryViewHubGo'](hubAsked, !!pageOptions['hf']);
    if (pageOptions['paste'] && engines) {
      Module['_llm_memory_reveal_engine_io']();
      if (viewShown && Module['llmMemoryViewPaste']) Module['llmMemoryViewPaste'](pageOptions['paste']);
    }
    installListeners(webgl);
    readyResolve(api);
  };
  Module['onAbort'] = function (what) { readyReject(new Error('llm-memory failed to start: ' + what)); };

  // practice=REF from the link: opens that exercise on the Practice tab. Returns '' or the problem.
  function openPractice(ref) {
    if (!Module['_llm_memory_open_practice']) return '';
    return call('llm_memory_open_practice', 'string', ['string'], [String(ref)]);
  }

  // No WebGL 2: the text view is the page (not written into the link: nothing else can be shown).
  function showFallback() {
    doc.documentElement.classList.add('no-webgl');
    byId('tv-no-webgl').hidden = false;
    noWebgl = true;
    showView(true);
  }

  // --- the public API (documented in README.md, "Links, embedding and the JS API") ---
  var api = {};
  api['ready'] = new Promise(function (resolve, reject) { readyResolve = resolve; readyReject = reject; });
  function requireStarted() {
    if (!started) throw new Error('llm-memory is not ready yet: await window.llmMemory.ready');
  }
  // The CLI's JSON for a state string (`llm-memory --state S --format json`), or {error: "..."}; without
  // an argument, for the scenario the page shows (with a model file's architecture and its "file" object,
  // as `llm-memory --gguf FILE --format json`).
  api['estimate'] = function (state) {
    requireStarted();
    if (!arguments.length) return JSON.parse(call('llm_memory_current_json', 'string', [], []));
    return JSON.parse(call('llm_memory_estimate_json', 'string', ['string'], [String(state == null ? '' : state)]));
  };
  // Reads a GGUF or safetensors file (a File or Blob; header only) as a dropped one: a Promise of
  // {ok, error (the Model section's message), file (core's JSON of the header)}.
  api['readModelFile'] = function (file) {
    requireStarted();
    return opening(readModelFile(file));
  };
  // Looks a model up on Hugging Face as the Model section's field does (web/hub.js): the consent prompt
  // unless a yes is remembered; a Promise of {ok, applied, message, hub} once the look-up ends.
  api['lookUpHub'] = function (id) {
    requireStarted();
    if (!Module['llmMemoryLookUpHub']) {
      return Promise.resolve({ 'ok': false, 'applied': false, 'hub': null,
        'message': 'the Hugging Face look-up is in the page\'s full build: a link with hf=ID or lookup=ID opens it' });
    }
    return Module['llmMemoryLookUpHub'](id);
  };
  api['getState'] = function () {
    requireStarted();
    return call('llm_memory_get_state', 'string', [], []);
  };
  // Replaces the scenario; on any problem keeps the current one. Returns {ok, error}.
  api['setState'] = function (state) {
    requireStarted();
    var result = setState(state == null ? '' : state, false);
    return { 'ok': result['ok'], 'error': result['error'] };
  };
  // The exercise on the Practice tab ("seed-7b", "predict-70b" or its number) while that tab is open, else "".
  api['getPractice'] = function () {
    requireStarted();
    if (!Module['_llm_memory_get_practice']) return '';
    return call('llm_memory_get_practice', 'string', [], []);
  };
  api['frameCount'] = function () {
    requireStarted();
    return Module['_llm_memory_frame_count']();
  };
  // True once the page has settled: the main loop paused itself (it draws again on input), and no
  // address or storage write, file read or Hugging Face look-up is under way.
  api['idle'] = function () {
    requireStarted();
    return Module['_llm_memory_loop_paused']() === 1 && !writeTimer && filesOpening === 0 &&
      !(Module['llmMemoryHubBusy'] && Module['llmMemoryHubBusy']());
  };
  // Test hook (harness.mjs idleReport): idle()'s page-side parts, [a write due, file reads, a look-up running].
  Module['llmMemoryIdleParts'] = function () {
    return [!!writeTimer, filesOpening, !!(Module['llmMemoryHubBusy'] && Module['llmMemoryHubBusy']())];
  };
  // Practice answers: JSON from core, only when the page exports the checker.
  api['checkAnswer'] = function (questionId, state, answer) {
    requireStarted();
    if (!Module['_llm_memory_check_answer']) throw new Error('this build has no practice questions');
    return JSON.parse(call('llm_memory_check_answer', 'string', ['string', 'string', 'string'],
                           [String(questionId), String(state == null ? '' : state), String(answer)]));
  };
  // Engine commands and logs: an engine's command line sets the scenario ({ok, message, notes}); a pasted
  // log is reconciled against the scenario it states ({text, rows} or {error}). Read in the page.
  api['fromCommand'] = function (command) {
    requireStarted();
    return JSON.parse(call('llm_memory_from_command', 'string', ['string'], [String(command)]));
  };
  api['reconcile'] = function (log) {
    requireStarted();
    return JSON.parse(call('llm_memory_reconcile', 'string', ['string'], [String(log)]));
  };
  window['llmMemory'] = api;

  // --- page wiring ---
  Module['llmMemoryEmbed'] = isEmbed();
  Module['llmMemoryTouch'] = !!(window.matchMedia && window.matchMedia('(pointer: coarse)').matches);
  var theme = pageOptions['theme'];
  Module['llmMemoryPrefersDark'] = theme === 'light' ? false : theme === 'dark' ? true :
    !(window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches);
  doc.documentElement.setAttribute('data-theme', Module['llmMemoryPrefersDark'] ? 'dark' : 'light');
  if (isEmbed()) doc.documentElement.classList.add('embed');

  // GLFW listens for keys on the whole window and calls preventDefault on Backspace and Tab, which
  // breaks the text fields of a page that shares the document (emscripten issues #6143, #22866):
  // only let key events through while the canvas has focus. Dot access on purpose: GLFW's methods
  // are renamed together with this file by closure.
  var keydown = GLFW.onKeydown;
  var keypress = GLFW.onKeyPress;
  var keyup = GLFW.onKeyup;
  // Tab and Shift+Tab move through the app's widgets (ImGui keyboard navigation); Escape, when no text
  // field is being edited and no popup is open, takes the focus out of the canvas so the next Tab
  // continues in the page (no keyboard trap; the canvas's label says so).
  var mine = function () { return doc.activeElement === canvas; };
  GLFW.onKeydown = function (event) {
    if (!mine()) return;
    var leave = event.keyCode === 27 && started && Module['_llm_memory_keyboard_captured']() === 0;
    keydown(event);
    if (leave) {
      keyup(event);  // the keyup will not reach GLFW once the canvas has lost focus
      canvas.blur();
    }
  };
  GLFW.onKeyPress = function (event) { if (mine()) keypress(event); };
  GLFW.onKeyup = function (event) { if (mine()) keyup(event); };

  // --- touch (standing in for this GLFW, whose touch handlers press at the last mouse position) ---
  // GLFW's canvas listeners get mouse events only; touches are fed through the same handlers as
  // mouse-like events (so GLFW's cursor follows the finger) with the source marked as a touch screen.
  // One finger: a tap clicks where it is; a first move mostly sideways presses and drags (sliders), mostly
  // vertical scrolls the window under the finger; held still, the finger hovers (tooltips and help). Two
  // fingers are the browser's (pinch-zoom). An embed leaves swipes to the host page until tapped.
  var mouseMove = GLFW.onMousemove;
  var mouseDown = GLFW.onMouseButtonDown;
  var mouseUp = GLFW.onMouseButtonUp;
  var touchSource = false;   // the source ImGui was told last
  var setSource = function (touch) {
    if (touch === touchSource) return;
    touchSource = touch;
    Module['_llm_memory_touch_source'](touch ? 1 : 0);
  };
  var fromMouse = function (handler) {
    return function (event) {
      if (event.type.charAt(0) === 't') return;  // touchstart/move/end: handled below
      setSource(false);
      handler(event);
    };
  };
  GLFW.onMousemove = fromMouse(mouseMove);
  GLFW.onMouseButtonDown = fromMouse(mouseDown);
  GLFW.onMouseButtonUp = fromMouse(mouseUp);
  var SLOP = 8;   // CSS px a finger moves before the gesture is decided (ImGui's drag threshold is 6)
  var HOLD_MS = 450;
  var gesture = null;  // {id, x, y (start, page px), lastY, mode: 'wait'|'drag'|'scroll'|'hold'|'host', timer}
  var embedEngaged = false;
  var feed = function (handler, type, x, y) {
    setSource(true);
    handler({ 'type': type, 'button': 0, 'target': canvas, 'pageX': x, 'pageY': y });
  };
  // The finger left: ImGui keeps no hover at its last position.
  var leave = function () { feed(mouseMove, 'mousemove', -1e7, -1e7); };
  var touchOf = function (event) {
    for (var i = 0; i < event.changedTouches.length; i++) {
      if (gesture && event.changedTouches[i].identifier === gesture.id) return event.changedTouches[i];
    }
    return null;
  };
  var endGesture = function (cancelled) {
    clearTimeout(gesture.timer);
    var mode = gesture.mode;
    gesture = null;
    if (mode === 'host') return;
    // A cancelled drag (a second finger, the browser took over) releases off the canvas: no click.
    if (mode === 'drag') feed(mouseUp, 'mouseup', cancelled ? -1e7 : lastX, cancelled ? -1e7 : lastY);
    if (mode !== 'hold' || cancelled) leave();
  };
  var lastX = 0;
  var lastY = 0;
  function engageEmbed(on) {
    embedEngaged = on;
    doc.documentElement.classList.toggle('engaged', on);
    Module['_llm_memory_set_wheel_engaged'](on ? 1 : 0);
  }
  function onTouchStart(event) {
    if (event.touches.length > 1) {  // a second finger: the browser's pinch; drop what the first began
      if (gesture) endGesture(true);
      return;
    }
    var t = event.changedTouches[0];
    gesture = { id: t.identifier, x: t.pageX, y: t.pageY, lastY: t.pageY, t0: event.timeStamp,
                mode: isEmbed() && !embedEngaged ? 'host' : 'wait' };
    lastX = t.pageX;
    lastY = t.pageY;
    if (gesture.mode === 'host') return;
    feed(mouseMove, 'mousemove', t.pageX, t.pageY);  // hover first: ImGui's order for a touch
    var g = gesture;
    g.timer = setTimeout(function () {
      if (gesture === g && g.mode === 'wait') { g.mode = 'hold'; wake(); }
    }, HOLD_MS);
  }
  function onTouchMove(event) {
    var t = touchOf(event);
    if (!t || event.touches.length > 1) return;
    if (gesture.mode === 'host') return;  // the host page scrolls (touch-action: pan-y)
    if (event.cancelable) event.preventDefault();
    var dx = t.pageX - gesture.x;
    var dy = t.pageY - gesture.y;
    lastX = t.pageX;
    lastY = t.pageY;
    if (gesture.mode === 'wait' || gesture.mode === 'hold') {
      if (Math.max(Math.abs(dx), Math.abs(dy)) < SLOP) return;
      clearTimeout(gesture.timer);
      if (Math.abs(dx) > Math.abs(dy)) {
        gesture.mode = 'drag';
        feed(mouseDown, 'mousedown', gesture.x, gesture.y);
      } else {
        gesture.mode = 'scroll';
        Module['_llm_memory_touch_scroll'](t.pageY - gesture.y, 1);
        gesture.lastY = t.pageY;
        return;
      }
    }
    if (gesture.mode === 'drag') feed(mouseMove, 'mousemove', t.pageX, t.pageY);
    if (gesture.mode === 'scroll') {
      Module['_llm_memory_touch_scroll'](t.pageY - gesture.lastY, 0);
      gesture.lastY = t.pageY;
    }
  }
  function onTouchEnd(event) {
    var t = touchOf(event);
    if (!t) return;
    if (event.type === 'touchcancel') { endGesture(true); return; }
    var mode = gesture.mode;
    // The hold timer runs on the page's thread, so a busy frame puts it out of order with the touchend: the
    // events' own times decide. Lifted in time is a tap even if the timer ran; held past HOLD_MS is a long
    // press even if the timer is still overdue (its help is then drawn now).
    var held = event.timeStamp - gesture.t0 >= HOLD_MS;
    if (mode === 'hold' && !held) mode = gesture.mode = 'wait';
    else if (mode === 'wait' && held) { mode = gesture.mode = 'hold'; wake(); }
    var tap = mode === 'wait' || (mode === 'host' && Math.abs(t.pageX - gesture.x) < SLOP && Math.abs(t.pageY - gesture.y) < SLOP);
    if (event.cancelable) event.preventDefault();  // no compatibility mouse events, no second click
    if (!tap) { endGesture(false); return; }
    if (mode === 'host') {  // the first tap engages an embed and is a click as well
      engageEmbed(true);
      gesture.mode = 'wait';
      feed(mouseMove, 'mousemove', gesture.x, gesture.y);
    }
    // What the finger hovers must be known now: a text field raises the phone keyboard, which browsers
    // allow only inside the touch handler.
    Module['_llm_memory_frame_now']();
    var textKey = call('llm_memory_hovered_text', 'string', [], []);
    feed(mouseDown, 'mousedown', gesture.x, gesture.y);
    feed(mouseUp, 'mouseup', gesture.x, gesture.y);
    endGesture(false);
    if (textKey) beginTextEntry(textKey);
    else if (doc.activeElement !== canvas) canvas.focus({ 'preventScroll': true });
  }

  // --- the phone keyboard: a real <textarea> that types into the ImGui text field being edited ---
  // (a textarea, so a log pasted into a box of several lines keeps its line breaks; an <input> drops them)
  // The numeric keypad where the field takes a plain number (settings of kind "number").
  var entryLines = false;  // the field being edited takes several lines: Enter is a new line, not the end
  function describeTextEntry(input, key) {
    var spec = settingRows()[key];
    input.setAttribute('inputmode', spec && spec['kind'] === 'number' ? 'decimal' : 'text');
    input.setAttribute('enterkeyhint', entryLines ? 'enter' : 'done');
    input.setAttribute('aria-label', spec ? spec['label'] : 'Text being edited');
  }
  function beginTextEntry(key) {
    var input = byId('text-entry');
    entryLines = false;
    describeTextEntry(input, key);
    input.value = '';
    input.focus({ 'preventScroll': true });
  }
  // From the driver: a text field became active (its text and settings key) or stopped being active.
  Module['llmMemoryTextEdit'] = function (active, text, key, lines) {
    var input = byId('text-entry');
    // A field a touch activated without the input taking the focus in the touch handler (what the
    // finger hovered was not drawn yet): take it now.
    if (active && touchSource && doc.activeElement !== input) input.focus({ 'preventScroll': true });
    if (!input || doc.activeElement !== input) return;
    if (!active) { input.blur(); return; }
    entryLines = !!lines;
    describeTextEntry(input, key);
    input.value = text;
    input.setSelectionRange(0, text.length);
  };
  function textEntryListeners() {
    var input = byId('text-entry');
    var send = function (end) { call('llm_memory_text_input', null, ['string', 'number'], [input.value, end]); };
    input.addEventListener('input', function () { send(0); });
    input.addEventListener('keydown', function (e) {
      if ((e.key === 'Enter' && !entryLines) || e.key === 'Escape') {
        e.preventDefault();
        send(e.key === 'Enter' ? 2 : 3);  // the field's own Enter (commit) or Escape (revert)
        input.blur();
      }
    });
    input.addEventListener('blur', function () { send(1); });
  }

  // The page's buttons: copy link, copy embed code, the notice's close, the text view and its skip link.
  function buttonListeners() {
    byId('copy-link').addEventListener('click', function () {
      copyText(fullAppUrl(api['getState']())).then(function (ok) { status(ok ? 'Link copied.' : 'Could not copy.'); });
    });
    byId('copy-embed').addEventListener('click', function () {
      copyText(embedCode(api['getState']())).then(function (ok) { status(ok ? 'Embed code copied.' : 'Could not copy.'); });
    });
    byId('notice-close').addEventListener('click', function () { byId('notice').hidden = true; wake(); });
    byId('text-view-toggle').addEventListener('click', function () { showView(!viewShown); });
    // The skip link (first Tab stop) opens the text view and moves the focus into it.
    byId('skip-link').addEventListener('click', function (e) {
      e.preventDefault();
      if (!viewShown) showView(true);
      byId('text-view').focus();
    });
  }

  // The address and storage: a hand-edited fragment, writes flushed before the page goes away, the theme.
  function addressAndStorageListeners() {
    // The fragment edited by hand (or by the host page of an iframe): apply it, then write its canonical
    // form (throttled like every write).
    window.addEventListener('hashchange', function () {
      applyAddressEdit();
      scheduleWrites();
    });
    // Pending URL and storage writes are made before the page goes away or out of sight.
    window.addEventListener('pagehide', flushOnPageHide);
    // A page back from the back/forward cache is as it was, with the address written at pagehide.
    window.addEventListener('pageshow', function (event) {
      if (!event['persisted']) return;
      try { window.sessionStorage.removeItem(UNLOAD_WRITE_KEY); } catch (e) { /* none kept */ }
    });
    doc.addEventListener('visibilitychange', function () { if (doc.hidden) flushWrites(); });
    if (window.matchMedia && !pageOptions['theme']) {
      window.matchMedia('(prefers-color-scheme: light)').addEventListener('change', function (e) {
        Module['_llm_memory_set_dark_theme'](e.matches ? 0 : 1);
      });
    }
  }

  // Input on the canvas beyond GLFW's own: touch, the phone keyboard, paste, an embed's wheel, held keys.
  function canvasInputListeners() {
    canvas.addEventListener('touchstart', onTouchStart, { 'passive': true });
    canvas.addEventListener('touchmove', onTouchMove, { 'passive': false });
    canvas.addEventListener('touchend', onTouchEnd, { 'passive': false });
    canvas.addEventListener('touchcancel', onTouchEnd, { 'passive': false });
    textEntryListeners();
    if (window.matchMedia) {
      window.matchMedia('(pointer: coarse)').addEventListener('change', function (e) {
        Module['_llm_memory_set_touch_layout'](e.matches ? 1 : 0);
      });
    }
    // Paste: the DOM event fires before ImGui's next frame reads the clipboard for Ctrl+V.
    doc.addEventListener('paste', function (e) {
      if (doc.activeElement !== canvas || !e.clipboardData) return;
      var text = e.clipboardData.getData('text/plain');
      call('llm_memory_set_clipboard', null, ['string'], [text]);
      wake();
    });
    // Embeds take the wheel only after a click inside, and give it back when focus leaves.
    if (isEmbed()) {
      canvas.addEventListener('mousedown', function () { engageEmbed(true); });
      var release = function (e) { if (!e || e.relatedTarget !== byId('text-entry')) engageEmbed(false); };
      window.addEventListener('blur', release);
      canvas.addEventListener('blur', release);
    }
    // Release held keys when the canvas loses focus (its keyups are no longer let through).
    canvas.addEventListener('blur', function (e) { GLFW.onBlur(e); });
  }

  // Model files: dropped anywhere on the page, or picked with the Model panel's button.
  function fileListeners() {
    // A file dropped anywhere on the page goes to the model picker (web/model_exports.cpp): a model file
    // is read header only, anything else as a config.json.
    doc.addEventListener('dragover', function (e) { e.preventDefault(); });
    doc.addEventListener('drop', function (e) {
      e.preventDefault();  // never let the browser navigate to the dropped file
      openFiles(e.dataTransfer && e.dataTransfer.files);
    });
    // The Model panel's "Open a model file..." button opens this picker (Module.llmMemoryOpenFilePicker).
    var picker = byId('model-file');
    picker.addEventListener('change', function () {
      openFiles(picker.files);
      picker.value = '';  // the same file picked again is read again
    });
  }

  // When to draw: wake-ups while the main loop is paused, none while hidden, and a lost WebGL context.
  function drawingListeners() {
    // A lost WebGL context (GPU reset, too many contexts on the page) cannot be rebuilt by this GLFW.
    canvas.addEventListener('webglcontextlost', function (e) {
      e.preventDefault();
      notice('The graphics context was lost. Reload the page to continue; your scenario is in the link.');
    });
    // Wake-ups while the main loop is paused (GLFW's mouse and key callbacks wake it from C++).
    ['resize', 'focus'].forEach(function (type) { window.addEventListener(type, wake); });
    canvas.addEventListener('focus', wake);
    if (window.ResizeObserver) {
      // device-pixel-content-box also reports DPR changes (zoom); older browsers only know the CSS box.
      var observer = new ResizeObserver(wake);
      try { observer.observe(canvas, { 'box': 'device-pixel-content-box' }); } catch (e) { observer.observe(canvas); }
    }
    var watchDpr = function () {
      if (!window.matchMedia) return;
      var query = window.matchMedia('(resolution: ' + window.devicePixelRatio + 'dppx)');
      var onChange = function () { query.removeEventListener('change', onChange); wake(); watchDpr(); };
      query.addEventListener('change', onChange);
    };
    watchDpr();
    // No drawing while the tab is hidden or the canvas is scrolled out of view.
    var intersecting = true;
    var updateVisible = function () {
      Module['_llm_memory_set_visible'](!doc.hidden && intersecting ? 1 : 0);
    };
    doc.addEventListener('visibilitychange', updateVisible);
    if (window.IntersectionObserver) {
      new IntersectionObserver(function (entries) {
        intersecting = entries[entries.length - 1].isIntersecting;
        if (!intersecting && isEmbed()) engageEmbed(false);  // scrolled away: swipes are the host page's again
        updateVisible();
      }).observe(canvas);
    }
  }

  function installListeners(webgl) {
    buttonListeners();
    addressAndStorageListeners();
    if (!webgl) return;
    canvasInputListeners();
    fileListeners();
    drawingListeners();
  }
})();
