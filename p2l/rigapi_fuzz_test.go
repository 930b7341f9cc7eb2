package p2l_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// rigMethods are the exported methods of *Rig and of its views (views:
// the receivers, in that order), in reflection order.
var rigMethods = func() []reflect.Method {
	var ms []reflect.Method
	for _, recv := range views(synth.MustModel(synth.Character(1)).NewRig()) {
		t := recv.Type()
		for i := 0; i < t.NumMethod(); i++ {
			if m := t.Method(i); !strings.HasSuffix(m.Name, "ForTest") {
				ms = append(ms, m)
			}
		}
	}
	return ms
}()

// fuzzFloats are the float arguments a byte selects: ordinary values,
// range ends, extremes and values that are not finite.
var fuzzFloats = []float64{0, 0.5, 1, -1, 1.0 / 60, 2, 30, -30, 100, 1e-30, 3e38, -3e38, 1e300, math.NaN(), math.Inf(1), math.Inf(-1)}

// byteArgs builds a method's arguments from the fuzzer's bytes.
type byteArgs struct{ b []byte }

func (a *byteArgs) next() byte {
	if len(a.b) == 0 {
		return 0
	}
	c := a.b[0]
	a.b = a.b[1:]
	return c
}

func (a *byteArgs) value(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(int8(a.next())) % 24) // indices −23…23, −1 included
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(a.next()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(fuzzFloats[int(a.next())%len(fuzzFloats)])
	case reflect.Bool:
		v.SetBool(a.next()&1 == 1)
	case reflect.String:
		v.SetString([]string{"", "ParamAngleX", "Idle", "Tap", "x", "\xff"}[int(a.next())%6])
	case reflect.Slice:
		if depth < 2 {
			n := int(a.next()) % 8
			s := reflect.MakeSlice(t, n, n)
			for i := 0; i < n; i++ {
				s.Index(i).Set(a.value(t.Elem(), depth+1))
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			v.Index(i).Set(a.value(t.Elem(), depth+1))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).CanSet() {
				v.Field(i).Set(a.value(t.Field(i).Type, depth+1))
			}
		}
	case reflect.Func:
		v.Set(reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
			out := make([]reflect.Value, t.NumOut())
			for i := range out {
				out[i] = reflect.Zero(t.Out(i))
			}
			return out
		}))
	}
	return v
}

// FuzzRigAPI plays arbitrary sequences of calls of the Rig API (the rig
// and its views), with indices in and out of range and floats up to the
// extremes and beyond, on a character and on an advanced model: no call
// panics but for an index out of range (in the package's words), and while
// the rig is live its vertices stay finite (a rig whose output would not
// be finite fails instead, docs/LIMITS.md).
func FuzzRigAPI(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte("\x10\x03\x05\x20\x0d\x0e\x0f\x30\x11\x12"))
	for i := range rigMethods {
		f.Add([]byte{1, byte(i), 12, 13, 14, byte(i), 15, 3, 4})
	}
	models := []*p2l.Model{p2l.ModelForTest(synth.Character(2)), p2l.ModelForTest(synth.Advanced(synth.AdvancedOptions{}))}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		r := models[int(data[0])%len(models)].NewRig()
		args := &byteArgs{b: data[1:]}
		for calls := 0; len(args.b) > 0 && calls < 64; calls++ {
			m := rigMethods[int(args.next())%len(rigMethods)]
			in := make([]reflect.Value, 0, m.Type.NumIn()-1)
			for k := 1; k < m.Type.NumIn(); k++ {
				in = append(in, args.value(m.Type.In(k), 0))
			}
			var recv reflect.Value
			for _, v := range views(r) {
				if v.Type() == m.Type.In(0) {
					recv = v
				}
			}
			if _, msg := call(recv, m.Name, in); msg != "" && !indexPanic(msg) {
				t.Fatalf("%v.%s%v: panic %q", recv.Type(), m.Name, in, msg)
			}
			if r.Err() != nil {
				continue
			}
			for i := range r.Model().Meshes().Len() {
				for _, v := range r.Mesh(i).Vertices() {
					if v-v != 0 {
						t.Fatalf("after %s%v: mesh %d has vertex %v on a live rig", m.Name, in, i, v)
					}
				}
			}
		}
	})
}
