package p2l_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestReferencePoseLive plays POSE groups whose parts are linked across
// entries (a link of one entry that is an entry of its own, a part linked
// by two entries, two groups writing one part) in the reference runtime
// (P2L_REF names the p2lref harness, not part of this repository) and in
// our rig, UpdateStages(dt, StagePose) frame by frame, each part over one
// mesh, and compares the mesh opacities.
func TestReferencePoseLive(t *testing.T) {
	bin := os.Getenv("P2L_REF")
	if bin == "" {
		t.Skip("P2L_REF not set (path of the reference harness p2lref)")
	}
	const parts = 5
	f := &p2lrt.File{Canvas: p2lrt.Canvas{Width: 60, Height: 10, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1}}
	for i := range parts {
		x := float32(10 * i)
		f.Meshes = append(f.Meshes, p2lrt.Mesh{ID: fmt.Sprint("M", i), Parent: -1, TexturePage: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible,
			Positions: []float32{x, 0, x + 10, 0, x, 10}, UVs: []float32{0, 0, 1, 0, 0, 1}, Indices: []uint32{0, 1, 2}, Opacity: 1, Multiply: p2lrt.White})
		f.Parts = append(f.Parts, p2lrt.Part{ID: fmt.Sprint("P", i), Flags: p2lrt.PartVisible,
			Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: i}}, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}})
		f.Draw.Children = append(f.Draw.Children, p2lrt.DrawNode{Mesh: i})
	}
	f.Pose = &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{
		{Entries: []p2lrt.PoseEntry{{Part: 0, Linked: []int{1}}, {Part: 1}, {Part: 2, Linked: []int{1, 3}}}},
		{Entries: []p2lrt.PoseEntry{{Part: 4, Linked: []int{3}}, {Part: 3}}},
	}}
	m := p2l.ModelForTest(f)
	var b bytes.Buffer
	if err := p2l.Write(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "pose.p2lrt")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := p2l.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []struct {
		dt     float32
		show   [][2]int
		frames int
	}{
		{dt: 1.0 / 64, frames: 3},
		{dt: 0, frames: 2},
		{dt: 1.0 / 16, show: [][2]int{{0, 1}, {1, 1}}, frames: 12},
		{dt: 1.0 / 16, show: [][2]int{{0, 2}}, frames: 12},
	} {
		args := []string{"update", file, "--dt", strconv.FormatFloat(float64(sc.dt), 'g', -1, 32), "--frames", strconv.Itoa(sc.frames),
			"--stages", strconv.Itoa(int(p2l.StagePose)), "--behaviors", "0"}
		r := m.NewRig()
		for _, s := range sc.show {
			args = append(args, "--pose", fmt.Sprintf("%d=%d", s[0], s[1]))
			r.ShowPose(s[0], s[1])
		}
		frames, worst := 0, 0.0
		for _, ref := range refLines[refEval](t, bin, args) {
			r.UpdateStages(float64(sc.dt), p2l.StagePose)
			frames++
			for _, rm := range ref.Meshes {
				d := math.Abs(float64(r.Mesh(rm.Index).Opacity()) - num(rm.Opacity))
				worst = max(worst, d)
				if d > 1e-6 {
					t.Errorf("%v frame %d: mesh %d opacity %v, reference %v", args[2:], frames, rm.Index, r.Mesh(rm.Index).Opacity(), num(rm.Opacity))
				}
			}
		}
		if frames != sc.frames {
			t.Fatalf("%v: %d reference frames", args, frames)
		}
		t.Logf("dt %v, show %v: %d frames, opacities within %.3g", sc.dt, sc.show, frames, worst)
	}
}
