package cubism

import (
	"bytes"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/internal/cputime"
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

// BenchmarkBundleVsRead times, per sample, in rotating order within each
// iteration (so that all four see the same load of a shared machine), a
// garbage collection before each:
//
//   - read: reading every file of the sample's folder (the floor);
//   - png: the same plus image/png.Decode of its PNG pages (a floor for
//     a load that decodes them: the standard decoder's own cost);
//   - load: cubism.Load (moc, JSON, pages embedded, Validate);
//   - decoded: cubism.Load and texture.Decode of its pages, what creating
//     the first character costs.
//
// It reports each one's wall time per op (read-ms, …) and the ratios
// load/read, decoded/read and decoded/png, in wall time and (cpu-…) in the
// process's CPU time, every thread counted. docs/PERFORMANCE.md, "Loading
// a Cubism bundle", quotes them.
func BenchmarkBundleVsRead(b *testing.B) {
	for _, name := range cubismsamples.Names {
		b.Run(name, func(b *testing.B) {
			dir := filepath.Dir(cubismsamples.Model(b, name))
			files := os.DirFS(dir)
			load := func(decode bool) {
				m, _, err := Load(files, name+".model3.json")
				if err != nil {
					b.Fatal(err)
				}
				if !decode {
					return
				}
				for _, p := range texture.Decode(m, nil) {
					if p.Err != nil {
						b.Fatal(p.Err)
					}
				}
			}
			tasks := [...]func(){
				func() { readFolder(b, dir, false) },
				func() { readFolder(b, dir, true) },
				func() { load(false) },
				func() { load(true) },
			}
			var wall, cpu [len(tasks)]time.Duration
			for _, task := range tasks { // warm-up: page cache, first GC
				task()
			}
			b.ResetTimer()
			for i := range b.N {
				for j := range tasks {
					k := (i + j) % len(tasks)
					runtime.GC()
					t0, c0 := time.Now(), cputime.Process()
					tasks[k]()
					cpu[k] += cputime.Process() - c0
					wall[k] += time.Since(t0)
				}
			}
			b.StopTimer()
			ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 / float64(b.N) }
			for k, what := range [...]string{"read", "png", "load", "decoded"} {
				b.ReportMetric(ms(wall[k]), what+"-ms")
			}
			ratio := func(d [len(tasks)]time.Duration, num, den int) float64 {
				return float64(d[num]) / float64(d[den])
			}
			b.ReportMetric(ratio(wall, 2, 0), "load/read")
			b.ReportMetric(ratio(wall, 3, 0), "decoded/read")
			b.ReportMetric(ratio(wall, 3, 1), "decoded/png")
			if cpu[0] > 0 {
				b.ReportMetric(ratio(cpu, 2, 0), "cpu-load/read")
				b.ReportMetric(ratio(cpu, 3, 0), "cpu-decoded/read")
				b.ReportMetric(ratio(cpu, 3, 1), "cpu-decoded/png")
			}
		})
	}
}

// readFolder reads every file under dir and, with decode, decodes the
// PNG files among them with image/png.
func readFolder(b *testing.B, dir string, decode bool) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil || !decode || !strings.HasSuffix(p, ".png") {
			return err
		}
		_, err = png.Decode(bytes.NewReader(data))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
}
