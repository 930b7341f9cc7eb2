package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestHandler checks what the local server sends: the .wasm MIME type
// (instantiateStreaming refuses others), the precompressed file to a
// browser that accepts gzip and the plain one otherwise, no caching, and
// nothing outside the folder.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	wasm := []byte("\x00asm\x01\x00\x00\x00 not really a module")
	if err := os.WriteFile(filepath.Join(dir, "viewer.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gzipFile(filepath.Join(dir, "viewer.wasm")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), indexHTML, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler(http.Dir(dir)))
	defer srv.Close()
	get := func(path, encoding string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		// A Transport that neither asks for nor undoes compression itself.
		res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, body
	}

	res, body := get("/viewer.wasm", "")
	if ct := res.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("viewer.wasm Content-Type %q", ct)
	}
	if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, wasm) {
		t.Errorf("without Accept-Encoding: encoding %q, %d bytes", res.Header.Get("Content-Encoding"), len(body))
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q", cc)
	}

	res, body = get("/viewer.wasm", "br, gzip;q=0.8")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("with gzip accepted: encoding %q, type %q", res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, wasm) {
		t.Errorf("the gzip body does not decompress to viewer.wasm (%v)", err)
	}

	if res, _ = get("/viewer.wasm", "gzip;q=0"); res.Header.Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}
	res, body = get("/", "")
	if res.StatusCode != 200 || !bytes.Equal(body, indexHTML) {
		t.Errorf("/: status %d, %d bytes", res.StatusCode, len(body))
	}
	if res, _ = get("/../serve.go", ""); res.StatusCode == 200 {
		t.Error("served a file outside the folder")
	}
}
