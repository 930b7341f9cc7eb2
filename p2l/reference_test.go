package p2l_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// This file compares our evaluation with PSD2Live's reference runtime
// (runtime/src/*.rs of pattoneirc/psd2live, built outside the repository and
// driven by the p2lref harness, see docs/FORMAT.md "Checked against the
// reference runtime").
//
//   - TestReferenceExpectations (always runs) reads the reference's answers
//     committed in testdata/reference/*.jsonl — lines printed by
//     `p2lref eval FILE --param #i=v ...` — and checks that our evaluation of
//     the same file at the same pose agrees.
//   - With P2L_REF=/path/to/p2lref, TestReferenceLive runs the harness on
//     more poses and files (our written models) and compares directly; with
//     P2L_REF_WRITE=1 as well it rewrites the committed expectations.

// refEval is the part of p2lref's `eval` output we compare.
type refEval struct {
	OK         *bool     `json:"ok"` // absent from `update` lines
	Error      string    `json:"error"`
	Cmd        string    `json:"cmd,omitempty"`  // added when recorded: how the line was made
	File       string    `json:"file,omitempty"` // repository path, or "fixture:NAME" (reflayout_test.go)
	Setup      *refSetup `json:"setup,omitempty"`
	SHA256     string    `json:"sha256,omitempty"` // of the file the reference read
	Parameters []struct {
		ID      string   `json:"id"`
		Value   *float64 `json:"value"`
		Current *float64 `json:"current"`
	} `json:"parameters"`
	Meshes []struct {
		Index     int        `json:"index"`
		Vertices  []*float64 `json:"vertices"`
		Opacity   *float64   `json:"opacity"`
		Multiply  []*float64 `json:"multiply"`
		Screen    []*float64 `json:"screen"`
		DrawOrder *float64   `json:"draw_order"`
	} `json:"meshes"`
	RenderOrder    []int `json:"render_order"`
	RenderCommands []int `json:"render_commands"`
	Parts          []struct {
		Index      int        `json:"index"`
		Blend      int        `json:"blend"`
		AlphaBlend int        `json:"alpha_blend"`
		InvertMask bool       `json:"invert_mask"`
		Opacity    *float64   `json:"opacity"`
		Multiply   []*float64 `json:"multiply"`
		Screen     []*float64 `json:"screen"`
	} `json:"parts"`
}

// refSetup is what was done to the rig before the answer: the host pose
// (every parameter by index) and, for `update`, Frames updates of Dt
// seconds running Stages.
type refSetup struct {
	Pose   []float32 `json:"pose"`
	Dt     float64   `json:"dt,omitempty"`
	Frames int       `json:"frames,omitempty"`
	Stages int       `json:"stages,omitempty"`
}

// refDiff accumulates the largest differences of one comparison.
type refDiff struct {
	vertex, opacity, color, drawOrder float64
	floats, differ                    int // vertex floats compared as float32, and how many are not bit-identical
	problems                          []string
}

func (d *refDiff) problem(format string, args ...any) {
	if len(d.problems) < 8 {
		d.problems = append(d.problems, fmt.Sprintf(format, args...))
	}
}

func num(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func absDiff(a float32, b *float64) float64 {
	d := math.Abs(float64(a) - num(b))
	if math.IsNaN(d) {
		return math.Inf(1)
	}
	return d
}

// compareRef evaluates m at the host pose the reference line records and
// compares. Tolerances: vertices 2e-3 px (the reference evaluates in f32,
// we in f64), opacities and colors 1e-5, draw orders 1e-3.
func compareRef(m *p2l.Model, ref *refEval) *refDiff {
	d := &refDiff{}
	r := m.NewRig()
	st := ref.Setup
	for i, v := range st.Pose {
		r.SetParameter(i, v)
	}
	if st.Frames > 0 {
		r.SetBehaviors(0) // p2lref --behaviors 0
		for k := 0; k < st.Frames; k++ {
			r.UpdateStages(st.Dt, p2l.Stage(st.Stages))
		}
	} else {
		r.Evaluate() // p2l_evaluate (POSE groups in their starting state)
	}
	if r.Err() != nil {
		d.problem("our rig: %v", r.Err())
		return d
	}
	for i, p := range ref.Parameters {
		if got := r.ParameterCurrent(i); absDiff(got, p.Current) > 1e-5 { // physics: f32 there, f64 here
			d.problem("parameter %s current %v, reference %v", p.ID, got, num(p.Current))
		}
	}
	for _, rm := range ref.Meshes {
		i := rm.Index
		v := r.Mesh(i).Vertices()
		if len(v) != len(rm.Vertices) {
			d.problem("mesh %d: %d vertex floats, reference %d", i, len(v), len(rm.Vertices))
			continue
		}
		for k := range v {
			d.vertex = max(d.vertex, absDiff(v[k], rm.Vertices[k]))
			d.floats++
			if rm.Vertices[k] == nil || math.Float32bits(v[k]) != math.Float32bits(float32(*rm.Vertices[k])) {
				d.differ++
			}
		}
		d.opacity = max(d.opacity, absDiff(r.Mesh(i).Opacity(), rm.Opacity))
		mul, scr := r.Mesh(i).Colors()
		for k := 0; k < 3; k++ {
			d.color = max(d.color, absDiff(mul[k], rm.Multiply[k]), absDiff(scr[k], rm.Screen[k]))
		}
		d.drawOrder = max(d.drawOrder, absDiff(r.Mesh(i).DrawOrder(), rm.DrawOrder))
	}
	order := r.RenderOrder()
	if fmt.Sprint(order) != fmt.Sprint(ref.RenderOrder) {
		d.problem("render order %v, reference %v", order, ref.RenderOrder)
	}
	cmds := make([]int, 0, len(r.RenderCommands()))
	for _, c := range r.RenderCommands() {
		cmds = append(cmds, int(c))
	}
	if fmt.Sprint(cmds) != fmt.Sprint(ref.RenderCommands) {
		d.problem("render commands %v, reference %v", cmds, ref.RenderCommands)
	}
	for _, rp := range ref.Parts {
		c := r.Part(rp.Index).Composite()
		if int(c.Blend) != rp.Blend || int(c.AlphaBlend) != rp.AlphaBlend || c.InvertMask != rp.InvertMask {
			d.problem("part %d group: blend %d/%d invert %v, reference %d/%d %v", rp.Index, c.Blend, c.AlphaBlend, c.InvertMask, rp.Blend, rp.AlphaBlend, rp.InvertMask)
		}
		d.opacity = max(d.opacity, absDiff(c.Opacity, rp.Opacity))
		for k := 0; k < 3; k++ {
			d.color = max(d.color, absDiff(c.Multiply[k], rp.Multiply[k]), absDiff(c.Screen[k], rp.Screen[k]))
		}
	}
	if d.vertex > 2e-3 {
		d.problem("vertices differ by %.3g px", d.vertex)
	}
	if d.opacity > 1e-5 {
		d.problem("opacities differ by %.3g", d.opacity)
	}
	if d.color > 1e-5 {
		d.problem("colors differ by %.3g", d.color)
	}
	if d.drawOrder > 1e-3 {
		d.problem("draw orders differ by %.3g", d.drawOrder)
	}
	return d
}

const refDir = "testdata/reference"

// loadRefFile loads a repository file or a reflayout_test.go fixture.
func loadRefFile(name string) (*p2l.Model, []byte, error) {
	var data []byte
	if f, ok := strings.CutPrefix(name, "synth:"); ok {
		var m *p2l.Model
		switch f {
		case "character":
			m = p2l.ModelForTest(synth.Character(1))
		case "advanced":
			m = p2l.ModelForTest(synth.Advanced(synth.AdvancedOptions{}))
		default:
			return nil, nil, fmt.Errorf("no synthetic model %q", f)
		}
		var b bytes.Buffer
		if err := p2l.Write(&b, m, nil); err != nil {
			return nil, nil, err
		}
		data = b.Bytes()
	} else if f, ok := strings.CutPrefix(name, "fixture:"); ok {
		data = p2l.ReferenceFixtures()[f]
		if data == nil {
			return nil, nil, fmt.Errorf("no fixture %q", f)
		}
	} else {
		var err error
		if data, err = os.ReadFile(filepath.Join("..", name)); err != nil {
			return nil, nil, err
		}
	}
	m, err := p2l.Load(data)
	return m, data, err
}

// TestReferenceExpectations checks our evaluation against the reference
// runtime's answers committed in testdata/reference.
func TestReferenceExpectations(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(refDir, "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no committed reference expectations")
	}
	models := map[string]*p2l.Model{}
	sums := map[string]string{}
	lines := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		n := 0
		for sc.Scan() {
			n++
			var ref refEval
			if err := json.Unmarshal(sc.Bytes(), &ref); err != nil {
				t.Fatalf("%s:%d: %v", f, n, err)
			}
			if ref.Setup == nil || ref.Error != "" {
				t.Fatalf("%s:%d: no setup, or the reference failed", f, n)
			}
			m := models[ref.File]
			if m == nil {
				var data []byte
				if m, data, err = loadRefFile(ref.File); err != nil {
					t.Fatalf("%s:%d: %s: %v", f, n, ref.File, err)
				}
				models[ref.File], sums[ref.File] = m, sha(data)
			}
			if sums[ref.File] != ref.SHA256 {
				t.Fatalf("%s changed since the reference answers in %s were recorded: with the reference harness, rerun "+
					"P2L_REF=/work/ref/bin/p2lref P2L_REF_WRITE=1 go test ./p2l -run TestReferenceLive (and check what changed)", ref.File, f)
			}
			d := compareRef(m, &ref)
			for _, p := range d.problems {
				t.Errorf("%s:%d: %s", filepath.Base(f), n, p)
			}
		}
		fh.Close()
		lines += n
	}
	t.Logf("%d reference answers in %d files agree", lines, len(files))
}

// refCase is one file and what to ask the reference about it.
type refCase struct {
	name  string // expectation file stem
	file  string // repository-relative path or "fixture:NAME"
	poses int    // random poses beyond the default (and each parameter's ends, with ends)
	ends  bool   // also every parameter at its min and at its max alone
	// live: asked only by TestReferenceLive, not recorded (too large to commit).
	live bool
	// settle asks for `update` instead: physics only, Frames × Dt, at Pose.
	settle *refSetup
}

var refCases = []refCase{
	// The default character changes with its art: asked live only, so that
	// an art change does not need the harness.
	{name: "default", file: "assets/default.p2lrt", poses: 5, ends: true, live: true},
	{name: "conformance-features", file: "testdata/conformance/features.p2lrt", poses: 2, ends: true},
	{name: "conformance-groups", file: "testdata/conformance/groups.p2lrt", poses: 2, ends: true},
	{name: "conformance-blend-matrix", file: "testdata/conformance/blend-matrix.p2lrt"},
	{name: "fixture-v2-minimal", file: "fixture:v2-minimal", ends: true},
	{name: "fixture-v1-minimal", file: "fixture:v1-minimal", ends: true},
	{name: "fixture-binding-absent-keys", file: "fixture:binding-absent-keys", poses: 2, ends: true},
	{name: "fixture-empty-deltas", file: "fixture:empty-deltas", poses: 2, ends: true},
	{name: "fixture-keyformless", file: "fixture:keyformless", ends: true},
	{name: "fixture-page-without-texr", file: "fixture:page-without-texr"},
	{name: "fixture-handbuilt-phys-chunk", file: "fixture:handbuilt-phys-chunk"},
	{name: "fixture-physics", file: "fixture:physics", poses: 1, ends: true},
	// Our writer's output, every chunk (live only: the fixture model is
	// edited by others).
	{name: "writer-full-model", file: "fixture:writer-full-model", poses: 3, ends: true, live: true},
	{name: "writer-synth-character", file: "synth:character", poses: 3, live: true},
	{name: "writer-synth-advanced", file: "synth:advanced", poses: 3, ends: true, live: true},
	{name: "fixture-physics-settled", file: "fixture:physics",
		settle: &refSetup{Pose: []float32{5, 0}, Dt: 1.0 / 30, Frames: 900, Stages: int(p2l.StagePhysics)}},
	{name: "fixture-v1-physics-clips-settled", file: "fixture:v1-physics-clips",
		settle: &refSetup{Pose: []float32{5, 0}, Dt: 1.0 / 30, Frames: 900, Stages: int(p2l.StagePhysics)}},
}

// refPoses lists the poses of a file: the default, with ends every
// parameter at its min and at its max alone, then random poses (seeded).
func refPoses(m *p2l.Model, random int, ends bool) [][]float32 {
	def := make([]float32, m.Parameters().Len())
	for i, p := range m.Parameters().All() {
		def[i] = p.Default
	}
	poses := [][]float32{def}
	for i, p := range m.Parameters().All() {
		if !ends {
			break
		}
		for _, v := range []float32{p.Min, p.Max} {
			q := append([]float32(nil), def...)
			q[i] = v
			poses = append(poses, q)
		}
	}
	rng := rand.New(rand.NewPCG(13, 1))
	for k := 0; k < random; k++ {
		q := make([]float32, len(def))
		for i, p := range m.Parameters().All() {
			q[i] = p.Min + float32(rng.Float64())*(p.Max-p.Min)
		}
		poses = append(poses, q)
	}
	return poses
}

// runRef asks p2lref about path (a file it can read) with setup; name is
// recorded as the file.
func runRef(t *testing.T, bin, path, name, sum string, st *refSetup) (*refEval, string) {
	t.Helper()
	args := []string{"eval", path}
	if st.Frames > 0 {
		args = []string{"update", path, "--dt", strconv.FormatFloat(st.Dt, 'g', -1, 64), "--frames", strconv.Itoa(st.Frames),
			"--stages", strconv.Itoa(st.Stages), "--last", "--behaviors", "0"}
	}
	for i, v := range st.Pose {
		args = append(args, "--param", "#"+strconv.Itoa(i)+"="+strconv.FormatFloat(float64(v), 'g', -1, 32))
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("p2lref %s: %v", strings.Join(args, " "), err)
	}
	var ref refEval
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatalf("p2lref output: %v", err)
	}
	if (ref.OK != nil && !*ref.OK) || ref.Error != "" {
		t.Fatalf("reference rejects %s: %s", name, ref.Error)
	}
	args[1] = name
	ref.Cmd = "p2lref " + strings.Join(args, " ")
	ref.File = name
	ref.Setup = st
	ref.SHA256 = sum
	return &ref, recordLine(out, &ref)
}

// TestReferenceLive compares with the reference runtime itself when
// P2L_REF names the p2lref binary (it is not part of this repository).
// P2L_REF_WRITE=1 rewrites testdata/reference from its answers.
func TestReferenceLive(t *testing.T) {
	bin := os.Getenv("P2L_REF")
	if bin == "" {
		t.Skip("P2L_REF not set (path of the reference harness p2lref)")
	}
	write := os.Getenv("P2L_REF_WRITE") == "1"
	tmp := t.TempDir()
	for _, c := range refCases {
		m, data, err := loadRefFile(c.file)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		path := c.file
		if strings.HasPrefix(c.file, "fixture:") || strings.HasPrefix(c.file, "synth:") {
			path = filepath.Join(tmp, c.name+".p2lrt")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var setups []*refSetup
		if c.settle != nil {
			setups = []*refSetup{c.settle}
		} else {
			for _, p := range refPoses(m, c.poses, c.ends) {
				setups = append(setups, &refSetup{Pose: p})
			}
		}
		var lines bytes.Buffer
		worst := &refDiff{}
		for _, st := range setups {
			ref, line := runRef(t, bin, path, c.file, sha(data), st)
			d := compareRef(m, ref)
			for _, p := range d.problems {
				t.Errorf("%s (pose %v): %s", c.name, st.Pose, p)
			}
			worst.vertex, worst.opacity = max(worst.vertex, d.vertex), max(worst.opacity, d.opacity)
			worst.color, worst.drawOrder = max(worst.color, d.color), max(worst.drawOrder, d.drawOrder)
			worst.floats, worst.differ = worst.floats+d.floats, worst.differ+d.differ
			lines.WriteString(line)
		}
		t.Logf("%s: %d answers; largest differences: vertex %.3g px, opacity %.3g, color %.3g, draw order %.3g; %d of %d vertex floats differ as float32",
			c.name, len(setups), worst.vertex, worst.opacity, worst.color, worst.drawOrder, worst.differ, worst.floats)
		if write && !c.live {
			if err := os.WriteFile(filepath.Join(refDir, c.name+".jsonl"), lines.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// recordLine is p2lref's JSON object plus how it was made (cmd, file,
// setup), one line.
func recordLine(raw []byte, ref *refEval) string {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		panic(err)
	}
	for k, v := range map[string]any{"cmd": ref.Cmd, "file": ref.File, "setup": ref.Setup, "sha256": ref.SHA256} {
		b, _ := json.Marshal(v)
		obj[k] = b
	}
	b, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
