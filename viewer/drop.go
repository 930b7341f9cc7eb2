package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// A drop (ebiten.DroppedFiles on the desktop and in the browser, or the
// files chosen together in the page's picker: picker_js.go) is sorted here,
// in one place, before anything is opened:
//
//   - audio files (.wav, .ogg, .oga, .mp3) are voices;
//   - texture pages, the files the external page loader reads (PNG or KTX2,
//     known by their signature; also by their extension when unreadable),
//     are not opened by themselves: a model of the drop finds them beside
//     it;
//   - everything else is a model candidate, the .p2lrt files first.
//
// The first candidate that loads is shown; a failure is reported only when
// no candidate of the drop loaded. Voices start after the model changed, so
// that they speak through the character shown.

// droppedFiles is a drop sorted by what each file is.
type droppedFiles struct {
	models []string // model candidates, in the order they are tried
	audio  []string
	pages  []string // texture pages, left for the models to find
}

// audioExts are the audio formats ebitenp2l.DecodeAudio reads.
var audioExts = []string{".wav", ".ogg", ".oga", ".mp3"}

// pageExts are the file extensions of external texture pages.
var pageExts = []string{".png", ".ktx2"}

// pageSignatures start the files the external page loader decodes
// (p2l/texture sniffs PNG and KTX2 by these bytes, whatever the name).
var pageSignatures = [][]byte{
	[]byte("\x89PNG\r\n\x1a\n"),
	{0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'},
}

// sortDrop sorts the regular files of a drop, in lexical order within each
// kind; .p2lrt files come first among the models.
func sortDrop(drop fs.FS) droppedFiles {
	var d droppedFiles
	_ = fs.WalkDir(drop, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		ext := strings.ToLower(path.Ext(name))
		switch {
		case slices.Contains(audioExts, ext):
			d.audio = append(d.audio, name)
		case isPage(drop, name, ext):
			d.pages = append(d.pages, name)
		default:
			d.models = append(d.models, name)
		}
		return nil
	})
	slices.SortStableFunc(d.models, func(a, b string) int {
		return boolInt(!isModelExt(a)) - boolInt(!isModelExt(b))
	})
	return d
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

func isModelExt(name string) bool { return strings.EqualFold(path.Ext(name), ".p2lrt") }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// openDropped opens a drop: the first model candidate that loads (with its
// external pages resolved beside it in the drop), then the voices. The
// message on screen says the outcome: none when a model opened (or
// setModel's note on pages it could not decode), the reasons when no
// candidate loaded, the voice that speaks.
func (g *game) openDropped(drop fs.FS) {
	d := sortDrop(drop)
	var failed []string
	opened := false
	for _, name := range d.models {
		data, err := p2l.ReadFS(drop, name)
		if err != nil {
			failed = append(failed, fmt.Sprintf("cannot read %s: %v", name, err))
			continue
		}
		dir, _ := fs.Sub(drop, path.Dir(name))
		prev := g.message
		g.message = "" // setModel may leave a note on the new model's pages
		if err := g.openModel(name, data, dir); err != nil {
			g.message = prev
			failed = append(failed, err.Error())
			continue
		}
		opened = true
		break
	}
	switch {
	case !opened && len(failed) > 0:
		g.message = strings.Join(failed, "; ")
	case len(d.models) == 0 && len(d.audio) == 0 && len(d.pages) > 0:
		g.message = fmt.Sprintf("%s: a texture page; drop it together with its model", strings.Join(d.pages, ", "))
	}
	for _, name := range d.audio {
		data, err := p2l.ReadFS(drop, name)
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
