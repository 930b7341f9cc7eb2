package main

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed index.html
var indexHTML []byte

// viewerPkg is the package built for the browser.
const viewerPkg = "github.com/psd2live/p2l-ebiten/viewer"

// build writes the browser viewer into dir (see the package comment).
func build(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	wasm := filepath.Join(dir, "viewer.wasm")
	// -s -w drop the symbol table and DWARF: about 2% of the size.
	if err := wasmBuild("build", "-trimpath", "-ldflags=-s -w", "-o", wasm, viewerPkg); err != nil {
		return err
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	support, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("wasm_exec.js of the Go installation: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), support, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), indexHTML, 0o644); err != nil {
		return err
	}
	return gzipFile(wasm)
}

// wasmBuild runs the go command with GOOS=js GOARCH=wasm in the
// p2l-ebiten module (rootDir), so package paths and relative paths name
// that module's packages.
func wasmBuild(args ...string) error {
	root, err := rootDir()
	if err != nil {
		return err
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// goEnv returns one variable of `go env`.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// rootModule is the module this tool builds and serves.
const rootModule = "github.com/psd2live/p2l-ebiten"

// rootDir returns the folder of the p2l-ebiten module. This tool is a
// module of its own, two folders below it (viewer/web), so that the
// browser tooling of its tests stays out of the library's go.mod; the go
// commands that build the viewer run in the library's module.
func rootDir() (string, error) {
	mod, err := goEnv("GOMOD")
	if err != nil {
		return "", err
	}
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the viewer/web module of p2l-ebiten; run from viewer/web or pass -o DIR")
	}
	root := filepath.Join(filepath.Dir(mod), "..", "..")
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.HasPrefix(b, []byte("module "+rootModule+"\n")) {
		return "", fmt.Errorf("%s is not the %s module", root, rootModule)
	}
	return filepath.Abs(root)
}

// gzipFile writes name.gz next to name, at the best compression.
func gzipFile(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(name+".gz", b.Bytes(), 0o644)
}
