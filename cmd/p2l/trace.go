package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Bounds of trace (docs/LIMITS.md): frames, whether from --frames or from
// the last --input line, and the size of the --input file.
const (
	maxTraceFrames    = 10_000_000
	maxTraceInputSize = 64 << 20
)

func init() {
	register(&command{name: "trace",
		usage:   "FILE [--clip NAME] [--expression NAME] [--input frames.jsonl] [--dt 0.016] [--frames N] [--behaviors default] [--seed 1]",
		summary: "run Update frame by frame and print one JSON line per frame (deterministic)", run: runTrace})
}

// traceInput is one line of a --input file: what to do before updating
// frame Frame (0-based). Names are ids (clips, expressions, parameters).
type traceInput struct {
	Frame            int                   `json:"frame"`
	Set              map[string]float32    `json:"set"`      // host parameters
	Override         map[string][2]float32 `json:"override"` // id: [value, weight]
	LookAt           *[2]float32           `json:"lookAt"`
	LipSync          *float32              `json:"lipSync"`
	Play             *string               `json:"play"`
	PlayLayer        *tracePlayLayer       `json:"playLayer"`
	StopLayer        *int                  `json:"stopLayer"`
	LayerWeight      *traceLayerWeight     `json:"layerWeight"`
	Seek             *float64              `json:"seek"`
	Expression       *string               `json:"expression"`
	AddExpression    *string               `json:"addExpression"`
	RemoveExpression *string               `json:"removeExpression"`
	Behaviors        *[]string             `json:"behaviors"`
	Strength         *float32              `json:"strength"`
	Seed             *uint64               `json:"seed"`
	ShowPose         *[2]int               `json:"showPose"`
	Opacity          *float32              `json:"opacity"`
	Wind             *[2]float32           `json:"wind"`
	Stabilize        bool                  `json:"stabilize"`
}

type tracePlayLayer struct {
	Layer    int    `json:"layer"`
	Clip     string `json:"clip"`
	Priority int    `json:"priority"`
}

type traceLayerWeight struct {
	Layer  int     `json:"layer"`
	Weight float32 `json:"weight"`
}

var behaviorNames = map[string]p2l.Behavior{
	"blink": p2l.BehaviorBlink, "breath": p2l.BehaviorBreath, "lookAt": p2l.BehaviorLookAt, "lipSync": p2l.BehaviorLipSync,
}

// behaviorsUsage is the help text of the --behaviors flag of render and trace.
const behaviorsUsage = "procedural behaviors from the start: a comma list of blink, breath, lookAt, lipSync, or none, default (blink,breath: a new rig's), all"

// parseBehaviors reads a --behaviors value.
func parseBehaviors(s string) (p2l.Behavior, error) {
	switch s {
	case "none":
		return 0, nil
	case "default":
		return p2l.DefaultBehaviors, nil
	case "all":
		return p2l.AllBehaviors, nil
	}
	var b p2l.Behavior
	for _, n := range strings.Split(s, ",") {
		x, ok := behaviorNames[strings.TrimSpace(n)]
		if !ok {
			return 0, fmt.Errorf("--behaviors: unknown behavior %q (blink, breath, lookAt, lipSync; or none, default, all)", n)
		}
		b |= x
	}
	return b, nil
}

func runTrace(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	clip := fs.String("clip", "", "clip id to play on layer 0 from the start")
	expr := fs.String("expression", "", "expression id to set from the start")
	input := fs.String("input", "", "JSON lines of per-frame input")
	dt := fs.Float64("dt", 0.016, "seconds per frame")
	frames := fs.Int("frames", 0, "number of frames (default: 60, or up to the last input frame)")
	behaviors := fs.String("behaviors", "default", behaviorsUsage)
	seed := fs.Uint64("seed", 1, "behavior seed (SetBehaviorSeed; the blink timeline)")
	pos, code := parseArgs(fs, commands["trace"], args, 1, stdout, stderr)
	if code >= 0 {
		return code
	}
	if !(*dt > 0) || *dt > 10 || *frames < 0 || *frames > maxTraceFrames {
		fmt.Fprintf(stderr, "p2l trace: --dt must be in (0, 10] and --frames in [0, %d]\n", maxTraceFrames)
		return 2
	}
	beh, err := parseBehaviors(*behaviors)
	if err != nil {
		fmt.Fprintln(stderr, "p2l trace:", err)
		return 2
	}
	src, err := openModel(pos[0], "p2l trace", stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	m := src.model
	var inputs []traceInput
	if *input != "" {
		inputs, err = readTraceInput(*input)
		if err != nil {
			fmt.Fprintln(stderr, "p2l trace:", err)
			return 1
		}
	}
	n := *frames
	if n == 0 {
		n = 60
		if len(inputs) > 0 && inputs[len(inputs)-1].Frame+1 > n {
			n = inputs[len(inputs)-1].Frame + 1
		}
	}
	r := m.NewRig()
	if err := r.Err(); err != nil {
		fmt.Fprintln(stderr, "p2l trace:", err)
		return 1
	}
	r.SetBehaviors(beh)
	r.SetBehaviorSeed(*seed) // deterministic whatever rigs the process made before
	if *clip != "" {
		c := m.ClipIndex(*clip)
		if c < 0 {
			fmt.Fprintf(stderr, "p2l trace: unknown clip %q; clips: %s\n", *clip, clipList(m))
			return 1
		}
		r.Layer(0).Start(c)
	}
	if *expr != "" {
		x := m.ExpressionIndex(*expr)
		if x < 0 {
			fmt.Fprintf(stderr, "p2l trace: unknown expression %q\n", *expr)
			return 1
		}
		if x < 0 {
			r.Expressions().Clear()
		} else {
			r.Expressions().Set(x)
		}
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	var line []byte
	next := 0
	for f := 0; f < n; f++ {
		stabilize := false
		for next < len(inputs) && inputs[next].Frame == f {
			s, err := applyTraceInput(m, r, &inputs[next])
			if err != nil {
				fmt.Fprintf(stderr, "p2l trace: input line for frame %d: %v\n", f, err)
				return 1
			}
			stabilize = stabilize || s
			next++
		}
		r.Update(*dt)
		if stabilize {
			r.Physics().Stabilize()
		}
		if err := r.Err(); err != nil {
			fmt.Fprintln(stderr, "p2l trace:", err)
			return 1
		}
		line = appendTraceFrame(line[:0], m, r, f, float64(f+1)**dt)
		w.Write(line)
	}
	return 0
}

func clipList(m *p2l.Model) string {
	var b bytes.Buffer
	for i, c := range m.Clips().All() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.ID)
	}
	if b.Len() == 0 {
		return "(none)"
	}
	return b.String()
}

func readTraceInput(name string) ([]traceInput, error) {
	data, err := p2lrt.ReadFile(name, &p2lrt.DecodeOptions{MaxFileSize: maxTraceInputSize})
	if err != nil {
		return nil, err
	}
	return parseTraceInput(name, data)
}

// parseTraceInput parses JSON lines of input; name is for the messages.
func parseTraceInput(name string, data []byte) ([]traceInput, error) {
	var out []traceInput
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for ln := 1; sc.Scan(); ln++ {
		t := bytes.TrimSpace(sc.Bytes())
		if len(t) == 0 {
			continue
		}
		var in traceInput
		d := json.NewDecoder(bytes.NewReader(t))
		d.DisallowUnknownFields()
		if err := d.Decode(&in); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, ln, err)
		}
		if in.Frame < 0 || in.Frame >= maxTraceFrames {
			return nil, fmt.Errorf("%s:%d: frame %d is outside [0, %d)", name, ln, in.Frame, maxTraceFrames)
		}
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Frame < out[b].Frame })
	return out, nil
}

// applyTraceInput applies one input line; it reports whether physics
// stabilization was requested (done after the frame's update).
func applyTraceInput(m *p2l.Model, r *p2l.Rig, in *traceInput) (bool, error) {
	param := func(id string) (int, error) {
		i := m.ParameterIndex(id)
		if i < 0 {
			return -1, fmt.Errorf("unknown parameter %q", id)
		}
		return i, nil
	}
	for _, id := range sortedKeys(in.Set) {
		i, err := param(id)
		if err != nil {
			return false, err
		}
		r.SetParameter(i, in.Set[id])
	}
	for _, id := range sortedKeys(in.Override) {
		i, err := param(id)
		if err != nil {
			return false, err
		}
		r.SetParameterOverride(i, in.Override[id][0], in.Override[id][1])
	}
	if in.Behaviors != nil {
		var b p2l.Behavior
		for _, n := range *in.Behaviors {
			x, ok := behaviorNames[n]
			if !ok {
				return false, fmt.Errorf("unknown behavior %q (blink, breath, lookAt, lipSync)", n)
			}
			b |= x
		}
		r.SetBehaviors(b)
	}
	if in.Seed != nil {
		r.SetBehaviorSeed(*in.Seed)
	}
	if in.Strength != nil {
		s := r.BehaviorSettings()
		s.Strength = *in.Strength
		r.SetBehaviorSettings(s)
	}
	if in.LookAt != nil {
		r.LookAt(in.LookAt[0], in.LookAt[1])
	}
	if in.LipSync != nil {
		r.LipSync(*in.LipSync, [5]float32{})
	}
	clipIdx := func(id string) (int, error) {
		c := m.ClipIndex(id)
		if c < 0 {
			return -1, fmt.Errorf("unknown clip %q; clips: %s", id, clipList(m))
		}
		return c, nil
	}
	exprIdx := func(id string) (int, error) {
		if id == "" {
			return -1, nil
		}
		x := m.ExpressionIndex(id)
		if x < 0 {
			return -1, fmt.Errorf("unknown expression %q", id)
		}
		return x, nil
	}
	if in.Play != nil {
		c, err := clipIdx(*in.Play)
		if err != nil {
			return false, err
		}
		r.Layer(0).Start(c)
	}
	// The script's layer numbers are checked here: the rig panics on an
	// index out of range, and a script is file content.
	layer := func(l int) (p2l.LayerState, error) {
		if l < 0 || l >= p2l.MaxLayers {
			return p2l.LayerState{}, fmt.Errorf("layer %d out of range [0, %d)", l, p2l.MaxLayers)
		}
		return r.Layer(l), nil
	}
	if in.PlayLayer != nil {
		c, err := clipIdx(in.PlayLayer.Clip)
		if err != nil {
			return false, err
		}
		l, err := layer(in.PlayLayer.Layer)
		if err != nil {
			return false, err
		}
		l.Play(c, in.PlayLayer.Priority)
	}
	if in.StopLayer != nil {
		l, err := layer(*in.StopLayer)
		if err != nil {
			return false, err
		}
		l.Stop()
	}
	if in.LayerWeight != nil {
		l, err := layer(in.LayerWeight.Layer)
		if err != nil {
			return false, err
		}
		l.SetWeight(in.LayerWeight.Weight)
	}
	if in.Seek != nil {
		r.Layer(0).Seek(*in.Seek)
	}
	if in.Expression != nil {
		x, err := exprIdx(*in.Expression)
		if err != nil {
			return false, err
		}
		if x < 0 {
			r.Expressions().Clear()
		} else {
			r.Expressions().Set(x)
		}
	}
	if in.AddExpression != nil {
		x, err := exprIdx(*in.AddExpression)
		if err != nil {
			return false, err
		}
		if x >= 0 {
			r.Expressions().Add(x)
		}
	}
	if in.RemoveExpression != nil {
		x, err := exprIdx(*in.RemoveExpression)
		if err != nil {
			return false, err
		}
		if x >= 0 {
			r.Expressions().Remove(x)
		}
	}
	if in.ShowPose != nil {
		g, e := in.ShowPose[0], in.ShowPose[1]
		pose, _ := m.Pose()
		groups := pose.Groups
		if g < 0 || g >= len(groups) || e < 0 || e >= len(groups[g].Entries) {
			return false, fmt.Errorf("showPose %d, %d: no such pose group and entry", g, e)
		}
		r.ShowPose(g, e)
	}
	if in.Opacity != nil {
		r.SetHostOpacity(*in.Opacity)
	}
	if in.Wind != nil {
		r.Physics().SetWind(in.Wind[0], in.Wind[1])
	}
	return in.Stabilize, nil
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

// appendTraceFrame writes one frame as a JSON line, keys in model order.
func appendTraceFrame(b []byte, m *p2l.Model, r *p2l.Rig, frame int, t float64) []byte {
	b = append(b, `{"frame":`...)
	b = strconv.AppendInt(b, int64(frame), 10)
	b = append(b, `,"time":`...)
	b = strconv.AppendFloat(b, t, 'g', -1, 64)
	b = append(b, `,"parameters":{`...)
	for i := range m.Parameters().Len() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, m.Parameters().At(i).ID)
		b = append(b, ':')
		b = appendF32(b, r.ParameterCurrent(i))
	}
	b = append(b, `},"parts":{`...)
	for i := range m.Parts().Len() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, m.Parts().At(i).ID)
		b = append(b, ':')
		b = appendF32(b, r.Part(i).OpacityMultiplier())
	}
	b = append(b, `},"opacity":`...)
	b = appendF32(b, r.OpacityMultiplier())
	b = append(b, `,"events":[`...)
	for k, e := range r.Events() {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"value":`...)
		b = strconv.AppendQuote(b, e.Value)
		b = append(b, `,"layer":`...)
		b = strconv.AppendInt(b, int64(e.Layer), 10)
		b = append(b, `,"clip":`...)
		b = strconv.AppendQuote(b, m.Clips().At(e.Clip).ID)
		b = append(b, `,"time":`...)
		b = appendF32(b, e.Time)
		if e.Finished {
			b = append(b, `,"finished":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, "]}\n"...)
	return b
}

// appendF32 writes v as the shortest JSON number that reads back as the
// same float32 (null for NaN or infinities, which JSON lacks).
func appendF32(b []byte, v float32) []byte {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, float64(v), 'g', -1, 32)
}
