// prerel playground: the page's side. Every answer comes from prerel
// itself, compiled to WebAssembly (prerel.wasm, package web/wasm), which
// runs in a worker (worker.js) so that typing never waits for it; the page
// asks it with call(method, argument). Every text from input, from the
// link or from a registry is put into the page with textContent, never as
// markup, and printable (control and format characters escaped, as prerel
// prints them); the timeline SVG, which prerel writes with every input
// escaped, is parsed as an XML document of its own and imported. Served by
// prerel serve, the page carries the API token of the run in a meta
// element and sends it with every request of the API.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const SVG_NS = 'http://www.w3.org/2000/svg';

  // A state longer than this, as URL parameters, is compressed.
  const PLAIN_MAX = 4000;
  // A link whose state is longer than this (decompressed) is refused.
  const STATE_MAX = 1 << 20;

  // The view of a page opened without a state in its link.
  const DEFAULT_STATE = {
    constraint: '~> 1.1',
    versions: ['0.9.0', '1.0.0', '1.1.0-beta.1', '1.1.0', '1.2.0-rc.1', '1.2.0', '2.0.0-alpha', '2.0.0'].join('\n'),
    history: '',
    policies: null,
    hcl: '',
    explain: null,
    all: false,
  };

  // The page's state: what the link holds. policies is null for every
  // policy, else the names chosen; explain is the cell explained, or null;
  // all is whether every version is shown in the order given, rather
  // than grouped by the pattern of their verdicts.
  const state = {constraint: '', versions: '', history: '', policies: null, hcl: '', explain: null, all: false};

  // A table of more versions than this groups them by the pattern of
  // their verdicts (the answer's groups), unless every version is asked
  // for; the groups show the rows of their versions while they fit in
  // this many rows, and a larger group shows one row, its first and last
  // version, until it is opened.
  const MAX_ROWS = 20;
  // A grouped table shows at most this many groups and says what it
  // leaves out.
  const MAX_GROUPS = 12;
  // opened holds the groups opened or folded by hand, by groupKey.
  const opened = new Map();

  let worker = null;
  let nextID = 0;
  const pending = new Map();
  let info = null;
  let answer = null;
  let renderTimer = 0;
  let rendering = false; // an evaluation is under way
  let stale = false; // the state changed while it was
  let explainSeq = 0;
  let explaining = false;
  let urlSeq = 0;
  let linking = false; // the link is being written
  let policyNames = '';
  // listed is what the Policies list offers for the HCL text hcl: every
  // policy that can be chosen (the answer's available policies) and the
  // problems of the text, as the last answer for that text gave them.
  let listed = {hcl: null, available: [], hclErrors: []};
  let stopped = ''; // the HCL policy that ran too long, if the last evaluation was stopped
  let scrollToExplain = false; // the explanation was asked for by a click

  // printable: begin
  // printable returns s as prerel's CLI prints text from outside (package
  // internal/printable): every control character (C0, DEL, C1), Unicode
  // format character (Cf: bidirectional overrides and isolates, zero-width
  // characters) and line or paragraph separator is written as Go escapes
  // it in a quoted string ("\u202e", "\x1b", "\n"), and so is a lone
  // surrogate, which is not text; keep lists the characters left as they
  // are (the line breaks of a message or of the versions box).
  function printable(s, keep) {
    return String(s).replace(/[\p{Cc}\p{Cf}\u2028\u2029]|[\ud800-\udfff]/gu, (c) => {
      if (keep && keep.includes(c)) return c;
      const short = {'\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v'}[c];
      if (short) return short;
      const n = c.codePointAt(0);
      const hex = n.toString(16);
      if (n < 0x20 || n === 0x7f) return '\\x' + hex.padStart(2, '0');
      if (n < 0x10000) return '\\u' + hex.padStart(4, '0');
      return '\\U' + hex.padStart(8, '0');
    });
  }
  // printable: end

  // shown is text from input or from prerel as the page shows it:
  // printable, its line breaks kept.
  function shown(s) {
    return printable(s, '\n');
  }

  // setText sets an element's text, as shown.
  function setText(e, s) {
    e.textContent = shown(s);
  }

  // el makes an element; children are elements or strings, added as
  // text. Every text and title is shown printable.
  function el(tag, props, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = shown(v);
      else if (k === 'title') e.title = shown(v);
      else if (k === 'data') Object.assign(e.dataset, v);
      else e[k] = v;
    }
    e.append(...children.map((c) => (typeof c === 'string' ? shown(c) : c)));
    return e;
  }

  // fieldText is text put into an input or the versions box: printable,
  // its line breaks and tabs kept (the versions are read line by line,
  // trimmed of spaces).
  function fieldText(s) {
    return printable(s, '\n\t');
  }

  // The API token of prerel serve, which it puts into the page it
  // serves; "" on a static host.
  const apiToken = (document.querySelector('meta[name="prerel-api-token"]') || {content: ''}).content;

  // api asks prerel serve's API, with the page's token.
  function api(path) {
    return fetch(path, {cache: 'no-store', headers: {'X-Prerel-Token': apiToken}});
  }

  // CALL_TIMEOUT_MS bounds an evaluation or an explanation, from when
  // the worker starts on it (not counting the start of prerel in a new
  // worker, which on a slow machine takes seconds): past it, the worker
  // is stopped and started again, and the call fails naming what the
  // worker last said it was working on (an HCL policy, or reading the
  // HCL text). It is 15 s unless the server that serves the page
  // sets another in a meta element (web.Options.CallTimeout, for tests).
  const CALL_TIMEOUT_MS = (() => {
    const ms = Number((document.querySelector('meta[name="prerel-call-timeout-ms"]') || {content: ''}).content);
    return ms > 0 ? ms : 15000;
  })();
  let progress = ''; // what the worker last said it works on

  // call asks prerel, in the worker, and resolves to its result.
  function call(method, arg) {
    return new Promise((resolve, reject) => {
      const id = ++nextID;
      let timer = 0;
      pending.set(id, {
        started: () => {
          progress = '';
          if (method === 'evaluate' || method === 'explain') {
            timer = setTimeout(() => timedOut(id), CALL_TIMEOUT_MS);
          }
        },
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      worker.postMessage({id, method, arg: JSON.stringify(arg === undefined ? {} : arg)});
    }).then((text) => {
      const out = JSON.parse(text);
      if (out.error) throw new Error(out.error);
      return out.result;
    });
  }

  // timedOut stops a worker that has not answered call id in time, fails
  // every call waiting for it, saying which policy ran too long, and
  // starts a new worker.
  function timedOut(id) {
    if (!pending.has(id)) return;
    worker.terminate();
    const secs = CALL_TIMEOUT_MS / 1000;
    let msg = `prerel did not answer within ${secs} s and was stopped.`;
    if (progress === '(loading the HCL text)') {
      msg = `Reading the HCL policies took longer than ${secs} s: prerel was stopped. Simplify the policy text.`;
    } else if (progress !== '') {
      msg = `The HCL policy "${progress}" ran longer than ${secs} s: prerel was stopped. Simplify that policy, or leave it out under Policies.`;
    }
    const err = new Error(msg);
    err.loading = progress === '(loading the HCL text)';
    err.policy = err.loading ? '' : progress;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    startWorker();
  }

  function startWorker() {
    worker = new Worker('worker.js');
    worker.onmessage = (e) => {
      if (e.data && e.data.progress !== undefined) {
        progress = String(e.data.progress);
        return;
      }
      if (e.data && e.data.started !== undefined) {
        const p = pending.get(e.data.started);
        if (p) p.started();
        return;
      }
      const {id, out, error} = e.data;
      const p = pending.get(id);
      if (!p) return;
      pending.delete(id);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(out);
    };
    worker.onerror = (e) => {
      const err = new Error(e.message || 'the worker failed');
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
  }

  function setBusy(busy) {
    document.body.dataset.state = busy ? 'busy' : 'idle';
  }

  function settle() {
    if (renderTimer === 0 && !rendering && !explaining && !linking) setBusy(false);
  }

  async function start() {
    setBusy(true);
    try {
      startWorker();
      info = await call('info');
    } catch (e) {
      let msg = 'prerel could not start: ' + e.message;
      if (location.protocol === 'file:') {
        msg += '\nBrowsers do not run WebAssembly workers from a file:// page: run "prerel serve", or serve this directory with any web server.';
      }
      setText($('status'), msg);
      $('status').classList.add('failed');
      document.body.dataset.state = 'failed';
      return;
    }
    fillHistories();
    const lookups = await hasLookups();
    $('lookup').hidden = !lookups;
    $('source-note').textContent = lookups
      ? 'Served by prerel serve: "Get versions" asks the module\'s or provider\'s registry, with prerel resolve\'s registry client and flags.'
      : 'Served as static files: the versions are those you type or a history of prerel\'s corpus. Run "prerel serve" to look a module\'s or provider\'s versions up in its registry.';
    bind();
    $('app').hidden = false;
    await restore(location.hash);
    const ms = Math.round(performance.now());
    window.prerelPlaygroundLoadMS = ms;
    $('status').textContent = `prerel loaded in ${ms} ms, with ${info.policies.length} policies.`;
    document.body.dataset.ready = 'true';
  }

  // hasLookups reports whether prerel serve answers /api/versions here.
  async function hasLookups() {
    if (location.protocol !== 'http:' && location.protocol !== 'https:' || apiToken === '') return false;
    try {
      const r = await api('api/status');
      if (!r.ok) return false;
      const j = await r.json();
      return j !== null && j.versions === true;
    } catch (e) {
      return false;
    }
  }

  function fillHistories() {
    const sel = $('history');
    for (const h of info.histories) {
      sel.append(el('option', {value: h.name, text: `${h.name} (${h.kind}, ${h.count} versions)`}));
    }
  }

  function bind() {
    $('constraint').addEventListener('input', () => {
      state.constraint = cleanField($('constraint'));
      schedule(120);
    });
    $('versions').addEventListener('input', () => {
      state.versions = cleanField($('versions'));
      state.history = '';
      $('history').value = '';
      schedule(150);
    });
    $('history').addEventListener('change', async () => {
      const name = $('history').value;
      state.history = name;
      if (name !== '') {
        setBusy(true);
        try {
          const h = await call('history', {name});
          if (state.history !== name) return; // another was picked meanwhile
          state.versions = h.versions.join('\n');
        } catch (e) {
          state.history = '';
          $('history').value = '';
          showNote(e.message);
        }
        $('versions').value = state.versions;
      }
      renderNow();
    });
    $('hcl').addEventListener('input', () => {
      state.hcl = $('hcl').value;
      schedule(300);
    });
    $('policies').addEventListener('change', () => {
      const boxes = Array.from($('policies').querySelectorAll('input[type=checkbox]'));
      const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
      state.policies = chosen.length === boxes.length ? null : chosen;
      renderNow();
    });
    $('all-policies').addEventListener('click', () => {
      state.policies = null;
      renderNow();
    });
    $('no-policies').addEventListener('click', () => {
      state.policies = [];
      renderNow();
    });
    $('verdicts').addEventListener('click', (e) => {
      const td = e.target.closest('td.verdict');
      if (td) explainCell(td);
    });
    $('verdicts').addEventListener('keydown', (e) => {
      const td = e.target.closest('td.verdict');
      if (td && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        explainCell(td);
      }
    });
    $('all-rows').addEventListener('change', () => {
      state.all = $('all-rows').checked;
      renderNow();
    });
    $('lookup').addEventListener('submit', lookup);
    $('copy-link').addEventListener('click', copyLink);
    window.addEventListener('hashchange', () => {
      if ('#' + currentFragment !== location.hash) restore(location.hash);
    });
  }

  // cleanField returns the value of an input or the versions box, its
  // control and format characters escaped (see fieldText) in the field
  // too.
  function cleanField(field) {
    const v = fieldText(field.value);
    if (v !== field.value) field.value = v;
    return v;
  }

  function explainCell(td) {
    state.explain = {policy: td.dataset.policy, version: td.dataset.version};
    scrollToExplain = true;
    updateURL();
    renderExplain();
  }

  function schedule(ms) {
    setBusy(true);
    clearTimeout(renderTimer);
    renderTimer = setTimeout(renderNow, ms);
  }

  function request() {
    return {constraint: state.constraint, versions: state.versions, policies: state.policies || [], hcl: state.hcl};
  }

  // restore sets the state from a link's fragment (the default view when
  // it holds none) and renders it.
  async function restore(hash) {
    setBusy(true);
    let s = null;
    let problem = '';
    try {
      s = await decodeState(hash);
    } catch (e) {
      problem = 'The link\'s state cannot be read (' + e.message + '); showing the default view.';
    }
    if (s === null) s = Object.assign({}, DEFAULT_STATE);
    if (s.history !== '') {
      try {
        s.versions = (await call('history', {name: s.history})).versions.join('\n');
      } catch (e) {
        problem = e.message;
        s.history = '';
      }
    }
    s.constraint = fieldText(s.constraint);
    if (s.history === '') s.versions = fieldText(s.versions);
    Object.assign(state, s);
    $('constraint').value = state.constraint;
    $('versions').value = state.versions;
    $('history').value = state.history;
    $('hcl').value = state.hcl;
    $('all-rows').checked = state.all;
    if (state.hcl !== '') $('hcl-box').open = true;
    policyNames = '';
    await renderNow();
    if (problem !== '') showNote(problem);
  }

  // renderNow asks for the answer to the state and draws it. While an
  // answer is under way, a change is kept for when it arrives: the page
  // then asks again, for the latest state, and draws only that.
  async function renderNow() {
    clearTimeout(renderTimer);
    renderTimer = 0;
    setBusy(true);
    if (rendering) {
      stale = true;
      return;
    }
    rendering = true;
    let ans = null;
    let problem = '';
    let halted = '';
    let loadStopped = false;
    if (state.policies !== null && state.policies.length === 0) {
      problem = 'No policy is chosen: choose one or more under Policies.';
    } else {
      try {
        ans = await call('evaluate', request());
      } catch (e) {
        problem = e.message;
        halted = e.policy || '';
        loadStopped = e.loading === true;
      }
    }
    if (ans) {
      listed = {hcl: state.hcl, available: ans.available, hclErrors: ans.hcl_errors || []};
    } else if (!loadStopped) {
      await listPolicies();
    }
    rendering = false;
    if (stale) {
      stale = false;
      renderNow();
      return;
    }
    answer = ans;
    stopped = halted;
    draw(ans, problem);
    updateURL();
    renderExplain();
  }

  // listPolicies makes listed hold the policies of the HCL text of the
  // state, when no answer gave them: an evaluation fails or is stopped,
  // or no policy is chosen, and the Policies list must still offer the
  // policies the text declares, so that one that fails can be left out
  // and another chosen. It asks prerel for an evaluation of no version by
  // one of its own policies, which reads the HCL text and runs none of
  // its policies. When that fails too, the list offers prerel's policies.
  async function listPolicies() {
    if (listed.hcl === state.hcl) return;
    const hcl = state.hcl;
    let next = {hcl, available: info.policies, hclErrors: []};
    if (hcl.trim() !== '') {
      try {
        const ans = await call('evaluate', {constraint: '', versions: '', policies: [info.policies[0].name], hcl});
        next = {hcl, available: ans.available, hclErrors: ans.hcl_errors || []};
      } catch (e) {
        next.hcl = null; // asked again after the next failure
      }
    }
    listed = next;
  }

  function showNote(text) {
    $('notes').append(el('li', {text}));
  }

  function draw(ans, problem) {
    setText($('summary'), ans ? ans.summary : problem);
    $('summary').classList.toggle('error', !ans);
    const cerr = $('constraint-error');
    cerr.hidden = !(ans && ans.constraint_error);
    setText(cerr, ans && ans.constraint_error
      ? `The engine cannot parse this constraint, so prerel check refuses it: ${ans.constraint_error}. Each policy's own verdict is shown below.`
      : '');
    const hclErrors = ans ? ans.hcl_errors || [] : (listed.hcl === state.hcl ? listed.hclErrors : []);
    $('hcl-errors').replaceChildren(...hclErrors.map((t) => el('li', {text: t})));
    const notes = ans && ans.notes ? ans.notes.slice() : [];
    const hidden = state.hcl.split('\n').findIndex((line) => printable(line, '\t') !== line);
    if (hidden >= 0) {
      notes.push(`The HCL policy text holds a control or format character (such as a bidirectional override, which can make the text read otherwise than it runs), first on line ${hidden + 1}: ${printable(state.hcl.split('\n')[hidden], '\t')}`);
    }
    if (ans && ans.unreadable > 0) {
      notes.push(`${ans.unreadable} of the versions cannot be read as versions by prerel's engine: each policy judges them as they are, and says invalid when it cannot read one.`);
    }
    $('notes').replaceChildren(...notes.map((t) => el('li', {text: t})));
    drawPolicies(ans ? ans.available : (listed.hcl === state.hcl ? listed.available : info.policies));
    drawVerdicts(ans);
    drawSelects(ans);
    drawTimeline(ans);
  }

  // drawPolicies lists every policy that can be chosen (available), with
  // a checkbox; the HCL policy stopped for running too long is marked.
  function drawPolicies(available) {
    const names = available.map((p) => p.origin + ':' + p.name).join(',');
    if (names !== policyNames) {
      policyNames = names;
      $('policies').replaceChildren(...available.map((p) => el('label', {class: p.origin},
        el('input', {type: 'checkbox', value: p.name}),
        ' ' + p.name + (p.origin === 'hcl' ? ' (HCL)' : '') + ' ',
        el('span', {class: 'rule', text: p.rule}))));
    }
    let n = 0;
    for (const box of $('policies').querySelectorAll('input[type=checkbox]')) {
      box.checked = state.policies === null || state.policies.includes(box.value);
      if (box.checked) n++;
      const label = box.parentElement;
      const mark = label.querySelector('.stopped');
      if (mark) mark.remove();
      if (stopped !== '' && box.value === stopped && label.classList.contains('hcl')) {
        label.append(el('span', {class: 'stopped', text: ` ran longer than ${CALL_TIMEOUT_MS / 1000} s: uncheck it to leave it out`}));
      }
    }
    $('policies-count').textContent = `${n} of ${available.length} chosen`;
  }

  // columns returns the policies of ans in the order of their columns:
  // by group, in the order prerel gives the groups, each group's policies
  // in the answer's order; each with its index in the answer.
  function columns(ans) {
    const rank = (p) => {
      const i = info.groups.indexOf(p.group);
      return i < 0 ? info.groups.length : i;
    };
    return ans.policies.map((p, i) => ({p, i})).sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i);
  }

  // groupKey names a group of the answer across answers: its verdicts
  // and its first version.
  function groupKey(ans, g) {
    return g.verdicts.join(',') + '|' + ans.check.versions[g.rows[0]].version;
  }

  // versionRow is the table row of one version (or, with label, of a
  // folded group: its verdicts, labelled with its first and last
  // version, "1.3.0, …, 1.48.1"; a click on a verdict explains the
  // first).
  function versionRow(row, cols, disagree, label) {
    const tr = el('tr', {data: {version: row.version, disagree: String(disagree)}},
      el('td', {class: 'mark', text: disagree ? '*' : ''}),
      el('td', {class: 'version', text: label || row.version}));
    if (label) {
      tr.classList.add('range');
      tr.dataset.range = 'true';
    }
    cols.forEach(({p, i}, k) => {
      const r = row.results[i];
      const first = k === 0 || cols[k - 1].p.group !== p.group;
      tr.append(el('td', {
        class: 'verdict v-' + r.verdict + (first ? ' group-start' : '') + (info.today.includes(p.name) && p.origin !== 'hcl' ? ' today' : ''),
        text: GLYPHS[r.verdict] || r.verdict,
        title: `${r.policy} ${r.verdict}s ${row.version}: ${r.reason}` + (label ? ` (and so every version of the group)` : ''),
        tabIndex: 0,
        data: {policy: r.policy, version: row.version, verdict: r.verdict, reason: r.reason},
      }));
    });
    return tr;
  }

  function drawVerdicts(ans) {
    const table = $('verdicts');
    table.replaceChildren();
    delete table.dataset.constraint;
    delete table.dataset.grouped;
    $('rows-note').textContent = '';
    if (!ans) return;
    const cols = columns(ans);
    const groupRow = el('tr', {class: 'groups'},
      el('th', {text: '', title: '* the policies disagree', rowSpan: 2}),
      el('th', {text: 'version', rowSpan: 2, class: 'version'}));
    const head = el('tr');
    cols.forEach(({p}, k) => {
      const first = k === 0 || cols[k - 1].p.group !== p.group;
      if (first) {
        const n = cols.filter((c) => c.p.group === p.group).length;
        groupRow.append(el('th', {class: 'group', colSpan: n, text: p.group, data: {group: p.group}}));
      }
      const today = info.today.includes(p.name) && p.origin !== 'hcl';
      head.append(el('th', {
        class: 'policy ' + p.origin + (first ? ' group-start' : '') + (today ? ' today' : ''),
        text: today ? p.name + ' · today' : p.name,
        title: (today ? 'today\'s rule: ' : '') + p.rule,
        data: {policy: p.name, group: p.group},
      }));
    });
    table.append(el('thead', {}, groupRow, head));
    const rows = ans.check.versions;
    const disagrees = (row) => row.results.some((r) => r.verdict !== row.results[0].verdict);
    const n = rows.filter(disagrees).length;
    const grouped = !state.all && rows.length > MAX_ROWS;
    let shown = 0;
    if (!grouped) {
      const body = el('tbody');
      for (const row of rows) body.append(versionRow(row, cols, disagrees(row)));
      table.append(body);
      shown = rows.length;
    } else {
      shown = drawGroups(ans, cols);
    }
    table.dataset.constraint = ans.constraint;
    table.dataset.versions = String(rows.length);
    table.dataset.rows = String(shown);
    $('all-rows-box').hidden = rows.length <= MAX_ROWS;
    if (grouped) {
      table.dataset.grouped = 'true';
      const gs = ans.groups;
      const left = gs.slice(MAX_GROUPS);
      let note = `${rows.length} versions in ${gs.length === 1 ? 'one group' : gs.length + ' groups'}: each group is the versions every policy judges alike, ` +
        'the groups that hold a prerelease the policies disagree on first, then the others they disagree on, then those they agree on. ' +
        'A group of many versions shows its first and last; "show" lists them.';
      if (left.length > 0) {
        const m = left.reduce((k, g) => k + g.rows.length, 0);
        const d = left.filter((g) => g.kind !== 'agree').length;
        note += ` ${left.length} more ${left.length === 1 ? 'group' : 'groups'} (${m === 1 ? 'one version' : m + ' versions'}; ` +
          (d === 0 ? 'every policy agrees on each' : `the policies disagree on ${d === left.length ? 'each' : d + ' of the groups'}`) +
          ') not shown: "Show every version" lists them.';
      }
      if (opened.size > 1000) opened.clear(); // groups of answers long gone
      $('rows-note').textContent = note;
    } else if (rows.length > MAX_ROWS) {
      $('rows-note').textContent = `Every version, in the order given: the policies disagree on ${n}.`;
    }
  }

  // drawGroups draws the answer's groups into the verdict table, each a
  // body of its own: a heading row saying how many versions the group
  // holds and what sets it apart, then the rows of its versions, or one
  // row for them all while it is folded. A group is open while its rows
  // fit in what is left of MAX_ROWS, or as it was opened or folded by
  // hand. It returns how many rows of versions it drew.
  function drawGroups(ans, cols) {
    const table = $('verdicts');
    const rows = ans.check.versions;
    let room = MAX_ROWS;
    let shown = 0;
    ans.groups.slice(0, MAX_GROUPS).forEach((g, k) => {
      const key = groupKey(ans, g);
      const many = g.rows.length > 1;
      const open = !many || (opened.has(key) ? opened.get(key) : g.rows.length <= room);
      room -= open ? g.rows.length : 1;
      const disagree = g.kind !== 'agree';
      const what = el('td', {class: 'group-says', colSpan: cols.length + 1},
        el('strong', {text: g.size}), ': ', el('span', {class: 'says', text: g.says}));
      if (many) {
        const button = el('button', {type: 'button', class: 'toggle', text: open ? 'fold' : `show all ${g.rows.length}`,
          title: open ? 'show one row for the group' : 'list every version of the group'});
        button.setAttribute('aria-expanded', String(open));
        button.addEventListener('click', () => {
          opened.set(key, !open);
          drawVerdicts(answer);
          markExplained();
        });
        what.append(' ', button);
      }
      const body = el('tbody', {class: 'vgroup ' + g.kind, data: {group: String(k), kind: g.kind, size: String(g.rows.length), open: String(open)}},
        el('tr', {class: 'group-head'}, el('td', {class: 'mark', text: disagree ? '*' : ''}), what));
      if (open) {
        for (const i of g.rows) body.append(versionRow(rows[i], cols, disagree));
        shown += g.rows.length;
      } else {
        const first = rows[g.rows[0]];
        const last = rows[g.rows[g.rows.length - 1]];
        body.append(versionRow(first, cols, disagree, `${first.version}, ${g.rows.length > 2 ? '…, ' : ''}${last.version}`));
      }
      table.append(body);
    });
    return shown;
  }

  // GLYPHS are the verdicts as the table shows them, narrow enough for
  // every policy's column to fit; the legend and each cell's title say
  // them in words.
  const GLYPHS = {allow: '✓', reject: '·', invalid: '?'};

  function drawSelects(ans) {
    const table = $('selects');
    table.replaceChildren();
    if (!ans) return;
    const body = el('tbody');
    const origin = new Map(ans.policies.map((p) => [p.name, p.origin]));
    for (const row of ans.select.policies) {
      const notes = [];
      if (row.error) notes.push('refuses the constraint: ' + row.error);
      if (row.unreadable && row.unreadable.length > 0) {
        notes.push(`cannot read ${row.unreadable.length === 1 ? 'one version' : row.unreadable.length + ' versions'}: ` +
          row.unreadable.slice(0, 3).map((u) => u.version).join(', ') + (row.unreadable.length > 3 ? ', …' : ''));
      }
      body.append(el('tr', {data: {selectPolicy: row.policy, selected: row.selected === null ? '' : row.selected, found: String(row.selected !== null)}},
        el('td', {class: origin.get(row.policy) || '', text: row.policy}),
        el('td', {class: 'selected', text: row.selected === null ? 'none' : row.selected}),
        el('td', {class: 'note', text: notes.join('; ')})));
    }
    table.append(el('thead', {}, el('tr', {}, el('th', {text: 'policy'}), el('th', {text: 'selects'}), el('th', {text: 'note'}))), body);
  }

  // drawTimeline imports the SVG prerel drew, parsed as XML; anything
  // that could run is dropped, though prerel writes none.
  function drawTimeline(ans) {
    const box = $('timeline');
    box.replaceChildren();
    if (!ans || !ans.timeline) return;
    const doc = new DOMParser().parseFromString(ans.timeline, 'image/svg+xml');
    const root = doc.documentElement;
    if (doc.getElementsByTagName('parsererror').length > 0 || root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
      box.append(el('p', {class: 'error', text: 'The timeline cannot be drawn.'}));
      return;
    }
    for (const e of Array.from(root.querySelectorAll('*'))) {
      if (/^(script|foreignObject|iframe|a|use|animate|set)$/i.test(e.localName)) {
        e.remove();
        continue;
      }
      for (const a of Array.from(e.attributes)) {
        if (/^on/i.test(a.name) || /href$/i.test(a.name)) e.removeAttribute(a.name);
      }
    }
    box.append(document.importNode(root, true));
  }

  // markExplained marks the verdicts of the cell explained, if any.
  function markExplained() {
    for (const td of $('verdicts').querySelectorAll('td.verdict')) {
      const x = state.explain;
      td.classList.toggle('current', x !== null && td.dataset.policy === x.policy && td.dataset.version === x.version);
    }
  }

  // renderExplain shows the reasoning of the cell explained, if any.
  async function renderExplain() {
    const seq = ++explainSeq;
    explaining = false; // an explanation under way is out of date
    const box = $('explain');
    for (const td of $('verdicts').querySelectorAll('td.current')) td.classList.remove('current');
    delete box.dataset.policy;
    delete box.dataset.version;
    delete box.dataset.verdict;
    const x = state.explain;
    if (x && answer && !(answer.versions.includes(x.version) && answer.policies.some((p) => p.name === x.policy))) {
      state.explain = null; // the cell is gone
    }
    if (!state.explain || !answer) {
      box.replaceChildren(el('p', {class: 'hint', text: 'Click a verdict above to see how the policy reached it, step by step.'}));
      settle();
      return;
    }
    markExplained();
    explaining = true;
    setBusy(true);
    let rep = null;
    let problem = '';
    try {
      rep = await call('explain', Object.assign(request(), {policy: state.explain.policy, version: state.explain.version}));
    } catch (e) {
      problem = e.message;
    }
    if (seq !== explainSeq) return;
    explaining = false;
    if (rep === null) {
      box.replaceChildren(el('p', {class: 'error', text: problem}));
      settle();
      return;
    }
    const head = el('dl');
    for (const [k, v] of [['policy', rep.policy], ['rule', rep.rule], ['constraint', rep.constraint], ['version', rep.version]]) {
      head.append(el('dt', {text: k}), el('dd', {text: v}));
    }
    const steps = el('dl', {class: 'steps'});
    rep.steps.forEach((s, i) => {
      const same = i > 0 && rep.steps[i - 1].subject === s.subject;
      steps.append(el('dt', {text: same ? '' : s.subject}), el('dd', {text: s.detail}));
    });
    const verdict = el('dl');
    verdict.append(el('dt', {text: 'verdict'}), el('dd', {class: 'verdict v-' + rep.verdict, text: rep.verdict}),
      el('dt', {text: 'reason'}), el('dd', {text: rep.reason}));
    box.replaceChildren(head, steps, verdict);
    box.dataset.policy = rep.policy;
    box.dataset.version = rep.version;
    box.dataset.verdict = rep.verdict;
    if (scrollToExplain) {
      // Asked for by a click: shown where the reader looks.
      scrollToExplain = false;
      $('explain-panel').scrollIntoView({block: 'nearest'});
    }
    settle();
  }


  async function lookup(e) {
    e.preventDefault();
    const addr = $('address').value.trim();
    const out = $('lookup-status');
    if (addr === '') return;
    out.classList.remove('error');
    setText(out, `Looking ${addr} up…`);
    out.dataset.state = 'busy';
    $('lookup-button').disabled = true;
    try {
      const r = await api('api/versions?address=' + encodeURIComponent(addr));
      let j;
      try {
        j = await r.json();
      } catch (err) {
        throw new Error(`HTTP ${r.status}`);
      }
      if (!r.ok || j.error) throw new Error(j.error || `HTTP ${r.status}`);
      const versions = j.versions.map((v) => printable(v));
      const escaped = versions.filter((v, i) => v !== j.versions[i]).length;
      state.versions = versions.join('\n');
      state.history = '';
      $('versions').value = state.versions;
      $('history').value = '';
      setText(out, `${j.versions.length} versions of ${j.kind} ${j.canonical}, from ${j.from}` +
        (escaped > 0 ? `; ${escaped} of them hold control or format characters, put in the box escaped as prerel prints them` : '') +
        (j.warnings.length > 0 ? `; the registry warns: ${j.warnings.join('; ')}` : ''));
      out.dataset.state = 'done';
      renderNow();
    } catch (err) {
      setText(out, 'The lookup failed: ' + err.message);
      out.classList.add('error');
      out.dataset.state = 'failed';
    } finally {
      $('lookup-button').disabled = false;
    }
  }

  async function copyLink() {
    const link = $('link');
    try {
      await navigator.clipboard.writeText(link.value);
      $('copy-link').textContent = 'Copied';
    } catch (e) {
      link.select();
      $('copy-link').textContent = 'Press Ctrl+C';
    }
    setTimeout(() => { $('copy-link').textContent = 'Copy'; }, 2000);
  }

  // The state in the link.

  let currentFragment = '';

  async function updateURL() {
    const seq = ++urlSeq;
    linking = true;
    setBusy(true);
    let frag;
    try {
      frag = await encodeState();
    } catch (e) {
      frag = '';
      showNote('The view cannot be put into a link: ' + e.message);
    }
    if (seq !== urlSeq) return;
    linking = false;
    currentFragment = frag;
    const url = location.href.split('#')[0] + '#' + frag;
    if (url !== location.href) history.replaceState(null, '', url);
    $('link').value = url;
    settle();
  }

  async function encodeState() {
    const p = new URLSearchParams();
    p.set('c', state.constraint);
    if (state.history !== '') p.set('h', state.history);
    else if (state.versions !== '') p.set('v', state.versions);
    if (state.policies !== null) p.set('p', state.policies.join(','));
    if (state.hcl !== '') p.set('x', state.hcl);
    if (state.all) p.set('a', '1');
    if (state.explain) {
      p.set('ep', state.explain.policy);
      p.set('ev', state.explain.version);
    }
    const plain = p.toString();
    if (plain.length <= PLAIN_MAX || typeof CompressionStream !== 'function') return plain;
    return 'z=' + await deflate(plain);
  }

  // decodeState reads a fragment written by encodeState; null when it
  // holds no state.
  async function decodeState(hash) {
    const raw = hash.startsWith('#') ? hash.slice(1) : hash;
    if (raw === '') return null;
    if (raw.length > 3 * STATE_MAX) throw new Error('the link is longer than the playground reads');
    let p = new URLSearchParams(raw);
    if (p.has('z')) {
      p = new URLSearchParams(await inflate(p.get('z')));
    }
    if (!p.has('c') && !p.has('v') && !p.has('h') && !p.has('x')) return null;
    const s = {
      constraint: p.get('c') || '',
      versions: p.get('v') || '',
      history: p.get('h') || '',
      policies: p.has('p') ? (p.get('p') === '' ? [] : p.get('p').split(',')) : null,
      hcl: p.get('x') || '',
      explain: p.has('ep') ? {policy: p.get('ep'), version: p.get('ev') || ''} : null,
      all: p.get('a') === '1',
    };
    return s;
  }

  async function deflate(text) {
    const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    return toBase64URL(new Uint8Array(await new Response(stream).arrayBuffer()));
  }

  async function inflate(b64) {
    if (typeof DecompressionStream !== 'function') throw new Error('this browser cannot decompress the link');
    const reader = new Blob([fromBase64URL(b64)]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    const chunks = [];
    let n = 0;
    for (;;) {
      let r;
      try {
        r = await reader.read();
      } catch (e) {
        throw new Error('the link is damaged');
      }
      if (r.done) break;
      n += r.value.length;
      if (n > STATE_MAX) {
        reader.cancel();
        throw new Error(`the link's state is larger than ${STATE_MAX} bytes`);
      }
      chunks.push(r.value);
    }
    const all = new Uint8Array(n);
    let off = 0;
    for (const c of chunks) {
      all.set(c, off);
      off += c.length;
    }
    return new TextDecoder().decode(all);
  }

  function toBase64URL(bytes) {
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function fromBase64URL(s) {
    let b = s.replace(/-/g, '+').replace(/_/g, '/');
    while (b.length % 4 !== 0) b += '=';
    let bin;
    try {
      bin = atob(b);
    } catch (e) {
      throw new Error('the link is damaged');
    }
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  start();
})();
