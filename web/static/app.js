// prerel playground: the page's side. Every answer comes from prerel
// itself, compiled to WebAssembly (prerel.wasm, package web/wasm), which
// runs in a worker (worker.js) so that typing never waits for it; the page
// asks it with call(method, argument). Every text from input, from the
// link or from a registry is put into the page with textContent, never as
// markup; the timeline SVG, which prerel writes with every input escaped,
// is parsed as an XML document of its own and imported.
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
  };

  // The page's state: what the link holds. policies is null for every
  // policy, else the names chosen; explain is the cell explained, or null.
  const state = {constraint: '', versions: '', history: '', policies: null, hcl: '', explain: null};

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

  // el makes an element; children are elements or strings, added as text.
  function el(tag, props, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k === 'data') Object.assign(e.dataset, v);
      else e[k] = v;
    }
    e.append(...children);
    return e;
  }

  // CALL_TIMEOUT_MS bounds an evaluation or an explanation: past it, the
  // worker is stopped and started again, and the call fails naming what
  // the worker last said it was working on (an HCL policy, or reading
  // the HCL text).
  const CALL_TIMEOUT_MS = 15000;
  let progress = ''; // what the worker last said it works on

  // call asks prerel, in the worker, and resolves to its result.
  function call(method, arg) {
    return new Promise((resolve, reject) => {
      const id = ++nextID;
      let timer = 0;
      if (method === 'evaluate' || method === 'explain') {
        timer = setTimeout(() => timedOut(id), CALL_TIMEOUT_MS);
      }
      pending.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      progress = '';
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
      $('status').textContent = msg;
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
    if (location.protocol !== 'http:' && location.protocol !== 'https:') return false;
    try {
      const r = await fetch('api/status', {cache: 'no-store'});
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
      state.constraint = $('constraint').value;
      schedule(120);
    });
    $('versions').addEventListener('input', () => {
      state.versions = $('versions').value;
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
    $('lookup').addEventListener('submit', lookup);
    $('copy-link').addEventListener('click', copyLink);
    window.addEventListener('hashchange', () => {
      if ('#' + currentFragment !== location.hash) restore(location.hash);
    });
  }

  function explainCell(td) {
    state.explain = {policy: td.dataset.policy, version: td.dataset.version};
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
    Object.assign(state, s);
    $('constraint').value = state.constraint;
    $('versions').value = state.versions;
    $('history').value = state.history;
    $('hcl').value = state.hcl;
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
    if (state.policies !== null && state.policies.length === 0) {
      problem = 'No policy is chosen: choose one or more under Policies.';
    } else {
      try {
        ans = await call('evaluate', request());
      } catch (e) {
        problem = e.message;
      }
    }
    rendering = false;
    if (stale) {
      stale = false;
      renderNow();
      return;
    }
    answer = ans;
    draw(ans, problem);
    updateURL();
    renderExplain();
  }

  function showNote(text) {
    $('notes').append(el('li', {text}));
  }

  function draw(ans, problem) {
    $('summary').textContent = ans ? ans.summary : problem;
    $('summary').classList.toggle('error', !ans);
    const cerr = $('constraint-error');
    cerr.hidden = !(ans && ans.constraint_error);
    cerr.textContent = ans && ans.constraint_error
      ? `The engine cannot parse this constraint, so prerel check refuses it: ${ans.constraint_error}. Each policy's own verdict is shown below.`
      : '';
    $('hcl-errors').replaceChildren(...(ans && ans.hcl_errors ? ans.hcl_errors : []).map((t) => el('li', {text: t})));
    const notes = ans && ans.notes ? ans.notes.slice() : [];
    if (ans && ans.unreadable > 0) {
      notes.push(`${ans.unreadable} of the versions cannot be read as versions by prerel's engine: each policy judges them as they are, and says invalid when it cannot read one.`);
    }
    $('notes').replaceChildren(...notes.map((t) => el('li', {text: t})));
    drawPolicies(ans);
    drawVerdicts(ans);
    drawSelects(ans);
    drawTimeline(ans);
  }

  // drawPolicies lists every policy that can be chosen, with a checkbox.
  function drawPolicies(ans) {
    const available = ans ? ans.available : (info ? info.policies : []);
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
    }
    $('policies-count').textContent = `${n} of ${available.length} chosen`;
  }

  function drawVerdicts(ans) {
    const table = $('verdicts');
    table.replaceChildren();
    delete table.dataset.constraint;
    if (!ans) return;
    const head = el('tr', {}, el('th', {text: '', title: '* the policies disagree'}), el('th', {text: 'version'}));
    ans.policies.forEach((p) => {
      head.append(el('th', {class: 'policy ' + p.origin, text: p.name, title: p.rule, data: {policy: p.name}}));
    });
    const body = el('tbody');
    for (const row of ans.check.versions) {
      const disagree = row.results.some((r) => r.verdict !== row.results[0].verdict);
      const tr = el('tr', {data: {version: row.version}},
        el('td', {class: 'mark', text: disagree ? '*' : ''}),
        el('td', {class: 'version', text: row.version}));
      row.results.forEach((r) => {
        tr.append(el('td', {
          class: 'verdict v-' + r.verdict,
          text: r.verdict,
          title: `${r.policy} ${r.verdict}s ${row.version}: ${r.reason}`,
          tabIndex: 0,
          data: {policy: r.policy, version: row.version, verdict: r.verdict, reason: r.reason},
        }));
      });
      body.append(tr);
    }
    table.append(el('thead', {}, head), body);
    table.dataset.constraint = ans.constraint;
    table.dataset.versions = String(ans.check.versions.length);
  }

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
    for (const td of $('verdicts').querySelectorAll('td.verdict')) {
      if (td.dataset.policy === state.explain.policy && td.dataset.version === state.explain.version) td.classList.add('current');
    }
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
    settle();
  }


  async function lookup(e) {
    e.preventDefault();
    const addr = $('address').value.trim();
    const out = $('lookup-status');
    if (addr === '') return;
    out.classList.remove('error');
    out.textContent = `Looking ${addr} up…`;
    out.dataset.state = 'busy';
    $('lookup-button').disabled = true;
    try {
      const r = await fetch('api/versions?address=' + encodeURIComponent(addr), {cache: 'no-store'});
      let j;
      try {
        j = await r.json();
      } catch (err) {
        throw new Error(`HTTP ${r.status}`);
      }
      if (!r.ok || j.error) throw new Error(j.error || `HTTP ${r.status}`);
      state.versions = j.versions.join('\n');
      state.history = '';
      $('versions').value = state.versions;
      $('history').value = '';
      out.textContent = `${j.versions.length} versions of ${j.kind} ${j.canonical}, from ${j.from}` +
        (j.warnings.length > 0 ? `; the registry warns: ${j.warnings.join('; ')}` : '');
      out.dataset.state = 'done';
      renderNow();
    } catch (err) {
      out.textContent = 'The lookup failed: ' + err.message;
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
