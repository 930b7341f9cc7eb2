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

// wasmBuild runs the go command with GOOS=js GOARCH=wasm.
func wasmBuild(args ...string) error {
	cmd := exec.Command("go", args...)
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

// moduleRoot returns the folder of the go.mod the go command uses here.
func moduleRoot() (string, error) {
	mod, err := goEnv("GOMOD")
	if err != nil {
		return "", err
	}
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the p2l-ebiten module; pass -o DIR")
	}
	return filepath.Dir(mod), nil
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
