// The text view's engine sections, in the full build only (a --post-js after api.js and hub.js, sharing the
// module's scope; closure-safe: quoted names): the engine's per-device report after the results, the command
// that realises the settings, a command box (its memory flags set the settings) and a log box (reconciled in
// the page, sent nowhere). api.js calls these when it builds and refreshes the view.
(function () {
  var doc = document;
  function byId(id) { return doc.getElementById(id); }
  function fill(parent, items) {
    parent.textContent = '';
    items.forEach(function (text) { var p = doc.createElement('p'); p.textContent = text; parent.appendChild(p); });
  }
  // Once, when the view is built: the sections, and the two buttons through the JS API (`api`), then `refresh`.
  Module['llmMemoryViewBuild'] = function (api, refresh) {
    var engine = doc.createElement('div');
    engine.id = 'tv-engine-section';
    engine.hidden = true;
    engine.innerHTML = '<h3>The engine, per device</h3><div id="tv-engine"></div>';
    byId('tv-results').nextElementSibling.after(engine);  // after the units line under the results
    var io = doc.createElement('div');
    io.id = 'tv-engine-io';
    io.innerHTML = '<h3>Engine command and log</h3><p id="tv-engine-command"></p>' +
      '<p><label for="tv-command">Paste a llama-server, llama-cli, vllm serve or ollama run command: its memory flags set the settings</label><br>' +
      '<textarea id="tv-command" rows="3" spellcheck="false" autocomplete="off"></textarea><br>' +
      '<button id="tv-command-use" type="button">Use this command</button></p><p id="tv-command-out" role="status"></p>' +
      '<p><label for="tv-log">Paste an engine\'s load log (llama.cpp, Ollama, vLLM or nvidia-smi) to compare it with these settings\' figures; it is read in this page and sent nowhere</label><br>' +
      '<textarea id="tv-log" rows="6" spellcheck="false" autocomplete="off"></textarea><br>' +
      '<button id="tv-reconcile" type="button">Reconcile</button></p>' +
      '<div id="tv-reconcile-out" role="status"></div>';
    byId('tv-steps').after(io);
    byId('tv-command-use').addEventListener('click', function () {
      var r = api['fromCommand'](byId('tv-command').value);
      byId('tv-command-out').textContent = r['message'] + (r['notes'].length ? ' ' + r['notes'].join('; ') + '.' : '');
      byId('tv-command-out').className = r['ok'] ? '' : 'tv-err';
      refresh();
    });
    byId('tv-reconcile').addEventListener('click', function () { showReconciled(api['reconcile'](byId('tv-log').value)); });
  };
  function el(tag, text, attrs) {
    var e = doc.createElement(tag);
    if (text) e.textContent = text;
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  // A reconciliation as the canvas shows it: what the log is, the scenario it states, a table of the terms (a
  // gap over its tolerance marked (1), (2), ...), each such gap's likely cause under it, the log's notes, and
  // the CLI's text to copy. The table wraps to a phone's width (the text's columns do not).
  function showReconciled(r) {
    var out = byId('tv-reconcile-out');
    out.textContent = '';
    if (r['error']) { out.appendChild(el('p', r['error'], { 'class': 'tv-err' })); return; }
    out.appendChild(el('p', 'Reconciled: ' + r['heading']));
    if (r['settings_text']) out.appendChild(el('p', 'Scenario from the log: ' + r['settings_text']));
    var table = el('table', '', { 'id': 'tv-reconcile-rows' });
    var head = el('tr'), body = el('tbody');
    ['Term (device)', 'Measured', 'Ours', 'Gap'].forEach(function (h) { head.appendChild(el('th', h, { 'scope': 'col' })); });
    table.appendChild(el('thead')).appendChild(head);
    table.appendChild(body);
    r['rows'].forEach(function (row) {
      var tr = body.appendChild(el('tr'));
      tr.appendChild(el('th', row['term'] + ' (' + row['device'] + ')', { 'scope': 'row' }));
      tr.appendChild(el('td', row['measured_text']));
      tr.appendChild(el('td', row['estimated'] === null ? '-' : row['estimated_text']));
      var mark = row['cause_number'], gap = row['estimated'] === null ? 'no figure' : row['gap_text'];
      tr.appendChild(el('td', mark ? gap + ' (' + mark + ')' : gap, mark ? { 'class': 'tv-over' } : {}));
    });
    out.appendChild(table);
    r['cause_lines'].concat(r['note_lines'], r['not_applied'].map(function (n) { return 'not applied: ' + n; })).forEach(function (line) {
      out.appendChild(el('p', line));
    });
    var details = el('details');
    details.appendChild(el('summary', 'As text (to copy)'));
    details.appendChild(el('pre', r['text']));
    out.appendChild(details);
  }
  // Each refresh: the engine's report lines (core's text) and the command that realises the settings.
  Module['llmMemoryViewRefresh'] = function (data) {
    var lines = data['report']['engine'] || [];
    byId('tv-engine-section').hidden = lines.length === 0;
    fill(byId('tv-engine'), lines);
    byId('tv-engine-command').textContent = data['engine_command'] ?
      'The command that realises these settings: ' + data['engine_command'] :
      'Choose an engine (or paste its command below) to see the command that realises these settings.';
  };
  // paste=command|log from the link: the box to type into.
  Module['llmMemoryViewPaste'] = function (what) {
    var box = byId(what === 'log' ? 'tv-log' : 'tv-command');
    if (box) box.focus();
  };
})();
