package core

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
)

// storedZip zips fsys without compression, so that the fuzzer's mutations
// reach the files' bytes (the JSON, the moc) and not only a deflate stream.
func storedZip(tb testing.TB, fsys fs.FS) []byte {
	tb.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f, err := w.CreateHeader(&zip.FileHeader{Name: p, Method: zip.Store})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// FuzzLoadModel feeds loadModel, the mobile entry that tells a zip of a
// Cubism model's folder from a .p2lrt file, whatever bytes: it must return
// a model or an error, never panic (the core's recover would hide a panic
// from the binding, so the fuzzer calls loadModel itself), and a model it
// returns must evaluate.
func FuzzLoadModel(f *testing.F) {
	files := cubismbundle.Files()
	delete(files, "tiny/"+cubismbundle.Sound) // not read by a load; keeps the seed small
	f.Add(storedZip(f, files))
	f.Add(cubismbundle.Moc())
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _, err := loadModel(data)
		if err != nil {
			return
		}
		r := m.NewRig()
		r.Update(1.0 / 30)
		_ = r.Err()
	})
}
