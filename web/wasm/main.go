//go:build js && wasm

// Command wasm is prerel's playground compiled to WebAssembly: it
// registers, on the JavaScript global object (the page's worker, see
// package web), the object prerelPlayground, whose call(method, argument)
// answers through package web/playground's Call (JSON in, JSON out), then
// calls prerelPlaygroundReady if it is defined, and keeps running to
// answer. While it answers, it posts {progress} messages that name the
// HCL policy at work (playground.Playground.Progress). When the playground cannot start, it sets prerelPlaygroundError
// instead. It holds no logic of its own.
//
// Build it with web/build.sh, or:
//
//	GOOS=js GOARCH=wasm go build -o prerel.wasm ./web/wasm
package main

import (
	"syscall/js"

	"github.com/prerel/prerel/web/playground"
)

func main() {
	p, err := playground.New()
	if err != nil {
		js.Global().Set("prerelPlaygroundError", err.Error())
		if cb := js.Global().Get("prerelPlaygroundReady"); cb.Type() == js.TypeFunction {
			cb.Invoke()
		}
		return
	}
	// Tell the page what a request is working on, so that the page can
	// say which policy ran too long when it stops the worker.
	last := ""
	p.Progress = func(what string) {
		if what != last {
			last = what
			js.Global().Call("postMessage", map[string]any{"progress": what})
		}
	}
	call := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return `{"error":"call takes two strings: the method and its JSON argument"}`
		}
		last = ""
		return string(p.Call(args[0].String(), []byte(args[1].String())))
	})
	api := js.Global().Get("Object").New()
	api.Set("call", call)
	js.Global().Set("prerelPlayground", api)
	if cb := js.Global().Get("prerelPlaygroundReady"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
