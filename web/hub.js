// Hugging Face look-ups on the page (a second --post-js after api.js, sharing the module's scope; closure
// safe: quoted names). Core plans each request (web/hub_exports.cpp); this file makes it with fetch():
// no cookies, no referrer, Range when asked, redirects followed to the Hub's storage host (the page's CSP
// connect-src names exactly those hosts), a timeout, and the body cut at what the request may read.
// The consent (localStorage 'llm-memory:hf-consent') is asked for by the app's prompt or the text view's,
// never assumed.
// This session's answers stay in memory (at most 16 MiB), so a look-up made again sends nothing.
(function () {
  var CONSENT_KEY = 'llm-memory:hf-consent';
  var TIMEOUT_MS = 20000;            // per request; window.llmMemoryHubTimeoutMs overrides it (tests)
  var MEMORY_BYTES = 16 << 20;       // the session's answers kept in memory
  var memory = [];                   // [{key, status, bytes}], oldest first
  var memoryBytes = 0;
  var running = false;
  var runningRef = '';                // the id being read while running

  function consentGet() {
    try { return window.localStorage.getItem(CONSENT_KEY) === 'yes'; } catch (e) { return false; }
  }
  function consentSet(yes) {
    try {
      if (yes) window.localStorage.setItem(CONSENT_KEY, 'yes');
      else window.localStorage.removeItem(CONSENT_KEY);
    } catch (e) { /* sandboxed: the choice lasts this page only */ }
  }
  function timeoutMs() {
    var t = window['llmMemoryHubTimeoutMs'];
    return typeof t === 'number' && t > 0 ? t : TIMEOUT_MS;
  }
  function hostOf(url) {
    try { return new URL(url).host; } catch (e) { return url; }
  }
  function remember(key, status, bytes) {
    memory.push({ key: key, status: status, bytes: bytes });
    memoryBytes += bytes.length;
    while (memoryBytes > MEMORY_BYTES && memory.length) memoryBytes -= memory.shift().bytes.length;
  }
  function recall(key) {
    for (var i = memory.length - 1; i >= 0; --i) if (memory[i].key === key) return memory[i];
    return null;
  }

  // One request: resolves {status, bytes, error}; never rejects.
  function fetchBounded(req) {
    var key = req['url'] + (req['ranged'] ? '|' + req['begin'] + '+' + req['length'] : '');
    var kept = recall(key);
    if (kept) return Promise.resolve({ status: kept.status, bytes: kept.bytes, error: '' });
    var limit = req['ranged'] ? req['begin'] + req['length'] : req['max'] + 1;
    var controller = new AbortController();
    var timedOut = false;
    var timer = setTimeout(function () { timedOut = true; controller.abort(); }, timeoutMs());
    var headers = {};
    if (req['ranged']) headers['Range'] = 'bytes=' + req['begin'] + '-' + (req['begin'] + req['length'] - 1);
    var host = hostOf(req['url']);
    return fetch(req['url'], {
      'headers': headers, 'credentials': 'omit', 'referrerPolicy': 'no-referrer', 'cache': 'no-store',
      'mode': 'cors', 'redirect': 'follow', 'signal': controller.signal,
    }).then(function (response) {
      var status = response.status;
      if (!response.body) return { status: status, bytes: new Uint8Array(0), error: '' };
      var reader = response.body.getReader();
      var parts = [];
      var total = 0;
      var pump = function () {
        return reader.read().then(function (step) {
          if (step.done) return;
          var room = limit - total;
          if (step.value.length >= room) {
            parts.push(step.value.subarray(0, room));
            total += room;
            return reader.cancel().then(function () {}, function () {});
          }
          parts.push(step.value);
          total += step.value.length;
          return pump();
        });
      };
      return pump().then(function () {
        var bytes = new Uint8Array(total);
        var at = 0;
        parts.forEach(function (p) { bytes.set(p, at); at += p.length; });
        if (status === 200 || status === 206) remember(key, status, bytes);
        return { status: status, bytes: bytes, error: '' };
      });
    }).catch(function (e) {
      if (timedOut) return { status: 0, bytes: new Uint8Array(0), error: 'timed out: ' + host + ' did not answer within ' + Math.round(timeoutMs() / 100) / 10 + ' s' };
      var offline = navigator.onLine === false;
      return { status: 0, bytes: new Uint8Array(0), error: offline
        ? 'no network: the browser is offline'
        : 'no answer from ' + host + ': no network, or the browser refused the answer (CORS, or a host outside the page\'s connect-src)' };
    }).then(function (answer) { clearTimeout(timer); return answer; });
  }

  // Runs the look-up core plans, request after request; resolves with llm_memory_hub_finish's object.
  function lookUp(text) {
    running = true;
    runningRef = text;
    var step = function (req) {
      if (!req) return JSON.parse(ccall('llm_memory_hub_finish', 'string', ['string'], ['']));
      return fetchBounded(req).then(function (a) {
        HEAPU8.set(a.bytes, Module['_llm_memory_hub_buffer'](a.bytes.length));
        return step(JSON.parse(ccall('llm_memory_hub_answer', 'string', ['number', 'number', 'string'], [a.status, a.bytes.length, a.error])));
      });
    };
    var first = JSON.parse(ccall('llm_memory_hub_begin', 'string', ['string'], [text]));
    return step(first).then(function (result) {
      running = false;
      var waiting = pending;
      pending = [];
      waiting.forEach(function (resolve) { resolve(result); });
      return result;
    });
  }
  var pending = [];  // lookUpHub callers waiting for the look-up they asked for

  // Called by the app after the user's yes (web/hub_exports.cpp).
  // One look-up at a time: asked again meanwhile, it sends nothing and says so (the panel's own path
  // refuses first; this is the last guard).
  Module['llmMemoryHubStart'] = function (text) {
    if (running) say(ccall('llm_memory_hub_busy_text', 'string', ['string'], [runningRef]));
    else lookUp(text);
  };
  Module['llmMemoryHubBusy'] = function () { return running; };
  Module['llmMemoryHubConsent'] = function (yes) { consentSet(!!yes); tvConsent(); };
  // Called by api.js once the app runs: the remembered choice, then hf=ID from the link (always asks).
  Module['llmMemoryHubInit'] = function (linkRef) {
    ccall('llm_memory_hub_enable', null, ['number'], [consentGet() ? 1 : 0]);
    if (linkRef) {
      var problem = ccall('llm_memory_hub_ask', 'string', ['string', 'number'], [String(linkRef), 1]);
      return problem;
    }
    return '';
  };
  // The JS API's lookUpHub(id): asks as the field does (the prompt unless a yes is remembered); a Promise
  // of {ok, applied, message, hub} once the look-up ends ({ok: false, message} for a bad id).
  Module['llmMemoryLookUpHub'] = function (id) {
    var problem = ccall('llm_memory_hub_ask', 'string', ['string', 'number'], [String(id), 0]);
    if (problem) return Promise.resolve({ 'ok': false, 'applied': false, 'message': problem, 'hub': null });
    return new Promise(function (resolve) { pending.push(resolve); });
  };
  Module['llmMemoryHubLinkRef'] = function () {
    return ccall('llm_memory_hub_link_ref', 'string', [], []);
  };

  // --- the text view's look-up (site/shell.html's #tv-hub; api.js wires its field and button): its own
  // prompt in the page before the first request, then the canvas field's path (llm_memory_hub_ask and the
  // look-up above). Progress, the result and every problem (core's message) go to a live region. ---
  var HOST = 'huggingface.co';
  var asking = '';  // the id the text view's prompt is about
  function byId(id) { return document.getElementById(id); }
  function say(text, error) {
    var out = byId('tv-hub-out');
    if (!out) return;
    out.textContent = text;
    out.className = error ? 'tv-err' : '';
  }
  function tvConsent() {
    var note = byId('tv-hub-note');
    if (!note) return;
    var yes = consentGet();
    note.textContent = yes ? 'Allowed: Look up sends the model id to ' + HOST + '.'
      : 'Looking up sends the model id to ' + HOST + '; you are asked first. Nothing else is sent.';
    byId('tv-hub-withdraw').hidden = !yes;
  }
  function consent(yes) {
    consentSet(yes);
    ccall('llm_memory_hub_enable', null, ['number'], [yes ? 1 : 0]);  // the canvas's field shows the same
    tvConsent();
  }
  // A repo of several GGUF files: one button per file, each looks that file up.
  function offer(result) {
    var list = byId('tv-hub-files');
    list.textContent = '';
    var files = result['hub'] && !result['applied'] ? result['hub']['gguf_files'] : [];
    files.forEach(function (f) {
      var item = document.createElement('li');
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = f['file'];
      button.addEventListener('click', function () { Module['llmMemoryViewHubGo'](result['hub']['repo'] + ':' + f['file'], false); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }
  function run(id) {
    say('Reading ' + id + ' from ' + HOST + '...');
    byId('tv-hub-files').textContent = '';
    Module['llmMemoryLookUpHub'](id).then(function (result) {
      say(result['message'], !result['ok']);
      offer(result);
    });
  }
  // The field's Look up (api.js), or a link's hf=ID (fromLink: always asks) or lookup=ID while the text view
  // shows: core checks the id, then the prompt unless a yes is remembered.
  Module['llmMemoryViewHubGo'] = function (text, fromLink) {
    var id = String(text).trim();
    byId('tv-hub-ref').value = id;
    // A look-up runs: it goes on untouched and nothing new is sent; the canvas's path says so (its message line too).
    if (running) { say(ccall('llm_memory_hub_ask', 'string', ['string', 'number'], [id, 0])); return; }
    // Core checks the id; the canvas prompt's text comes with a good one (after a newline).
    var checked = ccall('llm_memory_hub_ask', 'string', ['string', 'number'], [id, fromLink ? 3 : 2]);
    if (checked.charAt(0) !== '\n') { say(checked, true); return; }
    if (consentGet() && !fromLink) { run(id); return; }
    asking = id;
    byId('tv-hub-ask-text').textContent = checked.substring(1);
    byId('tv-hub-ask').hidden = false;
    say('');
    byId('tv-hub-allow').focus();
  };
  // Once, when the text view is built (api.js): the prompt's buttons and Withdraw.
  Module['llmMemoryViewHubBuild'] = function () {
    var answer = function (yes) {
      byId('tv-hub-ask').hidden = true;
      byId('tv-hub-ref').focus();
      if (!yes) { say('Nothing was sent.'); return; }
      consent(true);
      run(asking);
    };
    byId('tv-hub-allow').addEventListener('click', function () { answer(true); });
    byId('tv-hub-decline').addEventListener('click', function () { answer(false); });
    byId('tv-hub-withdraw').addEventListener('click', function () {
      consent(false);
      byId('tv-hub-ref').focus();
      say('Consent withdrawn: the next look-up asks first.');
    });
    tvConsent();
  };
})();
