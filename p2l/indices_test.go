package p2l

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestOutOfRangeIndices checks the one documented behaviour for indices out
// of range on every method of Rig and Model whose first argument is an
// index. Rig (the package documentation's contract): a panic naming the
// kind of index and the range, in the package's words, and no change to
// the host pose or the last evaluation. Model: no panic; float results
// NaN, index results −1, bools false, slices nil, strings "", colors and
// flags zero (a struct result may be anything when an ok result says
// false).
func TestOutOfRangeIndices(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0.5))
	m.mesh(-1, 0, 0, 1, 0, 0, 1)
	r := m.rig(t)
	r.Evaluate()
	pose := r.ParameterValues(nil)
	verts := slices.Clone(r.Mesh(0).Vertices())
	checked, rigChecked := 0, 0
	for _, recv := range []reflect.Value{reflect.ValueOf(r), reflect.ValueOf(&m.Model)} {
		rt := recv.Type()
		for k := 0; k < rt.NumMethod(); k++ {
			meth := rt.Method(k)
			ft := meth.Type
			if ft.NumIn() < 2 || ft.In(1).Kind() != reflect.Int || strings.HasSuffix(meth.Name, "ForTest") {
				continue
			}
			checked++
			for _, bad := range []int{-5, 1 << 20} {
				args := []reflect.Value{recv}
				for j := 1; j < ft.NumIn(); j++ {
					if ft.In(j).Kind() == reflect.Int {
						args = append(args, reflect.ValueOf(bad))
					} else {
						args = append(args, reflect.Zero(ft.In(j)))
					}
				}
				if recv.Type() == reflect.TypeOf(r) {
					rigChecked++
					msg := PanicMessage(func() { meth.Func.Call(args) })
					if !strings.HasPrefix(msg, "p2l: ") || !strings.Contains(msg, fmt.Sprintf(" index %d out of range [0:", bad)) {
						t.Errorf("Rig.%s(%d): panic %q, want the package's index panic", meth.Name, bad, msg)
					}
					continue
				}
				func() {
					defer func() {
						if e := recover(); e != nil {
							t.Errorf("%s(%d) panicked: %v", meth.Name, bad, e)
						}
					}()
					out := meth.Func.Call(args)
					okFalse := len(out) > 1 && out[len(out)-1].Kind() == reflect.Bool && !out[len(out)-1].Bool()
					for _, o := range out {
						good := true
						switch o.Kind() {
						case reflect.Float32, reflect.Float64:
							good = math.IsNaN(o.Float())
						case reflect.Int:
							good = o.Int() == -1
						case reflect.Slice:
							good = o.IsNil()
						case reflect.Struct:
							good = okFalse || o.IsZero()
						case reflect.Interface:
							// An error result may report the bad
							// index (PlayGroupLayer); other
							// interfaces are nil.
							_, isErr := o.Interface().(error)
							good = o.IsNil() || isErr
						default: // bool, string, arrays (colors), flag sets
							good = o.IsZero()
						}
						if !good {
							t.Errorf("%s(%d) returned %v", meth.Name, bad, o.Interface())
						}
					}
				}()
			}
		}
	}
	if checked < 18 || rigChecked < 2*8 {
		t.Errorf("only %d index methods found, %d calls of the rig's", checked, rigChecked)
	}
	if got := r.ParameterValues(nil); !slices.Equal(got, pose) {
		t.Errorf("out-of-range setters changed the host pose: %v, was %v", got, pose)
	}
	if got := r.Mesh(0).Vertices(); !slices.Equal(got, verts) {
		t.Errorf("out-of-range calls changed the evaluation: %v, was %v", got, verts)
	}
	if r.Err() != nil {
		t.Errorf("out-of-range calls made the rig inert: %v", r.Err())
	}
}
