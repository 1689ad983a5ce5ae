// prerel playground: the worker that runs prerel, compiled to WebAssembly,
// off the page's thread, so that typing never waits for an answer. It
// answers each message {id, method, arg} with {id, out}: out is the JSON
// prerel's playground.Call returns, or {id, error} when prerel could not
// start. It posts {started: id} when it starts on a message, once
// prerel has started, so that the page times the answer and not the
// start. While it works on an answer, prerel posts {progress}: the HCL
// policy at work, so that the page can say which one ran too long when
// it stops the worker.
'use strict';

importScripts('wasm_exec.js');

const ready = (async () => {
  const go = new Go();
  const started = new Promise((resolve) => { self.prerelPlaygroundReady = resolve; });
  let instance;
  try {
    instance = (await WebAssembly.instantiateStreaming(fetch('prerel.wasm'), go.importObject)).instance;
  } catch (streamError) {
    // A host that does not send application/wasm: read it whole.
    const r = await fetch('prerel.wasm');
    if (!r.ok) throw new Error(`prerel.wasm: HTTP ${r.status}`);
    instance = (await WebAssembly.instantiate(await r.arrayBuffer(), go.importObject)).instance;
  }
  go.run(instance);
  await started;
  if (self.prerelPlaygroundError) throw new Error(self.prerelPlaygroundError);
  return self.prerelPlayground;
})();

self.onmessage = async (e) => {
  const {id, method, arg} = e.data;
  let api;
  try {
    api = await ready;
  } catch (err) {
    self.postMessage({id, error: err.message});
    return;
  }
  self.postMessage({started: id});
  self.postMessage({id, out: api.call(String(method), String(arg))});
};
