// Command web builds the viewer for browsers and serves it locally.
//
//	cd viewer/web && go run . build [-o DIR]              (make web)
//	cd viewer/web && go run . serve [-o DIR] [-addr A]    (make serve-web)
//
// build writes a folder that any static web server can host: viewer.wasm
// (the viewer built with GOOS=js GOARCH=wasm, the default character
// embedded), viewer.wasm.gz (the same, gzip-compressed, for servers that
// send precompressed files), wasm_exec.js (from the Go installation that
// built it; the two must match) and index.html. DIR defaults to build/web
// under the repository's root. viewer/web is a module of its own (its
// tests drive Chromium through chromedp, which games importing the library
// must not inherit); it builds the viewer in the library's module.
//
// serve builds nothing: it serves DIR on A (default 127.0.0.1:8080) with
// the .wasm MIME type, the precompressed file to browsers that accept gzip,
// and no caching, so a rebuilt viewer shows on reload.
//
// docs/WEB.md says how to deploy the folder.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "web:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 || (args[0] != "build" && args[0] != "serve") {
		return fmt.Errorf("usage: web build [-o DIR] | web serve [-o DIR] [-addr HOST:PORT]")
	}
	fs := flag.NewFlagSet("web "+args[0], flag.ContinueOnError)
	dir := fs.String("o", "", "output folder (default build/web under the module root)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to serve on (serve)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", args[0], fs.Arg(0))
	}
	if *dir == "" {
		root, err := rootDir()
		if err != nil {
			return err
		}
		*dir = root + "/build/web"
	}
	if args[0] == "build" {
		return build(*dir)
	}
	return serve(*dir, *addr)
}
