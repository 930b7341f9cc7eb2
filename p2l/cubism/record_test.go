package cubism

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// recordEnv names the folder TestSampleRecording records into or compares
// with. The recordings are derived from the Live2D samples: keep them out
// of the repository (/tmp).
const recordEnv = "P2L_CUBISM_RECORD"

// TestSampleRecording guards changes that must not change any output (a
// faster lowering, preparation or evaluation): with P2L_CUBISM_RECORD=DIR,
// it writes, per sample, the lowered model as a .p2lrt and every output of
// a rig over a fixed sequence of poses, into DIR/NAME.model and
// DIR/NAME.frames when they are absent, and otherwise compares with them
// byte for byte (float bits). Record before the change, compare after.
func TestSampleRecording(t *testing.T) {
	dir := os.Getenv(recordEnv)
	if dir == "" {
		t.Skipf("set %s=DIR to record or compare the samples' outputs", recordEnv)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(cubismsamples.Moc(t, name))
			if err != nil {
				t.Fatal(err)
			}
			m, err := readMocModel(data)
			if err != nil {
				t.Fatal(err)
			}
			var model bytes.Buffer
			if err := p2l.Write(&model, m, nil); err != nil {
				t.Fatal(err)
			}
			compareOrRecord(t, filepath.Join(dir, name+".model"), model.Bytes())
			compareOrRecord(t, filepath.Join(dir, name+".frames"), recordFrames(t, m))
		})
	}
}

// recordFrames evaluates a fresh rig of m over a fixed sequence of poses
// (the default pose, every parameter moving, a few parameters moving so
// that kept results are reused, and back to the default) and returns every
// output of every frame, one block per frame.
func recordFrames(t *testing.T, m *p2l.Model) []byte {
	var out []byte
	f32 := func(v float32) { out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v)) }
	i32 := func(v int) { out = binary.LittleEndian.AppendUint32(out, uint32(int32(v))) }
	r := m.NewRig()
	frame := func() {
		r.Evaluate()
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		for i := range m.Meshes().Len() {
			for _, v := range r.Mesh(i).Vertices() {
				f32(v)
			}
			f32(r.Mesh(i).Opacity())
			mul, scr := r.Mesh(i).Colors()
			for c := range 3 {
				f32(mul[c])
				f32(scr[c])
			}
			f32(r.Mesh(i).DrawOrder())
			if r.Mesh(i).Visible() {
				i32(1)
			} else {
				i32(0)
			}
			i32(int(r.Mesh(i).Changes()))
		}
		for i := range m.Parts().Len() {
			f32(r.Part(i).Opacity())
			f32(r.Part(i).DrawOrder())
			mul, scr := r.Part(i).Colors()
			for c := range 3 {
				f32(mul[c])
				f32(scr[c])
			}
			g := r.Part(i).Composite()
			f32(g.Opacity)
			for c := range 3 {
				f32(g.Multiply[c])
				f32(g.Screen[c])
			}
		}
		cmds := r.RenderCommands()
		i32(len(cmds))
		for _, c := range cmds {
			i32(int(c))
		}
	}
	frame()
	for n := range 12 { // every parameter moving
		for i, p := range m.Parameters().All() {
			f := float32((n*7+i*3)%11) / 10
			r.SetParameter(i, p.Min+f*(p.Max-p.Min))
		}
		frame()
	}
	for n := range m.Parameters().Len() { // one or two parameters at a time
		for _, i := range []int{n, (n * 5) % m.Parameters().Len()} {
			p := m.Parameters().At(i)
			f := float32((n*3+i)%9) / 8
			r.SetParameter(i, p.Min+f*(p.Max-p.Min))
		}
		frame()
	}
	for n := range 6 { // outside the ranges (clamped) and back
		for i, p := range m.Parameters().All() {
			v := p.Default
			if (n+i)%3 == 0 {
				v = p.Max + float32(n)
			}
			r.SetParameter(i, v)
		}
		frame()
	}
	r.ResetParameters()
	frame()
	frame()
	return out
}

func compareOrRecord(t *testing.T, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %s (%d bytes)", path, len(got))
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		n := 0
		for n < len(got) && n < len(want) && got[n] == want[n] {
			n++
		}
		t.Errorf("%s: %d bytes, recorded %d; first difference at byte %d", path, len(got), len(want), n)
	}
}
