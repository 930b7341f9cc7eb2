package cubism

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// expression converts an exp3 file (CubismExpressionMotion.parse).
func (r *reader) expression(ids *ids, id string, root value) p2lrt.Expression {
	x := p2lrt.Expression{ID: id, Name: id}
	x.FadeIn = r.expressionFade(root.get("FadeInTime"))
	x.FadeOut = r.expressionFade(root.get("FadeOutTime"))
	for _, p := range r.list(root.get("Parameters")) {
		pid := r.string(p.get("Id"))
		pi, ok := ids.parameter(pid)
		if !ok {
			r.warn(p.path+".Id", "the model has no parameter %q: entry skipped", pid)
			continue
		}
		v := r.float32(p.get("Value"), 0, false)
		blend := p2lrt.ExpressionAdd
		if b := p.get("Blend"); !b.missing() {
			switch s := r.string(b); s {
			case "Add":
			case "Multiply":
				blend = p2lrt.ExpressionMultiply
			case "Overwrite":
				blend = p2lrt.ExpressionOverwrite
			default:
				// CubismExpressionMotion.parse: any other value recovers as Add.
				r.warn(b.path, "unknown blend %q: Add, as the framework does", s)
			}
		}
		x.Entries = append(x.Entries, p2lrt.ExpressionEntry{Parameter: pi, Blend: blend, Value: v})
	}
	return x
}

// expressionFade is an exp3 fade time: absent is the framework's 1 s. The
// framework takes a negative time as it is, which keeps the expression's
// weight at 0 for good; it is read as 1 s instead, with a warning.
func (r *reader) expressionFade(v value) float32 {
	if v.missing() {
		return 1
	}
	f := r.float32(v, 1, true)
	if f < 0 {
		r.warn(v.path, "negative fade time %v (the framework would never show the expression): 1 s", f)
		return 1
	}
	return f
}
