package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// serve serves dir on addr until the process ends.
func serve(dir, addr string) error {
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return fmt.Errorf("%s has no index.html (run make web first): %w", dir, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("serving %s on http://%s/\n", dir, ln.Addr())
	return http.Serve(ln, handler(http.Dir(dir)))
}

// handler serves the files of root, as a static host should serve the
// viewer: .wasm as application/wasm (Go's built-in type table has it, so
// it does not depend on the system's mime.types), X.wasm.gz in place of
// X.wasm when the browser accepts gzip, and Cache-Control: no-cache, so
// that the browser revalidates a rebuilt viewer.
func handler(root http.FileSystem) http.Handler {
	files := http.FileServer(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		if p := path.Clean("/" + r.URL.Path); strings.HasSuffix(p, ".wasm") {
			w.Header().Add("Vary", "Accept-Encoding")
			if acceptsGzip(r) && serveGzipped(w, r, root, p) {
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// serveGzipped serves p.gz with Content-Encoding: gzip, if it exists.
func serveGzipped(w http.ResponseWriter, r *http.Request, root http.FileSystem, p string) bool {
	f, err := root.Open(p + ".gz")
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		return false
	}
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Set("Content-Encoding", "gzip")
	http.ServeContent(w, r, p, st.ModTime(), f)
	return true
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}
