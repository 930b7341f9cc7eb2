//go:build js

package main

// Opening a model by URL: the page's ?model=URL (index.html passes it as
// -model). A page that hosts the viewer shows its own character this way,
// with no drop: a .p2lrt (its external pages fetched beside it), a Cubism
// model by its NAME.model3.json (every file it names fetched beside it) or
// a zip of either's folder.

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"sync"
	"syscall/js"
	"testing/fstest"
)

// openLocation opens the model at loc, a URL relative to the page, as
// openFile opens a file on the desktop: by its kind (openCandidate), with
// its folder fetched through webFS.
func (g *game) openLocation(loc string) error {
	abs, err := resolveURL(loc, js.Global().Get("location").Get("href").String())
	if err != nil {
		return fmt.Errorf("-model %q: %w", loc, err)
	}
	dir := &webFS{base: abs.ResolveReference(&url.URL{Path: "./"})}
	return g.openCandidate(dir, droppedFiles{}, path.Base(abs.Path), true)
}

// resolveURL resolves loc against the page's URL; only http and https
// URLs are fetched.
func resolveURL(loc, page string) (*url.URL, error) {
	base, err := url.Parse(page)
	if err != nil {
		return nil, err
	}
	ref, err := url.Parse(loc)
	if err != nil {
		return nil, err
	}
	abs := base.ResolveReference(ref)
	if abs.Scheme != "http" && abs.Scheme != "https" {
		return nil, fmt.Errorf("not an http(s) URL")
	}
	if path.Base(abs.Path) == "/" || strings.HasSuffix(abs.Path, "/") {
		return nil, fmt.Errorf("names a folder: name the model's file (a .p2lrt, a NAME.model3.json or a .zip)")
	}
	return abs, nil
}

// webFS is the folder of a model fetched by URL: a file the model names is
// fetched from base joined with its path, whole and within maxPickedBytes.
// fs.Stat and Open of the same file, as p2lrt.ReadFS does them, fetch it
// once: Stat keeps what it fetched for the Open that follows. The
// character reads through it too (a clip's sound, from the game loop), so
// the map is guarded.
type webFS struct {
	base    *url.URL
	mu      sync.Mutex
	fetched map[string][]byte
}

func (w *webFS) Open(name string) (fs.File, error) {
	data, err := w.take(name, "open")
	if err != nil {
		return nil, err
	}
	return fstest.MapFS{name: {Data: data, Mode: 0o444}}.Open(name)
}

func (w *webFS) Stat(name string) (fs.FileInfo, error) {
	w.mu.Lock()
	data, ok := w.fetched[name]
	w.mu.Unlock()
	if !ok {
		var err error
		if data, err = w.fetch(name, "stat"); err != nil {
			return nil, err
		}
		w.mu.Lock()
		if w.fetched == nil {
			w.fetched = map[string][]byte{}
		}
		w.fetched[name] = data
		w.mu.Unlock()
	}
	return fstest.MapFS{name: {Data: data, Mode: 0o444}}.Stat(name)
}

// take returns the file Stat fetched (and forgets it) or fetches it.
func (w *webFS) take(name, op string) ([]byte, error) {
	w.mu.Lock()
	data, ok := w.fetched[name]
	delete(w.fetched, name)
	w.mu.Unlock()
	if ok {
		return data, nil
	}
	return w.fetch(name, op)
}

func (w *webFS) fetch(name, op string) ([]byte, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	// The path as a path: a name with "?", "#" or ":" stays a file name.
	u := w.base.ResolveReference(&url.URL{Path: name})
	data, err := fetchBytes(u.String())
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return data, nil
}

// errNotFound wraps fs.ErrNotExist, so that what reads a missing file
// through webFS says so as it does for a folder.
type errNotFound struct{ status string }

func (e errNotFound) Error() string { return "HTTP " + e.status }
func (e errNotFound) Unwrap() error { return fs.ErrNotExist }

// fetchBytes fetches u whole, refusing an answer other than 2xx and a body
// above maxPickedBytes.
func fetchBytes(u string) ([]byte, error) {
	resp, err := await(js.Global().Call("fetch", u))
	if err != nil {
		// The browser says no more than "Failed to fetch": the host is
		// unreachable, or on another origin and does not allow this page.
		return nil, fmt.Errorf("%v (unreachable, or another host that does not allow this page: CORS)", err)
	}
	if !resp.Get("ok").Bool() {
		status := fmt.Sprintf("%d %s", resp.Get("status").Int(), resp.Get("statusText").String())
		if s := resp.Get("status").Int(); s == 404 || s == 410 {
			return nil, errNotFound{status}
		}
		return nil, errors.New("HTTP " + status)
	}
	if n := resp.Get("headers").Call("get", "Content-Length"); !n.IsNull() {
		var size float64
		if _, err := fmt.Sscan(n.String(), &size); err == nil && size > maxPickedBytes {
			return nil, fmt.Errorf("%.0f bytes, more than the %d the viewer reads", size, maxPickedBytes)
		}
	}
	buf, err := await(resp.Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	n := buf.Get("byteLength").Int()
	if n > maxPickedBytes {
		return nil, fmt.Errorf("%d bytes, more than the %d the viewer reads", n, maxPickedBytes)
	}
	data := make([]byte, n)
	js.CopyBytesToGo(data, js.Global().Get("Uint8Array").New(buf))
	return data, nil
}
