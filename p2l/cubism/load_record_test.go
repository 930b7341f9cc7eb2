package cubism

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// loadRecordEnv names the folder where TestLoadRecord keeps what Load made of
// each bundle, to compare the importer's results before and after a change
// meant to leave them alone (a speed-up). Outside the repository only: the
// recordings of the samples are data derived from them.
const loadRecordEnv = "P2L_LOAD_RECORD"

// TestLoadRecord, with P2L_LOAD_RECORD set to a folder (e.g. /tmp/rec),
// records for the synthetic bundle and each sample present everything Load
// and texture.Decode produce — the model written as a .p2lrt, a dump of
// every exported field of the model, the warnings, and the decoded pages
// (premultiplied and straight texels, infos) — into NAME.txt there. When
// NAME.txt exists already it compares instead and fails on any difference,
// writing the new recording next to it as NAME.new.txt. Run it once on the
// commit before a change and once after:
//
//	P2L_LOAD_RECORD=/tmp/rec go test ./p2l/cubism/ -run TestLoadRecord
func TestLoadRecord(t *testing.T) {
	dir := os.Getenv(loadRecordEnv)
	if dir == "" {
		t.Skipf("set %s to a folder outside the repository to record or compare Load's results", loadRecordEnv)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, name string, got []byte) {
		file := filepath.Join(dir, name+".txt")
		want, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("recorded %s (%d bytes)", file, len(got))
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			alt := filepath.Join(dir, name+".new.txt")
			_ = os.WriteFile(alt, got, 0o644)
			t.Errorf("Load's results differ from %s: diff it with %s", file, alt)
		}
	}
	// Each bundle's subtests: load, mutated (slow: a minute per sample),
	// and for the synthetic bundle corpus; -run 'TestLoadRecord/.*/load'
	// runs the quick part.
	bundle := func(name string, files fs.FS, model3 string) {
		t.Run(name+"/load", func(t *testing.T) { check(t, name, recordLoad(t, files, model3)) })
		t.Run(name+"/mutated", func(t *testing.T) { check(t, name+"-mutated", recordMutations(t, files, model3)) })
	}
	bundle("synthetic", cubismbundle.Files(), cubismbundle.Model3)
	t.Run("synthetic/corpus", func(t *testing.T) { check(t, "synthetic-model3-corpus", recordModel3Corpus(t)) })
	for _, name := range cubismsamples.Names {
		if _, ok := cubismsamples.Dir(); !ok {
			t.Run(name, func(t *testing.T) { cubismsamples.Require(t) })
			continue
		}
		bundle(name, os.DirFS(filepath.Dir(cubismsamples.Model(t, name))), name+".model3.json")
	}
}

// recordMutations records what Import makes of every JSON file of a bundle
// but its model3.json, each altered in turn at up to 200 of its values
// (each replaced by a string, null, a number beyond float64, a negative
// number, an empty array, an empty object), imported into the bundle's
// model: the warnings and a hash of the written model. It covers the
// importer's tolerant paths, which the bundles themselves rarely take.
func recordMutations(t *testing.T, files fs.FS, name string) []byte {
	t.Helper()
	m, _, err := Load(files, name)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || strings.HasSuffix(p, model3Suffix) {
			return err
		}
		data, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		var root any
		d2 := json.NewDecoder(bytes.NewReader(data))
		d2.UseNumber()
		if err := d2.Decode(&root); err != nil {
			return err
		}
		var nodes int
		walkJSON(&root, func(*any) { nodes++ })
		step := max(1, nodes/200)
		replacements := []any{"x", nil, json.Number("1e999"), json.Number("-1"), []any{}, map[string]any{}}
		for k := 0; k < nodes; k += step {
			repl := replacements[(k/step)%len(replacements)]
			var n int
			var saved any
			var at *any
			walkJSON(&root, func(v *any) {
				if n == k {
					at, saved = v, *v
				}
				n++
			})
			*at = repl
			variant, err := json.Marshal(root)
			*at = saved
			if err != nil {
				return err
			}
			got, warns, err := importModel(m.File(), "g", File{Name: path.Base(p), Data: variant})
			fmt.Fprintf(&out, "%s node %d -> %v: err %v\n", p, k, repl, err)
			for _, w := range warns {
				fmt.Fprintf(&out, "  warning %s\n", w)
			}
			if err == nil {
				var file bytes.Buffer
				if err := p2l.Write(&file, got, nil); err != nil {
					fmt.Fprintf(&out, "  write: %v\n", err)
				} else {
					fmt.Fprintf(&out, "  p2lrt sha256 %x\n", sha256.Sum256(file.Bytes()))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// walkJSON calls f on every value of a decoded JSON document, parents
// first, object members in key order.
func walkJSON(v *any, f func(*any)) {
	f(v)
	switch x := (*v).(type) {
	case []any:
		for i := range x {
			walkJSON(&x[i], f)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e := x[k]
			walkJSON(&e, f)
			x[k] = e
		}
	}
}

// recordModel3Corpus records Load of the synthetic bundle with each
// model3.json of FuzzLoadModel3's generated corpus (in GOCACHE, when
// fuzzing has run on this machine) as its model3.json.
func recordModel3Corpus(t *testing.T) []byte {
	t.Helper()
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skipf("no GOCACHE: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(cache)), "fuzz", "github.com/psd2live/p2l-ebiten/p2l/cubism", "FuzzLoadModel3")
	entries, _ := os.ReadDir(dir)
	var out bytes.Buffer
	files := cubismbundle.Files()
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(raw), "\n", 3)
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
			continue
		}
		data, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[1]), "[]byte("), ")"))
		if err != nil {
			continue
		}
		files[cubismbundle.Model3] = &fstest.MapFile{Data: []byte(data)}
		m, warns, err := Load(files, cubismbundle.Model3)
		fmt.Fprintf(&out, "%s: err %v\n", e.Name(), err)
		for _, w := range warns {
			fmt.Fprintf(&out, "  warning %s\n", w)
		}
		if err == nil {
			var file bytes.Buffer
			if err := p2l.Write(&file, m, nil); err != nil {
				fmt.Fprintf(&out, "  write: %v\n", err)
			} else {
				fmt.Fprintf(&out, "  p2lrt sha256 %x\n", sha256.Sum256(file.Bytes()))
			}
		}
	}
	return out.Bytes()
}

// recordLoad is the text TestLoadRecord keeps of one bundle's Load.
func recordLoad(t *testing.T, files fs.FS, name string) []byte {
	t.Helper()
	m, warns, err := Load(files, name)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, w := range warns {
		fmt.Fprintf(&out, "warning %s\n", w)
	}
	var file bytes.Buffer
	if err := p2l.Write(&file, m, nil); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&out, "p2lrt %d bytes sha256 %x\n", file.Len(), sha256.Sum256(file.Bytes()))
	dumpExported(&out, "model", reflect.ValueOf(m).Elem())
	for _, straight := range []bool{false, true} {
		for _, p := range texture.Decode(m, &texture.Options{Straight: straight}) {
			fmt.Fprintf(&out, "page straight=%v %+v\n", straight, p.Info)
			if p.Image != nil {
				fmt.Fprintf(&out, "  rgba %v stride %d sha256 %x\n", p.Image.Rect, p.Image.Stride, sha256.Sum256(p.Image.Pix))
			}
			if p.Straight != nil {
				fmt.Fprintf(&out, "  nrgba %v stride %d sha256 %x\n", p.Straight.Rect, p.Straight.Stride, sha256.Sum256(p.Straight.Pix))
			}
		}
	}
	return out.Bytes()
}

// dumpExported writes every exported field reachable from v, one line per
// value (floats by their bits), following pointers, slices and maps (keys
// sorted by fmt's order); byte slices are summarised by a hash.
func dumpExported(w io.Writer, path string, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			fmt.Fprintf(w, "%s nil\n", path)
			return
		}
		dumpExported(w, path, v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				dumpExported(w, path+"."+f.Name, v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(w, "%s bytes %d sha256 %x\n", path, v.Len(), sha256.Sum256(v.Bytes()))
			return
		}
		fmt.Fprintf(w, "%s len %d\n", path, v.Len())
		for i := 0; i < v.Len(); i++ {
			dumpExported(w, fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(a, b int) bool { return fmt.Sprint(keys[a]) < fmt.Sprint(keys[b]) })
		fmt.Fprintf(w, "%s map %d\n", path, len(keys))
		for _, k := range keys {
			dumpExported(w, fmt.Sprintf("%s[%v]", path, k), v.MapIndex(k))
		}
	case reflect.Float32, reflect.Float64:
		fmt.Fprintf(w, "%s %v %x\n", path, v.Float(), math.Float64bits(v.Float()))
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		fmt.Fprintf(w, "%s %s nil=%v\n", path, v.Kind(), v.IsNil())
	default:
		fmt.Fprintf(w, "%s %v\n", path, v.Interface())
	}
}
