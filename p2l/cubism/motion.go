package cubism

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// curveKind orders the curve targets as the framework evaluates them
// (CubismMotion.doUpdateParameters): the leading Model curves, then the
// Parameter curves, then the PartOpacity curves, each run ending at the
// first curve of another target.
type curveKind int

const (
	kindModel curveKind = iota
	kindParameter
	kindPartOpacity
)

// motion converts a motion3 file (CubismMotion.parse, CubismMotionJson).
func (r *reader) motion(ids *ids, id string, root value) p2lrt.Clip {
	meta := root.get("Meta")
	if meta.missing() {
		r.warn("Meta", "missing: every Meta value read as the framework's default")
	}
	// Meta.Loop is read (a value of the wrong type is warned) but not
	// applied, as the framework does (CubismMotion.create leaves the loop
	// flag off: "the Editor does not export looping motions"); the Cubism
	// sample plays idle motions once and starts another at random when
	// one ends (SetIdleGroup does the same).
	_ = r.boolean(meta.get("Loop"))
	clip := p2lrt.Clip{ID: id, Name: id}
	restricted := r.boolean(meta.get("AreBeziersRestricted"))
	clip.FadeIn = r.fade(meta.get("FadeInTime"), 1)
	clip.FadeOut = r.fade(meta.get("FadeOutTime"), 1)
	clip.Fps = 30
	if f := meta.get("Fps"); !f.missing() {
		if v := r.float32(f, 30, true); v > 0 {
			clip.Fps = v
		} else {
			r.warn(f.path, "fps %v is not positive: 30 (the clip's fps is informational)", v)
		}
	}

	curves := r.counted(r.list(root.get("Curves")), r.count(meta.get("CurveCount")), "Meta.CurveCount", "curves")
	phase := kindModel
	for i, cv := range curves {
		f := fmt.Sprintf("Curves[%d]", i)
		kind, ok := kindModel, true
		switch t := r.string(cv.get("Target")); t {
		case "Model":
		case "Parameter":
			kind = kindParameter
		case "PartOpacity":
			kind = kindPartOpacity
		default:
			// The framework leaves such a curve's target at its default,
			// Model (CubismMotionCurve's constructor).
			r.warn(f+".Target", "unknown target %q: read as Model, as the framework does", t)
		}
		if kind < phase {
			r.warn(f, "a %s curve after a %s curve: the framework evaluates Model, then Parameter, then PartOpacity curves in file order and stops at the first curve out of that order, so this curve and the %d after it are skipped", kindLabel(kind), kindLabel(phase), len(curves)-1-i)
			break
		}
		phase = kind
		cid := r.string(cv.get("Id"))
		crange := float32(1) // part opacity, model opacity, blink and lip effects run over 0..1
		var param, part int
		var target p2lrt.CurveTarget
		switch kind {
		case kindParameter:
			if param, ok = ids.parameter(cid); !ok {
				r.warn(f+".Id", "the model has no parameter %q: curve skipped", cid)
				continue
			}
			// crange stays 1 for a parameter without range.
		case kindPartOpacity:
			if part, ok = ids.partIndex(cid); !ok {
				r.warn(f+".Id", "the model has no part %q: curve skipped", cid)
				continue
			}
			target = p2lrt.TargetPartOpacity
		default:
			switch cid {
			case "Opacity":
				target = p2lrt.TargetModelOpacity
			case "EyeBlink":
				target = p2lrt.TargetBlink
			case "LipSync":
				target = p2lrt.TargetLipSync
			default:
				r.warn(f+".Id", "Model curve %q is none of Opacity, EyeBlink, LipSync: the framework ignores it, so do we", cid)
				continue
			}
		}
		if kind == kindParameter {
			if p := ids.params[param]; p.Max > p.Min {
				crange = p.Max - p.Min
			}
		}
		curve, ok := r.segments(f+".Segments", cv.get("Segments"), restricted, float64(crange))
		if !ok {
			continue
		}
		fin, fout := r.curveFade(cv.get("FadeInTime")), r.curveFade(cv.get("FadeOutTime"))
		switch kind {
		case kindParameter:
			if fin >= 0 || fout >= 0 {
				clip.CurveFades = append(clip.CurveFades, p2lrt.CurveFade{Curve: len(clip.Curves), FadeIn: fin, FadeOut: fout})
			}
			clip.Curves = append(clip.Curves, p2lrt.ParameterCurve{Parameter: param, Curve: curve})
		case kindPartOpacity:
			clip.TargetCurves = append(clip.TargetCurves, p2lrt.TargetCurve{Target: target, Part: part, FadeIn: fin, FadeOut: fout, Curve: curve})
		default:
			clip.TargetCurves = append(clip.TargetCurves, p2lrt.TargetCurve{Target: target, Part: -1, FadeIn: fin, FadeOut: fout, Curve: curve})
		}
	}

	events := r.counted(r.list(root.get("UserData")), r.count(meta.get("UserDataCount")), "Meta.UserDataCount", "user data")
	for _, u := range events {
		t := r.float32(u.get("Time"), 0, false)
		clip.Events = append(clip.Events, p2lrt.Event{Time: t, Value: r.string(u.get("Value"))})
	}
	// CEXT keeps events in time order; the framework fires by time, so only
	// the order of events fired in one update can differ.
	sort.SliceStable(clip.Events, func(a, b int) bool { return clip.Events[a].Time < clip.Events[b].Time })

	d := meta.get("Duration")
	clip.Duration = r.float32(d, -1, true)
	if clip.Duration < 0 {
		// The framework plays such a motion without end (its end time is
		// −1): the clip lasts to its last key and holds there, which shows
		// the same values.
		clip.Duration = lastKey(&clip)
		what := "missing"
		if !d.missing() {
			what = "negative or not a number"
		}
		r.warn("Meta.Duration", "%s: the framework plays the motion without end; the clip lasts to its last key (%v s)", what, clip.Duration)
	}
	return clip
}

func kindLabel(k curveKind) string {
	return [...]string{"Model", "Parameter", "PartOpacity"}[k]
}

// lastKey is the time of the clip's last key or event (0 without any).
func lastKey(c *p2lrt.Clip) float32 {
	t := float32(0)
	last := func(cv *p2lrt.Curve) {
		t = max(t, cv.Start.T)
		if n := len(cv.Segments); n > 0 {
			t = max(t, cv.Segments[n-1].End.T)
		}
	}
	for i := range c.Curves {
		last(&c.Curves[i].Curve)
	}
	for i := range c.TargetCurves {
		last(&c.TargetCurves[i].Curve)
	}
	for _, e := range c.Events {
		t = max(t, e.Time)
	}
	return t
}

// fade is a motion or expression fade time: absent or negative is def, as
// the framework reads them.
func (r *reader) fade(v value, def float32) float32 {
	if v.missing() {
		return def
	}
	f := r.float32(v, def, true)
	if f < 0 {
		return def
	}
	return f
}

// curveFade is a curve's own fade time: absent is −1 ("the clip's").
func (r *reader) curveFade(v value) float32 {
	if v.missing() {
		return -1
	}
	return r.float32(v, -1, true)
}

// segments decodes the framework's flat segment array: the first point
// (time, value), then per segment a type id and one point (0 linear, 2
// stepped, 3 inverse stepped) or three (1 Bezier: two control points and
// the end). As in CubismMotion.parse, the first segment is read even when
// the array holds only the first point, and numbers past the end of the
// array read as 0 (both with a warning). A curve the framework cannot
// evaluate (an unknown segment type, a value that is no finite float32,
// segment times that go back) is skipped with a warning. rng is the range
// of the curve's target, the unit of the Bezier fitting tolerance.
func (r *reader) segments(field string, v value, restricted bool, rng float64) (p2lrt.Curve, bool) {
	var cv p2lrt.Curve
	if v.missing() {
		r.warn(field, "missing: curve skipped")
		return cv, false
	}
	raw, ok := v.v.([]any)
	if !ok {
		r.warn(field, "%s where an array is expected: curve skipped", typeName(v.v))
		return cv, false
	}
	// A curve holds thousands of numbers: the path of one is made only
	// when it is warned about.
	elem := func(i int) string { return field + "[" + strconv.Itoa(i) + "]" }
	s := make([]float64, len(raw))
	for i, x := range raw {
		f, ok := finiteNumber(x)
		if !ok {
			f = r.number(value{v: x, path: elem(i), set: true}, math.NaN(), true)
		}
		if math.IsNaN(f) || math.Abs(f) > math.MaxFloat32 {
			r.warn(elem(i), "not a finite float32 number: curve skipped")
			return cv, false
		}
		s[i] = f
	}
	num := func(i int) float64 {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	pt := func(i int) p2lrt.Point { return p2lrt.Point{T: float32(num(i)), V: float32(num(i + 1))} }
	cv.Start = pt(0)
	prev := cv.Start
	padded := len(s) < 2
	for i := 2; i == 2 || i < len(s); {
		n := 3 // numbers of this segment, type id included
		kind := p2lrt.SegmentKind(0)
		switch num(i) {
		case 0, 2, 3:
			kind = p2lrt.SegmentKind(num(i))
		case 1:
			kind, n = p2lrt.SegmentBezier, 7
		default:
			r.warn(elem(i), "unknown segment type %v (0 linear, 1 Bezier, 2 stepped, 3 inverse stepped): curve skipped", num(i))
			return cv, false
		}
		padded = padded || i+n > len(s)
		seg := p2lrt.Segment{Kind: kind, End: pt(i + n - 2)}
		if kind == p2lrt.SegmentBezier {
			seg.C1, seg.C2 = pt(i+1), pt(i+3)
		}
		if seg.End.T < prev.T {
			r.warn(elem(i), "segment ends at %v s, before its start %v s: curve skipped", seg.End.T, prev.T)
			return cv, false
		}
		if kind == p2lrt.SegmentBezier && !restricted && !timeLinear(prev, seg) {
			cv.Segments = appendFitted(cv.Segments, prev, seg, rng)
		} else {
			cv.Segments = append(cv.Segments, seg)
		}
		prev = seg.End
		i += n
	}
	if padded {
		r.warn(field, "the array ends inside a point or segment (%d numbers): the missing numbers read as 0, as the framework reads them", len(s))
	}
	return cv, true
}
