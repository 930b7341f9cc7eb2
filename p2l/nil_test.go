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
)

// The nil-receiver policy (docs/LIMITS.md): a nil *Rig is inert exactly as
// a failed rig is, and a nil *Model answers as an empty model. The tests
// enumerate the methods by reflection, so a method added later without the
// guard fails them.

// failedRig returns a rig whose model cannot be evaluated (its draw tree
// names a part that does not exist).
func failedRig(t *testing.T) *Rig {
	t.Helper()
	r := (&Model{Parameters: []Parameter{{ID: "p", Min: 0, Max: 1}}, Draw: DrawGroup{Part: 5}}).NewRig()
	if r.Err() == nil {
		t.Fatal("the broken model gave a live rig")
	}
	return r
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

// call invokes method name on recv, reporting a panic as a test error.
func call(t *testing.T, recv reflect.Value, name string, args []reflect.Value) (out []reflect.Value, ok bool) {
	t.Helper()
	defer func() {
		if v := recover(); v != nil {
			t.Errorf("%s(%v) on %v panicked: %v", name, args, recv.Type(), v)
			ok = false
		}
	}()
	return recv.MethodByName(name).Call(args), true
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

func TestNilRigIsInert(t *testing.T) {
	var nilRig *Rig
	failed := failedRig(t)
	typ := reflect.TypeOf(nilRig)
	if typ.NumMethod() < 80 {
		t.Fatalf("only %d methods on *Rig: the enumeration is broken", typ.NumMethod())
	}
	for i := 0; i < typ.NumMethod(); i++ {
		m := typ.Method(i)
		if testOnly(m.Name) {
			continue
		}
		for _, args := range argSets(m.Type) {
			got, ok1 := call(t, reflect.ValueOf(nilRig), m.Name, args)
			want, ok2 := call(t, reflect.ValueOf(failed), m.Name, args)
			if !ok1 || !ok2 {
				break
			}
			switch m.Name {
			case "Err":
				if got[0].IsNil() || want[0].IsNil() {
					t.Errorf("Err: nil rig %v, failed rig %v; both must be errors", got[0], want[0])
				}
				continue
			case "Model":
				if !got[0].IsNil() {
					t.Errorf("Model of a nil rig is %v", got[0])
				}
				continue
			}
			for k := range got {
				if !sameValue(got[k], want[k]) {
					t.Errorf("%s(%v): nil rig returns %v, a failed rig %v", m.Name, args, got[k], want[k])
				}
			}
		}
	}
	if err := nilRig.Err(); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("nil rig's Err = %v", err)
	}
}

// TestLiveRigSurvivesHostileArguments calls every method of a live,
// evaluated rig with the hostile argument sets: out-of-range indices, NaN,
// infinities. Nothing may panic, and the rig must stay usable.
func TestLiveRigSurvivesHostileArguments(t *testing.T) {
	for _, adv := range []bool{false, true} {
		m := synth.Character(3)
		if adv {
			m = synth.Advanced(synth.AdvancedOptions{})
		}
		r := m.NewRig()
		if adv && r.SetAdvanced(allBits) != allBits {
			t.Fatalf("advanced features %b, want %b", r.Advanced(), allBits)
		}
		r.Update(1.0 / 60)
		typ := reflect.TypeOf(r)
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			if testOnly(m.Name) {
				continue
			}
			for _, args := range argSets(m.Type)[1:] {
				call(t, reflect.ValueOf(r), m.Name, args)
			}
		}
		r.Update(1.0 / 60)
		if err := r.Err(); err != nil {
			t.Errorf("advanced %v: hostile arguments made the rig fail: %v", adv, err)
		}
		for i := range r.Model().Meshes {
			for _, v := range r.MeshVertices(i) {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("advanced %v: mesh %d has vertex %v after hostile calls", adv, i, v)
				}
			}
		}
	}
}

func TestNilModelIsEmpty(t *testing.T) {
	var nilModel *Model
	empty := &Model{Draw: DrawGroup{Part: -1}}
	typ := reflect.TypeOf(nilModel)
	for i := 0; i < typ.NumMethod(); i++ {
		m := typ.Method(i)
		if testOnly(m.Name) {
			continue
		}
		for _, args := range argSets(m.Type) {
			got, ok1 := call(t, reflect.ValueOf(nilModel), m.Name, args)
			want, ok2 := call(t, reflect.ValueOf(empty), m.Name, args)
			if !ok1 || !ok2 {
				break
			}
			switch m.Name {
			case "NewRig":
				r := got[0].Interface().(*Rig)
				if r == nil || r.Err() == nil {
					t.Errorf("NewRig of a nil model: %v, Err %v; want an inert rig", r, r.Err())
				}
				continue
			case "Validate", "PrepareAdvanced", "Check":
				if got[0].IsNil() {
					t.Errorf("%s of a nil model returned nil", m.Name)
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
		err := Write(&b, synth.Character(1), nil)
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
