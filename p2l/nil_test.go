package p2l_test

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	. "github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// The Rig contract (doc.go): a nil *Rig and an index out of range panic,
// in the package's words for indices; values that are not finite are
// ignored; a rig whose evaluation failed reads as an empty evaluation. A
// nil *Model answers as an empty model (except NewRig, which panics). The
// tests enumerate the methods by reflection, so a method added later is
// covered.

// failedRig returns a rig whose model cannot be evaluated (its draw tree
// names a part that does not exist).
func failedRig(t *testing.T) *Rig {
	t.Helper()
	r := (ModelForTest(&p2lrt.File{Parameters: []p2lrt.Parameter{{ID: "p", Min: 0, Max: 1}}, Draw: p2lrt.DrawGroup{Part: 5}})).NewRig()
	if r.Err() == nil {
		t.Fatal("the broken model gave a live rig")
	}
	return r
}

// views returns r and every view of it (index 0 where one is needed):
// the receivers whose methods make the Rig API.
func views(r *Rig) []reflect.Value {
	v := []reflect.Value{reflect.ValueOf(r), reflect.ValueOf(r.Layer(0)), reflect.ValueOf(r.Expressions()),
		reflect.ValueOf(r.Physics()), reflect.ValueOf(r.Simulation())}
	if r.Model().Meshes().Len() > 0 {
		v = append(v, reflect.ValueOf(r.Mesh(0)))
	}
	if r.Model().Parts().Len() > 0 {
		v = append(v, reflect.ValueOf(r.Part(0)))
	}
	return v
}

// argSets returns argument lists for a method type (receiver excluded):
// zero values, then hostile values (−1, huge, NaN, +Inf, odd strings).
func argSets(mt reflect.Type) [][]reflect.Value {
	var sets [][]reflect.Value
	for variant := 0; variant < 4; variant++ {
		args := make([]reflect.Value, 0, mt.NumIn()-1)
		for i := 1; i < mt.NumIn(); i++ {
			args = append(args, argValue(mt.In(i), variant))
		}
		sets = append(sets, args)
	}
	return sets
}

func argValue(t reflect.Type, variant int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt([]int64{0, -1, math.MaxInt32, 1}[variant])
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint([]uint64{0, 1, math.MaxUint16, 7}[variant])
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, math.NaN(), math.Inf(1), -3e38}[variant])
	case reflect.String:
		v.SetString([]string{"", "x", "\xff", strings.Repeat("a", 1000)}[variant])
	case reflect.Bool:
		v.SetBool(variant%2 == 1)
	case reflect.Slice:
		if variant > 0 {
			s := reflect.MakeSlice(t, 3, 3)
			for i := 0; i < 3; i++ {
				s.Index(i).Set(argValue(t.Elem(), variant))
			}
			v.Set(s)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).CanSet() {
				v.Field(i).Set(argValue(t.Field(i).Type, variant))
			}
		}
	case reflect.Func:
		if variant > 0 {
			v.Set(reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
				out := make([]reflect.Value, t.NumOut())
				for i := range out {
					out[i] = reflect.Zero(t.Out(i))
				}
				return out
			}))
		}
	}
	return v
}

// testOnly reports methods that exist only in this package's tests
// (export_*_test.go).
func testOnly(name string) bool { return strings.HasSuffix(name, "ForTest") }

// call invokes method name on recv and returns what it panicked with
// ("" when it returned).
func call(recv reflect.Value, name string, args []reflect.Value) (out []reflect.Value, panicked string) {
	panicked = PanicMessage(func() { out = recv.MethodByName(name).Call(args) })
	return out, panicked
}

// indexPanic reports whether msg is the package's panic for an index out
// of range or a slice of the wrong length (the caller's errors).
func indexPanic(msg string) bool {
	return strings.HasPrefix(msg, "p2l: ") && (strings.Contains(msg, "out of range") || strings.Contains(msg, "values for"))
}

// sameValue is reflect.DeepEqual with NaN equal to NaN.
func sameValue(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || (x != x && y != y)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// TestNilRigPanics: every method of a nil *Rig panics (a nil pointer's
// panic, as for any Go type), whatever the arguments.
func TestNilRigPanics(t *testing.T) {
	var nilRig *Rig
	typ := reflect.TypeOf(nilRig)
	if typ.NumMethod() < 30 {
		t.Fatalf("only %d methods on *Rig: the enumeration is broken", typ.NumMethod())
	}
	for i := 0; i < typ.NumMethod(); i++ {
		m := typ.Method(i)
		if testOnly(m.Name) {
			continue
		}
		for _, args := range argSets(m.Type) {
			if _, msg := call(reflect.ValueOf(nilRig), m.Name, args); msg == "" {
				t.Errorf("%s(%v) on a nil rig returned", m.Name, args)
			}
		}
	}
}

// TestFailedRigReadsEmpty: a rig whose model cannot be evaluated reports
// why (Err), never evaluates, and every method of it and its views either
// works as on a live rig (setters keep their values) or, for an index out
// of range, panics in the package's words; results read as an empty
// evaluation.
func TestFailedRigReadsEmpty(t *testing.T) {
	r := failedRig(t)
	for _, recv := range views(r) {
		typ := recv.Type()
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			if testOnly(m.Name) {
				continue
			}
			for _, args := range argSets(m.Type) {
				if _, msg := call(recv, m.Name, args); msg != "" && !indexPanic(msg) {
					t.Errorf("%v.%s(%v): panic %q", typ, m.Name, args, msg)
				}
			}
		}
	}
	r.SetParameter(0, 0.5)
	r.Update(1)
	r.Evaluate()
	if r.Err() == nil || r.Parameter(0) != 0.5 || r.RenderOrder() != nil || r.RenderCommands() != nil || r.Revision() != 0 || r.HitTest(0, 0) != -1 {
		t.Errorf("failed rig: Err %v, parameter %v, render order %v, revision %d", r.Err(), r.Parameter(0), r.RenderOrder(), r.Revision())
	}
}

// TestLiveRigSurvivesHostileArguments calls every method of a live,
// evaluated rig and of its views with the hostile argument sets:
// out-of-range indices, NaN, infinities. An index out of range panics in
// the package's words and changes nothing; anything else is ignored or
// taken; no other panic escapes, and the rig stays usable.
func TestLiveRigSurvivesHostileArguments(t *testing.T) {
	for _, adv := range []bool{false, true} {
		m := ModelForTest(synth.Character(3))
		if adv {
			m = ModelForTest(synth.Advanced(synth.AdvancedOptions{}))
		}
		r := m.NewRig()
		if adv && r.SetAdvanced(allBits) != allBits {
			t.Fatalf("advanced features %v, want %v", r.Advanced(), Features(allBits))
		}
		r.Update(1.0 / 60)
		indexPanics := 0
		for _, recv := range views(r) {
			typ := recv.Type()
			for i := 0; i < typ.NumMethod(); i++ {
				m := typ.Method(i)
				if testOnly(m.Name) {
					continue
				}
				for _, args := range argSets(m.Type)[1:] {
					switch _, msg := call(recv, m.Name, args); {
					case indexPanic(msg):
						indexPanics++
					case msg != "":
						t.Errorf("advanced %v: %v.%s(%v): panic %q", adv, typ, m.Name, args, msg)
					}
				}
			}
		}
		if indexPanics == 0 {
			t.Errorf("advanced %v: no hostile index panicked", adv)
		}
		r.Update(1.0 / 60)
		if err := r.Err(); err != nil {
			t.Errorf("advanced %v: hostile arguments made the rig fail: %v", adv, err)
		}
		for i := range r.Model().Meshes().Len() {
			for _, v := range r.Mesh(i).Vertices() {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("advanced %v: mesh %d has vertex %v after hostile calls", adv, i, v)
				}
			}
		}
	}
}

func TestNilModelIsEmpty(t *testing.T) {
	var nilModel *Model
	empty := ModelForTest(&p2lrt.File{Draw: p2lrt.DrawGroup{Part: -1}})
	typ := reflect.TypeOf(nilModel)
	for i := 0; i < typ.NumMethod(); i++ {
		m := typ.Method(i)
		if testOnly(m.Name) {
			continue
		}
		for _, args := range argSets(m.Type) {
			if m.Name == "NewRig" {
				if _, msg := call(reflect.ValueOf(nilModel), m.Name, args); msg != "p2l: NewRig on a nil *Model" {
					t.Errorf("NewRig of a nil model: panic %q", msg)
				}
				continue
			}
			got, msg1 := call(reflect.ValueOf(nilModel), m.Name, args)
			want, msg2 := call(reflect.ValueOf(empty), m.Name, args)
			if msg1 != "" || msg2 != "" {
				t.Errorf("%s(%v): nil model panicked %q, empty model %q", m.Name, args, msg1, msg2)
				break
			}
			switch m.Name {
			case "Validate", "PrepareAdvanced":
				if got[0].IsNil() {
					t.Errorf("%s of a nil model returned nil", m.Name)
				}
				continue
			case "WithDir", "WithEvaluation", "WithPlayback":
				// New models: what they read as, not how far each has
				// prepared itself (WithDir takes its model's tables).
				g, w := got[0].Interface().(*Model), want[0].Interface().(*Model)
				if g == nil || !reflect.DeepEqual(g.File(), w.File()) || !reflect.DeepEqual(g.Dir(), w.Dir()) ||
					g.Evaluation() != w.Evaluation() || g.Playback() != w.Playback() {
					t.Errorf("%s(%v): nil model returns %v, an empty model %v", m.Name, args, g, w)
				}
				continue
			}
			for k := range got {
				if !sameValue(got[k], want[k]) {
					t.Errorf("%s(%v): nil model returns %v, an empty model %v", m.Name, args, got[k], want[k])
				}
			}
		}
	}
	// The walk above compares the read API with an empty model's; these
	// say outright what that is, should the empty model be wrong too.
	if nilModel.Meshes().Len() != 0 || nilModel.Parameters().Len() != 0 || nilModel.Clips().Len() != 0 {
		t.Error("a nil model lists records")
	}
	for range nilModel.HitAreas().All() {
		t.Error("a nil model yields a hit area")
	}
	if _, ok := nilModel.Pose(); ok {
		t.Error("a nil model has a pose")
	}
	if _, ok := nilModel.Bones(); ok {
		t.Error("a nil model has bones")
	}
	if d := nilModel.Draw(); d.Part != -1 || len(d.Children) != 0 {
		t.Errorf("a nil model's draw root %+v, want the empty root (part −1)", d)
	}
	if err := Write(&strings.Builder{}, nil, nil); err == nil {
		t.Error("Write of a nil model succeeded")
	}
}

// TestNilModelDoesNotDeadlock is the regression test of the process-wide
// deadlock: a nil model's lookup panicked inside the prepare cache's lock,
// and every later Load or NewRig blocked.
func TestNilModelDoesNotDeadlock(t *testing.T) {
	func() {
		defer func() { _ = recover() }()
		var m *Model
		m.ClipIndex("x")
		m.NewRig().Update(1)
	}()
	done := make(chan error, 1)
	go func() {
		var b bytes.Buffer
		err := Write(&b, ModelForTest(synth.Character(1)), nil)
		if err == nil {
			_, err = Load(b.Bytes())
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Load blocked after a nil model's lookup")
	}
}
