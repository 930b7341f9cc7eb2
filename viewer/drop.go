package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// A drop (ebiten.DroppedFiles on the desktop and in the browser, the files
// chosen together in the page's picker: picker_js.go, or a folder or zip
// named on the command line) is sorted here, in one place, before anything
// is opened:
//
//   - audio files (.wav, .ogg, .oga, .mp3) are voices, unless they sit in
//     the folder of a Cubism bundle's model3.json (its motions' sounds);
//   - texture pages, the files the external page loader reads (PNG or KTX2,
//     known by their signature; also by their extension when unreadable),
//     are not opened by themselves: a model of the drop finds them beside
//     it;
//   - the other files of a Cubism bundle (.moc3, .motion3.json, .exp3.json,
//     .physics3.json, .pose3.json, .cdi3.json, .userdata3.json) are read
//     by the bundle's model3.json, never opened by themselves;
//   - everything else is a model candidate: .p2lrt files first, then
//     .model3.json files, then zips (opened as folders: the first model
//     candidate inside opens), then the rest.
//
// The first candidate that loads is shown; a failure is reported only when
// no candidate of the drop loaded. Voices start after the model changed, so
// that they speak through the character shown.

// droppedFiles is a drop sorted by what each file is.
type droppedFiles struct {
	models []string // model candidates, in the order they are tried
	audio  []string
	pages  []string // texture pages, left for the models to find
	parts  []string // Cubism bundle files, left for a model3.json
	// byBase maps each file name without its folders to its path in the
	// drop, or to "" when several files have that name (bundleFS).
	byBase map[string]string
	// truncated: the drop holds more than maxDropFiles files; the rest
	// were not looked at.
	truncated bool
}

// maxDropFiles bounds the files of one drop that are sorted (each one's
// first bytes are read): a drop of a large folder stops there.
const maxDropFiles = 10000

// audioExts are the audio formats sound.Decode (ebitenp2l/sound) reads.
var audioExts = []string{".wav", ".ogg", ".oga", ".mp3"}

// pageExts are the file extensions of external texture pages.
var pageExts = []string{".png", ".ktx2"}

// bundlePartSuffixes end the names of the files a model3.json refers to,
// besides its texture pages and sounds.
var bundlePartSuffixes = []string{".moc3", ".motion3.json", ".exp3.json", ".physics3.json", ".pose3.json", ".cdi3.json", ".userdata3.json"}

// pageSignatures start the files the external page loader decodes
// (p2l/texture sniffs PNG and KTX2 by these bytes, whatever the name).
var pageSignatures = [][]byte{
	[]byte("\x89PNG\r\n\x1a\n"),
	{0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'},
}

// Model candidates by kind, in the order they are tried.
const (
	candidateP2LRT = iota
	candidateModel3
	candidateZip
	candidateOther
)

// candidateKind is the kind of a model candidate, from its name.
func candidateKind(name string) int {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".p2lrt"):
		return candidateP2LRT
	case strings.HasSuffix(n, ".model3.json"):
		return candidateModel3
	case strings.HasSuffix(n, ".zip"):
		return candidateZip
	}
	return candidateOther
}

// sortDrop sorts the regular files of a drop, in lexical order within each
// kind; model candidates by candidateKind, then by name.
func sortDrop(drop fs.FS) droppedFiles {
	d := droppedFiles{byBase: map[string]string{}}
	n := 0
	_ = fs.WalkDir(drop, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		// What macOS adds to a folder it zips (a __MACOSX folder of
		// "._NAME" resource files) is none of the drop's files.
		if e.IsDir() {
			if e.Name() == "__MACOSX" {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(e.Name(), "._") {
			return nil
		}
		if n++; n > maxDropFiles {
			d.truncated = true
			return fs.SkipAll
		}
		base := path.Base(name)
		if _, dup := d.byBase[base]; dup {
			d.byBase[base] = ""
		} else {
			d.byBase[base] = name
		}
		ext := strings.ToLower(path.Ext(name))
		switch {
		case slices.Contains(audioExts, ext):
			d.audio = append(d.audio, name)
		case isBundlePart(name):
			d.parts = append(d.parts, name)
		case isPage(drop, name, ext):
			d.pages = append(d.pages, name)
		default:
			d.models = append(d.models, name)
		}
		return nil
	})
	slices.SortStableFunc(d.models, func(a, b string) int {
		return candidateKind(a) - candidateKind(b)
	})
	return d
}

// isBundlePart reports whether name is one of the files a model3.json
// refers to (bundlePartSuffixes).
func isBundlePart(name string) bool {
	n := strings.ToLower(name)
	return slices.ContainsFunc(bundlePartSuffixes, func(s string) bool { return strings.HasSuffix(n, s) })
}

// isPage reports whether a dropped file is a texture page: by its first
// bytes, or by its extension when they cannot be read.
func isPage(drop fs.FS, name, ext string) bool {
	head, err := readHead(drop, name, 12)
	if err != nil {
		return slices.Contains(pageExts, ext)
	}
	for _, sig := range pageSignatures {
		if bytes.HasPrefix(head, sig) {
			return true
		}
	}
	return false
}

// readHead reads the first n bytes of a file (fewer if it is shorter).
func readHead(fsys fs.FS, name string, n int) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:k], err
}

// openDropped opens a drop: the first model candidate that loads (with its
// external pages resolved beside it in the drop), then the voices. The
// message on screen says the outcome: none when a model opened (or
// setModel's note on pages it could not decode, or the warnings of a
// Cubism bundle), the reasons when no candidate loaded, the voice that
// speaks.
func (g *game) openDropped(drop fs.FS) {
	d := sortDrop(drop)
	_, err := g.openFirst(drop, d, true)
	switch {
	case len(d.models) > 0 && err != nil:
		g.message = err.Error()
	case len(d.models) == 0 && len(d.audio) == 0 && len(d.parts) > 0:
		g.message = fmt.Sprintf("%s: part of a Cubism bundle; drop it with its .model3.json (or its folder or zip)", strings.Join(d.parts, ", "))
	case len(d.models) == 0 && len(d.audio) == 0 && len(d.pages) > 0:
		g.message = fmt.Sprintf("%s: a texture page; drop it together with its model", strings.Join(d.pages, ", "))
	}
	for _, name := range d.audio {
		if d.inBundle(name) {
			continue // a sound of a bundle: its motions play it
		}
		data, err := p2lrt.ReadFS(drop, name, nil)
		if err != nil {
			g.message = fmt.Sprintf("cannot read %s: %v", name, err)
			continue
		}
		if err := g.speak(name, data); err != nil {
			g.message = err.Error()
			continue
		}
		g.message = "lip sync: " + path.Base(name)
	}
}

// inBundle reports whether a file of the drop lies in the folder of one of
// its model3.json files, or below: then it belongs to that bundle.
func (d *droppedFiles) inBundle(name string) bool {
	for _, m := range d.models {
		if candidateKind(m) != candidateModel3 {
			continue
		}
		if dir := path.Dir(m); dir == "." || strings.HasPrefix(name, dir+"/") {
			return true
		}
	}
	return false
}

// openFirst opens the first model candidate of a sorted drop that loads and
// returns its name. When none loads it returns an error giving each one's
// reason, or saying that the drop holds none. A zip is opened as a folder
// when zips is set (not within a zip).
func (g *game) openFirst(drop fs.FS, d droppedFiles, zips bool) (string, error) {
	var failed []string
	for _, name := range d.models {
		prev := g.message
		g.message = "" // setModel may leave a note on the new model
		if err := g.openCandidate(drop, d, name, zips); err != nil {
			g.message = prev
			failed = append(failed, err.Error())
			continue
		}
		return name, nil
	}
	if len(failed) > 0 {
		return "", errors.New(strings.Join(failed, "; "))
	}
	msg := "no model in it (a .p2lrt, a .model3.json or a zip holding one)"
	if d.truncated {
		msg += fmt.Sprintf("; only its first %d files were looked at", maxDropFiles)
	}
	return "", errors.New(msg)
}

// openCandidate opens one model candidate of a drop by its kind: a Cubism
// bundle (its model3.json), a zip (the first model in it), or a .p2lrt
// (whatever else loads as one).
func (g *game) openCandidate(drop fs.FS, d droppedFiles, name string, zips bool) error {
	switch candidateKind(name) {
	case candidateModel3:
		return g.openBundle(bundleFS{drop, d.byBase}, name)
	case candidateZip:
		if !zips {
			return fmt.Errorf("cannot open %s: a zip within a zip", path.Base(name))
		}
		z, err := readZip(drop, name)
		if err != nil {
			return fmt.Errorf("cannot open %s: %w", path.Base(name), err)
		}
		if _, err := g.openFirst(z, sortDrop(z), false); err != nil {
			return fmt.Errorf("%s: %w", path.Base(name), err)
		}
		return nil
	}
	data, err := p2lrt.ReadFS(drop, name, nil)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", name, err)
	}
	dir, _ := fs.Sub(drop, path.Dir(name))
	return g.openModel(name, data, dir)
}

// readZip reads a zip of the drop into memory (a dropped file in a browser
// cannot be read at an offset), within p2l's file-size bound, and returns
// its files.
func readZip(drop fs.FS, name string) (fs.FS, error) {
	data, err := p2lrt.ReadFS(drop, name, nil)
	if err != nil {
		return nil, err
	}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// An insecure name (absolute, "..") is left out of z's files.
		return nil, err
	}
	return z, nil
}

// bundleFS is a drop as a Cubism bundle reads it: a file the model3.json
// names that is not at its path is found by its name alone when the drop
// holds exactly one file of that name, since the files of a bundle picked
// in a browser's file dialog (or dropped one by one) arrive without their
// folders.
type bundleFS struct {
	fs.FS
	byBase map[string]string
}

func (b bundleFS) Open(name string) (fs.File, error) {
	f, err := b.FS.Open(name)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return f, err
	}
	if p := b.byBase[path.Base(name)]; p != "" && p != name {
		return b.FS.Open(p)
	}
	return nil, err
}
