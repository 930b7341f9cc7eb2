// Package cubism imports Live2D Cubism animation files into a p2l.Model:
// motion3.json (clips, with UserData events, PartOpacity and Model
// Opacity/EyeBlink/LipSync curves and curve fades), physics3.json (including
// Y inputs and outputs), exp3.json (expressions) and pose3.json (pose
// groups). Cubism ids are mapped to the model's parameter and part ids.
//
// Defaults follow the Cubism framework's parsers: motion and expression fade
// times absent or negative are 1 s, pose fade-in absent or negative 0.5 s,
// curve fades absent "use the clip's" (−1). Errors name the file and the
// JSON field at fault.
package cubism

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// Error is an import error: File is the file name given to the importer,
// Field the JSON path of the offending value (empty for the whole file).
type Error struct {
	File, Field string
	Msg         string
}

// Error returns "file: field: message" (without the field when it is empty).
func (e *Error) Error() string {
	if e.Field == "" {
		return e.File + ": " + e.Msg
	}
	return e.File + ": " + e.Field + ": " + e.Msg
}

// Kind is the kind of a Cubism file, told by its name.
type Kind int

// The file kinds.
const (
	Unknown Kind = iota
	Motion
	Physics
	Expression
	Pose
)

// KindOf tells the kind of a file from its name's suffix (.motion3.json,
// .physics3.json, .exp3.json, .pose3.json).
func KindOf(name string) Kind {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".motion3.json"):
		return Motion
	case strings.HasSuffix(n, ".physics3.json"):
		return Physics
	case strings.HasSuffix(n, ".exp3.json"):
		return Expression
	case strings.HasSuffix(n, ".pose3.json"):
		return Pose
	}
	return Unknown
}

// baseName is the file name without directories and the Cubism suffix; it
// becomes the clip or expression id.
func baseName(name string) string {
	b := path.Base(strings.ReplaceAll(name, "\\", "/"))
	for _, s := range []string{".motion3.json", ".physics3.json", ".exp3.json", ".pose3.json"} {
		if strings.HasSuffix(strings.ToLower(b), s) {
			return b[:len(b)-len(s)]
		}
	}
	return b
}

// File is one Cubism file to import.
type File struct {
	Name string // file name: its suffix tells the kind, its base the id
	Data []byte
}

// Import adds the files to m: motions are appended to m.Clips and
// expressions to m.Expressions (an existing clip or expression with the same
// id is replaced), a physics file replaces m.Physics and a pose file m.Pose.
// group is the clip group given to imported motions. On error m is left
// unchanged.
func Import(m *p2l.Model, group string, files ...File) error {
	clips := append([]p2l.Clip(nil), m.Clips...)
	exprs := append([]p2l.Expression(nil), m.Expressions...)
	phys, pose := m.Physics, m.Pose
	for _, f := range files {
		switch KindOf(f.Name) {
		case Motion:
			c, err := ImportMotion(m, f.Name, f.Data)
			if err != nil {
				return err
			}
			c.Group = group
			clips = replaceOrAppend(clips, c, func(x p2l.Clip) string { return x.ID })
		case Expression:
			x, err := ImportExpression(m, f.Name, f.Data)
			if err != nil {
				return err
			}
			exprs = replaceOrAppend(exprs, x, func(x p2l.Expression) string { return x.ID })
		case Physics:
			p, err := ImportPhysics(m, f.Name, f.Data)
			if err != nil {
				return err
			}
			phys = p
		case Pose:
			p, err := ImportPose(m, f.Name, f.Data)
			if err != nil {
				return err
			}
			pose = p
		default:
			return &Error{File: f.Name, Msg: "not a Cubism motion3, physics3, exp3 or pose3 file (told by the name's suffix)"}
		}
	}
	m.Clips, m.Expressions, m.Physics, m.Pose = clips, exprs, phys, pose
	return nil
}

func replaceOrAppend[T any](s []T, v T, id func(T) string) []T {
	for i := range s {
		if id(s[i]) == id(v) {
			s[i] = v
			return s
		}
	}
	return append(s, v)
}

// decoder helpers ---------------------------------------------------------

type ctx struct {
	file string
	m    *p2l.Model
}

func (c *ctx) errf(field, format string, args ...any) error {
	return &Error{File: c.file, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (c *ctx) decode(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if ok := asTypeError(err, &te); ok {
			return c.errf(te.Field, "wrong JSON type: %s where %s is expected", te.Value, te.Type)
		}
		return c.errf("", "bad JSON: %v", err)
	}
	return nil
}

func asTypeError(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}

// num checks that v is finite.
func (c *ctx) num(field string, v float64) (float32, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > math.MaxFloat32 {
		return 0, c.errf(field, "value %v out of range", v)
	}
	return float32(v), nil
}

func (c *ctx) param(field, id string) (int, error) {
	for i := range c.m.Parameters {
		if c.m.Parameters[i].ID == id {
			return i, nil
		}
	}
	return -1, c.errf(field, "unknown parameter id %q", id)
}

func (c *ctx) part(field, id string) (int, error) {
	for i := range c.m.Parts {
		if c.m.Parts[i].ID == id {
			return i, nil
		}
	}
	return -1, c.errf(field, "unknown part id %q", id)
}

// fadeOr returns *v, or def when v is absent or negative (Cubism's rule for
// motion, expression and pose fades).
func (c *ctx) fadeOr(field string, v *float64, def float32) (float32, error) {
	if v == nil {
		return def, nil
	}
	f, err := c.num(field, *v)
	if err != nil || f < 0 {
		return def, err
	}
	return f, nil
}

// motion3 -------------------------------------------------------------------

type motionJSON struct {
	Version int
	Meta    struct {
		Duration             *float64
		Fps                  *float64
		Loop                 bool
		AreBeziersRestricted bool
		FadeInTime           *float64
		FadeOutTime          *float64
	}
	Curves []struct {
		Target      string
		ID          string `json:"Id"`
		FadeInTime  *float64
		FadeOutTime *float64
		Segments    []float64
	}
	UserData []struct {
		Time  *float64
		Value string
	}
}

// bezierPieces is the number of linear pieces an unrestricted Bezier
// segment becomes (see ImportMotion).
const bezierPieces = 64

// ImportMotion converts a motion3.json file into a clip whose id is the file
// name without ".motion3.json".
//
// Bezier segments of files that do not declare AreBeziersRestricted, and
// whose control times are not at 1/3 and 2/3 of the segment, are converted
// into 64 linear pieces sampled from Cubism's cubic-in-time evaluation,
// since the p2l runtime evaluates Bezier segments linearly in time.
func ImportMotion(m *p2l.Model, name string, data []byte) (p2l.Clip, error) {
	c := &ctx{file: name, m: m}
	var j motionJSON
	if err := c.decode(data, &j); err != nil {
		return p2l.Clip{}, err
	}
	clip := p2l.Clip{ID: baseName(name), Name: baseName(name), Loop: j.Meta.Loop}
	var err error
	if j.Meta.Duration == nil {
		return clip, c.errf("Meta.Duration", "missing")
	}
	if clip.Duration, err = c.num("Meta.Duration", *j.Meta.Duration); err != nil {
		return clip, err
	}
	if clip.Duration < 0 {
		return clip, c.errf("Meta.Duration", "negative duration %v", clip.Duration)
	}
	clip.Fps = 30
	if j.Meta.Fps != nil {
		if clip.Fps, err = c.num("Meta.Fps", *j.Meta.Fps); err != nil {
			return clip, err
		}
		if clip.Fps <= 0 {
			return clip, c.errf("Meta.Fps", "fps %v is not positive", clip.Fps)
		}
	}
	if clip.FadeIn, err = c.fadeOr("Meta.FadeInTime", j.Meta.FadeInTime, 1); err != nil {
		return clip, err
	}
	if clip.FadeOut, err = c.fadeOr("Meta.FadeOutTime", j.Meta.FadeOutTime, 1); err != nil {
		return clip, err
	}
	for i, cv := range j.Curves {
		f := fmt.Sprintf("Curves[%d]", i)
		curve, err := c.segments(f+".Segments", cv.Segments, j.Meta.AreBeziersRestricted)
		if err != nil {
			return clip, err
		}
		fin, fout := float32(-1), float32(-1)
		if cv.FadeInTime != nil {
			if fin, err = c.num(f+".FadeInTime", *cv.FadeInTime); err != nil {
				return clip, err
			}
		}
		if cv.FadeOutTime != nil {
			if fout, err = c.num(f+".FadeOutTime", *cv.FadeOutTime); err != nil {
				return clip, err
			}
		}
		switch cv.Target {
		case "Parameter":
			p, err := c.param(f+".Id", cv.ID)
			if err != nil {
				return clip, err
			}
			if fin >= 0 || fout >= 0 {
				clip.CurveFades = append(clip.CurveFades, p2l.CurveFade{Curve: len(clip.Curves), FadeIn: fin, FadeOut: fout})
			}
			clip.Curves = append(clip.Curves, p2l.ParameterCurve{Parameter: p, Curve: curve})
		case "PartOpacity":
			p, err := c.part(f+".Id", cv.ID)
			if err != nil {
				return clip, err
			}
			clip.TargetCurves = append(clip.TargetCurves, p2l.TargetCurve{Target: p2l.TargetPartOpacity, Part: p, FadeIn: fin, FadeOut: fout, Curve: curve})
		case "Model":
			var t p2l.CurveTarget
			switch cv.ID {
			case "Opacity":
				t = p2l.TargetModelOpacity
			case "EyeBlink":
				t = p2l.TargetBlink
			case "LipSync":
				t = p2l.TargetLipSync
			default:
				return clip, c.errf(f+".Id", "unknown Model curve %q (want Opacity, EyeBlink or LipSync)", cv.ID)
			}
			clip.TargetCurves = append(clip.TargetCurves, p2l.TargetCurve{Target: t, Part: -1, FadeIn: fin, FadeOut: fout, Curve: curve})
		default:
			return clip, c.errf(f+".Target", "unknown target %q (want Parameter, PartOpacity or Model)", cv.Target)
		}
	}
	for i, u := range j.UserData {
		f := fmt.Sprintf("UserData[%d].Time", i)
		if u.Time == nil {
			return clip, c.errf(f, "missing")
		}
		t, err := c.num(f, *u.Time)
		if err != nil {
			return clip, err
		}
		clip.Events = append(clip.Events, p2l.Event{Time: t, Value: u.Value})
	}
	sort.SliceStable(clip.Events, func(a, b int) bool { return clip.Events[a].Time < clip.Events[b].Time })
	return clip, nil
}

// segments decodes Cubism's flat segment array: the first point (time,
// value), then per segment a type id and one point (linear, stepped,
// inverse stepped) or three (Bezier: two control points and the end).
func (c *ctx) segments(field string, s []float64, restricted bool) (p2l.Curve, error) {
	var cv p2l.Curve
	if len(s) < 2 {
		return cv, c.errf(field, "needs at least the first point (2 numbers), has %d", len(s))
	}
	pt := func(i int) (p2l.Point, error) {
		if i+1 >= len(s) {
			return p2l.Point{}, c.errf(fmt.Sprintf("%s[%d]", field, i), "segment array ends inside a point")
		}
		t, err := c.num(fmt.Sprintf("%s[%d]", field, i), s[i])
		if err != nil {
			return p2l.Point{}, err
		}
		v, err := c.num(fmt.Sprintf("%s[%d]", field, i+1), s[i+1])
		return p2l.Point{T: t, V: v}, err
	}
	var err error
	if cv.Start, err = pt(0); err != nil {
		return cv, err
	}
	prev := cv.Start
	for i := 2; i < len(s); {
		kind := s[i]
		kf := fmt.Sprintf("%s[%d]", field, i)
		seg := p2l.Segment{Kind: p2l.SegmentKind(kind)}
		switch kind {
		case 0, 2, 3:
			if seg.End, err = pt(i + 1); err != nil {
				return cv, err
			}
			i += 3
		case 1:
			if seg.C1, err = pt(i + 1); err != nil {
				return cv, err
			}
			if seg.C2, err = pt(i + 3); err != nil {
				return cv, err
			}
			if seg.End, err = pt(i + 5); err != nil {
				return cv, err
			}
			i += 7
		default:
			return cv, c.errf(kf, "unknown segment type %v (want 0 linear, 1 Bezier, 2 stepped, 3 inverse stepped)", kind)
		}
		if seg.End.T < prev.T {
			return cv, c.errf(kf, "segment ends at time %v, before its start %v", seg.End.T, prev.T)
		}
		if seg.Kind == p2l.SegmentBezier && !restricted && !isRestricted(prev, seg) {
			cv.Segments = append(cv.Segments, linearizeBezier(prev, seg)...)
		} else {
			cv.Segments = append(cv.Segments, seg)
		}
		prev = seg.End
	}
	return cv, nil
}

// isRestricted reports whether the control times sit at 1/3 and 2/3 of the
// segment, where time-linear and cubic-in-time evaluation agree.
func isRestricted(p0 p2l.Point, s p2l.Segment) bool {
	d := float64(s.End.T - p0.T)
	tol := 1e-4 * math.Max(d, 1e-3)
	return math.Abs(float64(s.C1.T-p0.T)-d/3) <= tol && math.Abs(float64(s.C2.T-p0.T)-2*d/3) <= tol
}

// linearizeBezier samples Cubism's unrestricted Bezier (the curve parameter
// solved from time) at bezierPieces+1 times as linear segments.
func linearizeBezier(p0 p2l.Point, s p2l.Segment) []p2l.Segment {
	x := [4]float64{float64(p0.T), float64(s.C1.T), float64(s.C2.T), float64(s.End.T)}
	y := [4]float64{float64(p0.V), float64(s.C1.V), float64(s.C2.V), float64(s.End.V)}
	bez := func(c [4]float64, u float64) float64 {
		v := 1 - u
		return v*v*v*c[0] + 3*v*v*u*c[1] + 3*v*u*u*c[2] + u*u*u*c[3]
	}
	out := make([]p2l.Segment, 0, bezierPieces)
	for k := 1; k <= bezierPieces; k++ {
		t := x[0] + (x[3]-x[0])*float64(k)/bezierPieces
		lo, hi := 0.0, 1.0
		for range 60 { // bisection for x(u) = t
			mid := (lo + hi) / 2
			if bez(x, mid) < t {
				lo = mid
			} else {
				hi = mid
			}
		}
		u := (lo + hi) / 2
		end := p2l.Point{T: float32(t), V: float32(bez(y, u))}
		if k == bezierPieces {
			end = s.End
		}
		out = append(out, p2l.Segment{Kind: p2l.SegmentLinear, End: end})
	}
	return out
}

// exp3 ----------------------------------------------------------------------

type expressionJSON struct {
	Type        string
	FadeInTime  *float64
	FadeOutTime *float64
	Parameters  []struct {
		ID    string `json:"Id"`
		Value *float64
		Blend *string
	}
}

// ImportExpression converts an exp3.json file into an expression whose id is
// the file name without ".exp3.json". Blend absent means Add.
func ImportExpression(m *p2l.Model, name string, data []byte) (p2l.Expression, error) {
	c := &ctx{file: name, m: m}
	var j expressionJSON
	if err := c.decode(data, &j); err != nil {
		return p2l.Expression{}, err
	}
	x := p2l.Expression{ID: baseName(name), Name: baseName(name)}
	var err error
	if x.FadeIn, err = c.fadeOr("FadeInTime", j.FadeInTime, 1); err != nil {
		return x, err
	}
	if x.FadeOut, err = c.fadeOr("FadeOutTime", j.FadeOutTime, 1); err != nil {
		return x, err
	}
	for i, p := range j.Parameters {
		f := fmt.Sprintf("Parameters[%d]", i)
		pi, err := c.param(f+".Id", p.ID)
		if err != nil {
			return x, err
		}
		if p.Value == nil {
			return x, c.errf(f+".Value", "missing")
		}
		v, err := c.num(f+".Value", *p.Value)
		if err != nil {
			return x, err
		}
		b := p2l.ExpressionAdd
		if p.Blend != nil {
			switch *p.Blend {
			case "Add":
			case "Multiply":
				b = p2l.ExpressionMultiply
			case "Overwrite":
				b = p2l.ExpressionOverwrite
			default:
				return x, c.errf(f+".Blend", "unknown blend %q (want Add, Multiply or Overwrite)", *p.Blend)
			}
		}
		x.Entries = append(x.Entries, p2l.ExpressionEntry{Parameter: pi, Blend: b, Value: v})
	}
	return x, nil
}

// pose3 ---------------------------------------------------------------------

type poseJSON struct {
	Type       string
	FadeInTime *float64
	Groups     [][]struct {
		ID   string `json:"Id"`
		Link []string
	}
}

// ImportPose converts a pose3.json file.
func ImportPose(m *p2l.Model, name string, data []byte) (*p2l.Pose, error) {
	c := &ctx{file: name, m: m}
	var j poseJSON
	if err := c.decode(data, &j); err != nil {
		return nil, err
	}
	p := &p2l.Pose{}
	var err error
	if p.FadeIn, err = c.fadeOr("FadeInTime", j.FadeInTime, 0.5); err != nil {
		return nil, err
	}
	for g, grp := range j.Groups {
		var pg p2l.PoseGroup
		for e, en := range grp {
			f := fmt.Sprintf("Groups[%d][%d]", g, e)
			pi, err := c.part(f+".Id", en.ID)
			if err != nil {
				return nil, err
			}
			pe := p2l.PoseEntry{Part: pi}
			for l, id := range en.Link {
				li, err := c.part(fmt.Sprintf("%s.Link[%d]", f, l), id)
				if err != nil {
					return nil, err
				}
				pe.Linked = append(pe.Linked, li)
			}
			pg.Entries = append(pg.Entries, pe)
		}
		p.Groups = append(p.Groups, pg)
	}
	return p, nil
}

// physics3 ------------------------------------------------------------------

type normJSON struct {
	Minimum, Default, Maximum *float64
}

type physicsJSON struct {
	Version int
	Meta    struct {
		Fps               *float64
		PhysicsDictionary []struct {
			ID   string `json:"Id"`
			Name string
		}
	}
	PhysicsSettings []struct {
		ID    string `json:"Id"`
		Input []struct {
			Source struct {
				Target string
				ID     string `json:"Id"`
			}
			Weight  *float64
			Type    string
			Reflect bool
		}
		Output []struct {
			Destination struct {
				Target string
				ID     string `json:"Id"`
			}
			VertexIndex *int
			Scale       *float64
			Weight      *float64
			Type        string
			Reflect     bool
		}
		Vertices []struct {
			Position                              struct{ X, Y float64 }
			Mobility, Delay, Acceleration, Radius *float64
		}
		Normalization struct {
			Position, Angle normJSON
		}
	}
}

func (c *ctx) source(field, t string) (p2l.PhysicsSource, error) {
	switch t {
	case "X":
		return p2l.PhysicsX, nil
	case "Y":
		return p2l.PhysicsY, nil
	case "Angle":
		return p2l.PhysicsAngle, nil
	}
	return 0, c.errf(field, "unknown type %q (want X, Y or Angle)", t)
}

func (c *ctx) req(field string, v *float64) (float32, error) {
	if v == nil {
		return 0, c.errf(field, "missing")
	}
	return c.num(field, *v)
}

// ImportPhysics converts a physics3.json file. Meta.EffectiveForces is not
// imported: the Cubism framework parses it but never uses it (wind comes
// from the host, Rig.SetPhysicsWind).
func ImportPhysics(m *p2l.Model, name string, data []byte) (p2l.Physics, error) {
	c := &ctx{file: name, m: m}
	var j physicsJSON
	if err := c.decode(data, &j); err != nil {
		return p2l.Physics{}, err
	}
	var ph p2l.Physics
	var err error
	if j.Meta.Fps != nil {
		if ph.Fps, err = c.num("Meta.Fps", *j.Meta.Fps); err != nil {
			return ph, err
		}
		if ph.Fps < 0 {
			return ph, c.errf("Meta.Fps", "negative fps %v", ph.Fps)
		}
	}
	names := map[string]string{}
	for _, d := range j.Meta.PhysicsDictionary {
		names[d.ID] = d.Name
	}
	for s, st := range j.PhysicsSettings {
		f := fmt.Sprintf("PhysicsSettings[%d]", s)
		g := p2l.PhysicsGroup{ID: st.ID, Name: names[st.ID]}
		for i, in := range st.Input {
			fi := fmt.Sprintf("%s.Input[%d]", f, i)
			if in.Source.Target != "" && in.Source.Target != "Parameter" {
				return ph, c.errf(fi+".Source.Target", "unknown target %q (want Parameter)", in.Source.Target)
			}
			p, err := c.param(fi+".Source.Id", in.Source.ID)
			if err != nil {
				return ph, err
			}
			src, err := c.source(fi+".Type", in.Type)
			if err != nil {
				return ph, err
			}
			w, err := c.req(fi+".Weight", in.Weight)
			if err != nil {
				return ph, err
			}
			g.Inputs = append(g.Inputs, p2l.PhysicsInput{Parameter: p, Source: src, Weight: w, Reflect: in.Reflect})
		}
		// Vertex 0 is the strand's root; vertex i ≥ 1 becomes segment i−1
		// (length = Radius). Cubism's Initialize ignores Position and the
		// root's own values; they are still checked to be numbers.
		for i, v := range st.Vertices {
			fv := fmt.Sprintf("%s.Vertices[%d]", f, i)
			if _, err = c.num(fv+".Position.X", v.Position.X); err != nil {
				return ph, err
			}
			if _, err = c.num(fv+".Position.Y", v.Position.Y); err != nil {
				return ph, err
			}
			var seg p2l.PhysicsSegment
			for _, x := range []struct {
				n   string
				src *float64
				dst *float32
			}{{"Mobility", v.Mobility, &seg.Mobility}, {"Delay", v.Delay, &seg.Delay}, {"Acceleration", v.Acceleration, &seg.Acceleration}, {"Radius", v.Radius, &seg.Length}} {
				if *x.dst, err = c.req(fv+"."+x.n, x.src); err != nil {
					return ph, err
				}
			}
			if i > 0 {
				g.Segments = append(g.Segments, seg)
			}
		}
		if len(st.Vertices) == 0 {
			return ph, c.errf(f+".Vertices", "no vertices")
		}
		for i, o := range st.Output {
			fo := fmt.Sprintf("%s.Output[%d]", f, i)
			if o.Destination.Target != "" && o.Destination.Target != "Parameter" {
				return ph, c.errf(fo+".Destination.Target", "unknown target %q (want Parameter)", o.Destination.Target)
			}
			p, err := c.param(fo+".Destination.Id", o.Destination.ID)
			if err != nil {
				return ph, err
			}
			src, err := c.source(fo+".Type", o.Type)
			if err != nil {
				return ph, err
			}
			if o.VertexIndex == nil {
				return ph, c.errf(fo+".VertexIndex", "missing")
			}
			if k := *o.VertexIndex; k < 0 || k >= len(st.Vertices) {
				return ph, c.errf(fo+".VertexIndex", "vertex %d out of range [0, %d)", k, len(st.Vertices))
			}
			scale, err := c.req(fo+".Scale", o.Scale)
			if err != nil {
				return ph, err
			}
			w, err := c.req(fo+".Weight", o.Weight)
			if err != nil {
				return ph, err
			}
			g.Outputs = append(g.Outputs, p2l.PhysicsOutput{Parameter: p, Vertex: *o.VertexIndex, Source: src, Scale: scale, Weight: w, Reflect: o.Reflect})
		}
		n := &g.Normalization
		for _, x := range []struct {
			n   string
			src *float64
			dst *float32
		}{
			{"Position.Minimum", st.Normalization.Position.Minimum, &n.PositionMin},
			{"Position.Maximum", st.Normalization.Position.Maximum, &n.PositionMax},
			{"Position.Default", st.Normalization.Position.Default, &n.PositionDefault},
			{"Angle.Minimum", st.Normalization.Angle.Minimum, &n.AngleMin},
			{"Angle.Maximum", st.Normalization.Angle.Maximum, &n.AngleMax},
			{"Angle.Default", st.Normalization.Angle.Default, &n.AngleDefault},
		} {
			if *x.dst, err = c.req(f+".Normalization."+x.n, x.src); err != nil {
				return ph, err
			}
		}
		ph.Groups = append(ph.Groups, g)
	}
	return ph, nil
}
