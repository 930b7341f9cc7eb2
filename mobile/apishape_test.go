package mobile

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// This file checks that the package's exported API uses only what gomobile
// can bind (golang.org/x/mobile/cmd/gobind's documentation, "Type
// restrictions"): signed integers, floats, bool, string, []byte, error,
// exported interfaces of this package whose methods follow the same rules,
// and pointers to exported structs of this package whose fields and methods
// do; functions return nothing, one value, or a value and an error.
// gobind silently skips anything else (a "skipped" comment in the generated
// code), so without this test a new function could vanish from the Java and
// Swift APIs unnoticed. mobile/internal/bindcheck/check.sh runs gobind
// itself when the tools are available.

// bindProblems lists the exported identifiers of pkg that gomobile cannot
// bind, each with the reason.
func bindProblems(pkg *types.Package) []string {
	var out []string
	report := func(name, format string, args ...any) {
		out = append(out, name+": "+fmt.Sprintf(format, args...))
	}
	typeOK := func(t types.Type) bool {
		switch t := types.Unalias(t).(type) {
		case *types.Basic:
			switch t.Kind() {
			case types.Bool, types.String, types.Int, types.Int8, types.Int16, types.Int32,
				types.Int64, types.Float32, types.Float64:
				return true
			}
			return false
		case *types.Slice:
			b, ok := t.Elem().(*types.Basic)
			return ok && b.Kind() == types.Byte
		case *types.Pointer:
			n, ok := types.Unalias(t.Elem()).(*types.Named)
			if !ok || n.Obj().Pkg() != pkg || !n.Obj().Exported() {
				return false
			}
			_, isStruct := n.Underlying().(*types.Struct)
			return isStruct
		case *types.Named:
			if t.Obj().Pkg() == nil && t.Obj().Name() == "error" {
				return true
			}
			if t.Obj().Pkg() != pkg || !t.Obj().Exported() {
				return false
			}
			_, isIface := t.Underlying().(*types.Interface)
			return isIface
		}
		return false
	}
	checkSig := func(name string, sig *types.Signature) {
		if sig.Variadic() {
			report(name, "variadic")
		}
		if sig.TypeParams() != nil || sig.RecvTypeParams() != nil {
			report(name, "generic")
		}
		for v := range sig.Params().Variables() {
			if !typeOK(v.Type()) {
				report(name, "parameter type %s", v.Type())
			}
		}
		res := sig.Results()
		isErr := func(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }
		switch res.Len() {
		case 0:
		case 1:
			if !typeOK(res.At(0).Type()) {
				report(name, "result type %s", res.At(0).Type())
			}
		case 2:
			if !typeOK(res.At(0).Type()) || isErr(res.At(0).Type()) || !isErr(res.At(1).Type()) {
				report(name, "results (%s, %s): want (supported type, error)", res.At(0).Type(), res.At(1).Type())
			}
		default:
			report(name, "%d results", res.Len())
		}
	}
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Func:
			checkSig(n, obj.Type().(*types.Signature))
		case *types.Const:
			if !typeOK(obj.Type()) && obj.Type().(*types.Basic).Info()&types.IsUntyped == 0 {
				report(n, "constant type %s", obj.Type())
			}
		case *types.Var:
			if !typeOK(obj.Type()) {
				report(n, "variable type %s", obj.Type())
			}
		case *types.TypeName:
			named, ok := types.Unalias(obj.Type()).(*types.Named)
			if !ok || obj.IsAlias() {
				report(n, "type alias")
				continue
			}
			if named.TypeParams() != nil {
				report(n, "generic type")
				continue
			}
			switch u := named.Underlying().(type) {
			case *types.Interface:
				for m := range u.Methods() {
					if m.Exported() {
						checkSig(n+"."+m.Name(), m.Type().(*types.Signature))
					} else {
						// gobind cannot implement an interface with an
						// unexported method on the foreign side.
						report(n+"."+m.Name(), "unexported interface method")
					}
				}
			case *types.Struct:
				for f := range u.Fields() {
					if f.Exported() && !typeOK(f.Type()) {
						report(n+"."+f.Name(), "field type %s", f.Type())
					}
				}
				ms := types.NewMethodSet(types.NewPointer(named))
				for sel := range ms.Methods() {
					if sel.Obj().Exported() {
						checkSig(n+"."+sel.Obj().Name(), sel.Obj().Type().(*types.Signature))
					}
				}
			default:
				report(n, "named %s type (only structs and interfaces bind)", u)
			}
		}
	}
	slices.Sort(out)
	return out
}

// exportImporter imports packages from the compiler's export data, which
// `go list -export` produces (or finds in the build cache): much faster than
// type-checking every dependency from source.
func exportImporter(t *testing.T, fset *token.FileSet) types.Importer {
	t.Helper()
	out, err := exec.Command("go", "list", "-export",
		"-f", "{{.ImportPath}}={{.Export}}", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list -export: %v", err)
	}
	files := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "="); ok && file != "" {
			files[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
}

// typeCheck type-checks the given files of package path.
func typeCheck(t *testing.T, fset *token.FileSet, path string, files []*ast.File) *types.Package {
	t.Helper()
	conf := types.Config{Importer: exportImporter(t, fset)}
	pkg, err := conf.Check(path, fset, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

func TestAPIBindable(t *testing.T) {
	// The package as the desktop build sees it: game_mobile.go, built only
	// for Android and iOS, exports nothing.
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	pkg := typeCheck(t, fset, "github.com/psd2live/p2l-ebiten/mobile", files)
	if p := bindProblems(pkg); len(p) > 0 {
		t.Errorf("exported API not bindable by gomobile:\n%s", strings.Join(p, "\n"))
	}
	// Sanity: the check saw the API.
	for _, name := range []string{"LoadModel", "HitTest", "Listener", "LipSyncPCM"} {
		if pkg.Scope().Lookup(name) == nil {
			t.Errorf("%s not found: the check did not see the package", name)
		}
	}
}

// TestBindProblemsRejects shows the check rejecting each kind of type gobind
// skips, and accepting each kind it binds.
func TestBindProblemsRejects(t *testing.T) {
	const src = `package p

import "time"

type Good interface{ M(s string, b []byte) (int64, error) }
type GoodStruct struct{ N int; F float32; S *GoodStruct }

func (*GoodStruct) Do(g Good) bool { return false }

func G1(a int, b int8, c int16, d int32, e int64, f float32, g float64, h bool, i string, j []byte, k error, l Good, m *GoodStruct) {}
func G2() (string, error) { return "", nil }
const GC = 3
const GT int32 = 3
var GV string

func BadUint(x uint) {}
func BadByte(x byte) {}
func BadStrings() []string { return nil }
func BadTwo() (int, int) { return 0, 0 }
func BadErrFirst() (error, int) { return nil, 0 }
func BadThree() (int, string, error) { return 0, "", nil }
func BadVariadic(x ...int) {}
func BadMap(m map[string]int) {}
func BadStructValue(s GoodStruct) {}
func BadForeign(d time.Duration) {}
func BadFunc(f func()) {}
func BadGeneric[T any](x T) {}
type BadNamed int
type BadIface interface{ M() uint }
type BadStruct struct{ C chan int }
var BadVar map[int]int
const BadConst uint = 1
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := bindProblems(typeCheck(t, fset, "p", []*ast.File{f}))
	var names []string
	for _, p := range got {
		names = append(names, strings.SplitN(p, ":", 2)[0])
	}
	want := []string{
		"BadByte", "BadConst", "BadErrFirst", "BadForeign", "BadFunc", "BadGeneric",
		"BadGeneric", // also its parameter of type T
		"BadIface.M", "BadMap", "BadNamed", "BadStrings", "BadStruct.C", "BadStructValue",
		"BadThree", "BadTwo", "BadUint", "BadVar", "BadVariadic", "BadVariadic",
	}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("problems:\n%s\nwant names %v", strings.Join(got, "\n"), want)
	}
}
