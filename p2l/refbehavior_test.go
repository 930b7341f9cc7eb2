package p2l_test

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// refBehaviorRun is one playback of the default character with behaviors,
// given to p2lref as command-line options and to our rig as the same calls.
type refBehaviorRun struct {
	name      string
	dt        float32 // as the reference reads --dt (f32)
	frames    int
	behaviors int    // -1: the rig's default (no --behaviors, no SetBehaviors)
	seed      uint32 // --seed / SetBehaviorSeed (the reference's first rig and ours differ otherwise)
	look      *[2]float32
	lip       *float32
	clip      string
	physics   bool // else --stages without physics (16)
}

// refBehaviorRuns: the rig's default behaviors (blink and breath); blink,
// breath and look-at (7); all four (15); 7 under a clip; each at dt = 1/64
// (exact: both clocks agree) and at the f32 of 1/60 (the reference's f32
// clock drifts from ours), with and without physics.
var refBehaviorRuns = func() []refBehaviorRun {
	var runs []refBehaviorRun
	for _, r := range []refBehaviorRun{
		{name: "default behaviors", frames: 600, behaviors: -1, seed: 5},
		{name: "behaviors 7, look (0.6, -0.4)", frames: 300, behaviors: 7, seed: 5, look: &[2]float32{0.6, -0.4}},
		{name: "behaviors 15, look (-0.8, 0.5), lip 0.45", frames: 300, behaviors: 15, seed: 9, look: &[2]float32{-0.8, 0.5}, lip: ptr[float32](0.45)},
		{name: "behaviors 7, look (0.3, 0.7), clip Idle", frames: 300, behaviors: 7, seed: 5, look: &[2]float32{0.3, 0.7}, clip: "Idle"},
	} {
		for _, dt := range []float32{1.0 / 64, 1.0 / 60} {
			for _, phys := range []bool{false, true} {
				r.dt, r.physics = dt, phys
				runs = append(runs, r)
			}
		}
	}
	return runs
}()

// bounds are what a run may differ by: the parameters other than the eye
// openings (a fraction of their range), the eye openings on all but
// blinkFrames frames, and the vertices on frames where the eyes agree.
// The default character is a file, so it plays in reference arithmetic
// (PlaybackReference): the behaviors' clock, blink timeline, sways and gaze
// are float32 as behavior.rs computes them, and physics is physics.rs's.
// What remains is the harness's decimal output read back as float64 (it
// prints the shortest float32 decimals) and physics's own float rounding:
// measured ≤ 7e-8 of the range and 6.1e-4 px without physics, ≤ 4.7e-7
// with, at both dt — before the behaviors were float32, dt = f32(1/60)
// started one blink a frame later (eyes 1/6 apart on 15 frames, 10.9 px).
func (r refBehaviorRun) bounds() (other, eye, vertex float64, blinkFrames int) {
	other, eye, vertex = 2e-7, 1e-7, 2e-3
	if r.physics {
		other = 2e-6
	}
	return
}

func ptr[T any](v T) *T { return &v }

// TestReferenceBehaviorsLive plays the default character with behaviors in
// the reference runtime (P2L_REF names the p2lref harness, which is not
// part of this repository) and in our rig, frame by frame, and compares
// every parameter and vertex. It also checks that the reference moves the
// behavior parameters at all: it drives behaviors only through the ROLE
// chunk, so this fails if the character's roles go missing.
func TestReferenceBehaviorsLive(t *testing.T) {
	bin := os.Getenv("P2L_REF")
	if bin == "" {
		t.Skip("P2L_REF not set (path of the reference harness p2lref)")
	}
	const file = "../assets/default.p2lrt"
	m, err := p2l.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range refBehaviorRuns {
		name := fmt.Sprintf("%s, dt %v, physics %v", run.name, run.dt, run.physics)
		args := []string{"update", file, "--dt", strconv.FormatFloat(float64(run.dt), 'g', -1, 32),
			"--frames", strconv.Itoa(run.frames), "--seed", strconv.FormatUint(uint64(run.seed), 10)}
		stages := p2l.AllStages
		if !run.physics {
			stages &^= p2l.StagePhysics
			args = append(args, "--stages", strconv.Itoa(int(stages)))
		}
		r := m.NewRig()
		r.SetBehaviorSeed(uint64(run.seed))
		if run.behaviors >= 0 {
			args = append(args, "--behaviors", strconv.Itoa(run.behaviors))
			r.SetBehaviors(p2l.Behavior(run.behaviors))
		}
		if run.clip != "" {
			args = append(args, "--clip", run.clip)
			r.Layer(0).Start(m.ClipIndex(run.clip))
		}
		if run.look != nil {
			args = append(args, "--look", strconv.FormatFloat(float64(run.look[0]), 'g', -1, 32)+","+strconv.FormatFloat(float64(run.look[1]), 'g', -1, 32))
			r.LookAt(run.look[0], run.look[1])
		}
		if run.lip != nil {
			args = append(args, "--lip", strconv.FormatFloat(float64(*run.lip), 'g', -1, 32))
			r.LipSync(*run.lip, [5]float32{}) // switches lip sync on, as the bits given do
		}
		otherBound, eyeBound, vertexBound, blinkFrames := run.bounds()
		var worstOther, worstEye, worstV float64
		worstID, eyeFrames, frames := "", 0, 0
		refMoved := map[string]bool{}
		for _, ref := range refLines[refEval](t, bin, args) {
			r.UpdateStages(float64(run.dt), stages)
			frames++
			var other, eye, v float64
			for i, rp := range ref.Parameters {
				p := m.Parameters().At(i)
				want := min(max(num(rp.Current), float64(p.Min)), float64(p.Max)) // reported before the clamp
				if want != float64(p.Default) {
					refMoved[p.ID] = true
				}
				d := math.Abs(float64(r.ParameterCurrent(i))-want) / float64(p.Max-p.Min)
				if p.ID == "ParamEyeLOpen" || p.ID == "ParamEyeROpen" {
					eye = max(eye, d)
				} else if d > other {
					other = d
					if d > worstOther {
						worstID = p.ID
					}
				}
			}
			for _, rm := range ref.Meshes {
				mv := r.Mesh(rm.Index).Vertices()
				for k := range mv {
					v = max(v, absDiff(mv[k], rm.Vertices[k]))
				}
			}
			worstOther, worstEye, worstV = max(worstOther, other), max(worstEye, eye), max(worstV, v)
			if eye > eyeBound {
				eyeFrames++
				if eye > float64(run.dt)/0.1+1e-5 {
					t.Errorf("%s frame %d: eye openings differ by %.3g, more than one frame of the closing ramp", name, frames, eye)
				}
			}
			if other > otherBound || (eye <= eyeBound && v > vertexBound) {
				t.Errorf("%s frame %d: parameters differ by %.3g of the range (eyes %.3g), vertices by %.3g px", name, frames, other, eye, v)
			}
		}
		if frames != run.frames {
			t.Fatalf("%s: %d reference frames, want %d", name, frames, run.frames)
		}
		if eyeFrames > blinkFrames {
			t.Errorf("%s: the eyes differ beyond %.0e on %d frames, more than %d", name, eyeBound, eyeFrames, blinkFrames)
		}
		for _, id := range []string{"ParamBreath", "ParamAngleX", "ParamAngleY", "ParamAngleZ", "ParamBodyAngleX", "ParamEyeLOpen", "ParamEyeROpen"} {
			if !refMoved[id] {
				t.Errorf("%s: the reference never moves %s (the character's ROLE chunk lacks it?)", name, id)
			}
		}
		if run.look != nil && (!refMoved["ParamEyeBallX"] || !refMoved["ParamEyeBallY"]) {
			t.Errorf("%s: the reference's gaze does not move the eyeballs", name)
		}
		t.Logf("%s, %d frames: parameters within %.3g of their range (%s), eye openings %.3g (%d frames beyond %.0e), vertices within %.3g px",
			name, frames, worstOther, worstID, worstEye, eyeFrames, eyeBound, worstV)
	}
}
