package cubism

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// BenchmarkBundleRead reads every file of each sample's folder (the
// floor BenchmarkBundleLoad is compared with in docs/PERFORMANCE.md).
func BenchmarkBundleRead(b *testing.B) {
	for _, name := range cubismsamples.Names {
		b.Run(name, func(b *testing.B) {
			dir := filepath.Dir(cubismsamples.Model(b, name))
			var n int64
			for b.Loop() {
				n = 0
				err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					data, err := os.ReadFile(p)
					n += int64(len(data))
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(n)
		})
	}
}

// BenchmarkBundleLoad loads each sample bundle (Load: moc, JSON, PNG
// pages embedded) and decodes its texture pages (texture.Decode), as a
// character's creation does.
func BenchmarkBundleLoad(b *testing.B) {
	for _, name := range cubismsamples.Names {
		b.Run(name, func(b *testing.B) {
			dir := filepath.Dir(cubismsamples.Model(b, name))
			files := os.DirFS(dir)
			b.ReportAllocs()
			for b.Loop() {
				m, _, err := Load(files, name+".model3.json")
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range texture.Decode(m, nil) {
					if p.Err != nil {
						b.Fatal(p.Err)
					}
				}
			}
		})
	}
}

// BenchmarkBundleLoadNoTextures is BenchmarkBundleLoad without decoding
// the pages: what Load itself costs.
func BenchmarkBundleLoadNoTextures(b *testing.B) {
	for _, name := range cubismsamples.Names {
		b.Run(name, func(b *testing.B) {
			files := os.DirFS(filepath.Dir(cubismsamples.Model(b, name)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Load(files, name+".model3.json"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
