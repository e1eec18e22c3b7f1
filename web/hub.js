// Hugging Face look-ups on the page (a second --post-js after api.js, sharing the module's scope; closure
// safe: quoted names). Core plans each request (web/hub_exports.cpp); this file makes it with fetch():
// no cookies, no referrer, Range when asked, redirects followed to the Hub's storage host (the page's CSP
// connect-src names exactly those hosts), a timeout, and the body cut at what the request may read.
// The consent (localStorage 'llm-memory:hf-consent') is asked for by the app's prompt, never assumed.
// This session's answers stay in memory (at most 16 MiB), so a look-up made again sends nothing.
(function () {
  var CONSENT_KEY = 'llm-memory:hf-consent';
  var TIMEOUT_MS = 20000;            // per request; window.llmMemoryHubTimeoutMs overrides it (tests)
  var MEMORY_BYTES = 16 << 20;       // the session's answers kept in memory
  var memory = [];                   // [{key, status, bytes}], oldest first
  var memoryBytes = 0;
  var running = false;

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
  Module['llmMemoryHubStart'] = function (text) { if (!running) lookUp(text); };
  Module['llmMemoryHubBusy'] = function () { return running; };
  Module['llmMemoryHubConsent'] = function (yes) { consentSet(!!yes); };
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
})();
